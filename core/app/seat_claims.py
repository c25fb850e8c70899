"""Handing a seat to another account: its player asks, and the account proves it is him.

Where user ids are accounts (Telegram, Matrix), a name typed after `move` says nothing of who
holds that account. So `move NEW` gives the seated player a one-time code privately, and the
seat moves once NEW sends `claim CODE` within `CLAIM_LIFETIME`; `CLAIM_TRIES` wrong codes drop
the claim. The store keeps the claim (a digest of its code, never the code), so a restart of
the bot loses none. The codes come from the generator the application is given.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from dataclasses import replace
from datetime import datetime, timedelta

from .i18n import Translator
from .inbound import Inbound
from .messages import Message, Outbound, Reply, ToPlayer
from .names import clean_name
from .ports import ChatStore, SeatClaim
from .seat_moves import CLAIMED, move_error, move_seat
from .session import GameSession
from .work import Work

CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Letters and digits no one mistakes for another (no I, L, O, 0, 1)."""
CODE_LENGTH = 8
CLAIM_LIFETIME = timedelta(minutes=10)
CLAIM_TRIES = 5
"""Wrong codes an identity may send before its claims are dropped."""


def new_code(rng: random.Random) -> str:
    """A one-time code: 8 of 31 letters, about 40 bits."""
    return "".join(rng.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def code_digest(code: str) -> str:
    """What the store keeps of a code; case, spaces and dashes do not count."""
    plain = "".join(code.split()).replace("-", "").upper()
    return hashlib.sha256(plain.encode()).hexdigest()


def ask_claim(
    session: GameSession,
    work: Work,
    tr: Translator,
    inbound: Inbound,
    seat: int,
    new_id: str,
    new_name: str,
    code: str,
    now: datetime,
) -> list[Outbound]:
    """Keep a claim for the seat (in place of any before it), give its player the code
    privately, and tell him in the room what NEW is to do."""
    work.save_seat_claim(
        SeatClaim(
            game_id=session.game_id,
            seat=seat,
            platform=session.platform,
            user_id=new_id,
            name=new_name,
            digest=code_digest(code),
            asked_by=inbound.user_id,
            asked_at=now,
        )
    )
    minutes = int(CLAIM_LIFETIME.total_seconds() // 60)
    private = tr.gettext(
        "Game {game}: to hand your seat to {new}, send this from {new}, here or in the "
        "game's room, within {minutes} minutes: claim {code}"
    ).format(game=session.game_id, new=new_name, minutes=minutes, code=code)
    told = tr.gettext(
        "I sent you a code privately: your seat goes to {new} once {new} sends it to me."
    ).format(new=new_name)
    return [ToPlayer(inbound.user_id, Message(private), session.room), Reply(inbound, told)]


def settle_claim(
    store: ChatStore, work: Work, tr: Translator, inbound: Inbound, code: str, now: datetime
) -> SeatClaim | str:
    """The claim of the sender (by his id, or by his handle) that `code` opens (still to be
    carried out), or why there is none. Expired claims are dropped; a wrong code counts
    against every claim of the sender, and one that reached `CLAIM_TRIES` is dropped."""
    claims = store.seat_claims_of(inbound.platform, inbound.user_id)
    if inbound.handle:  # a seat handed to him by the name people call him here
        claims += store.seat_claims_of(inbound.platform, inbound.handle)
    live = [c for c in claims if now < c.asked_at + CLAIM_LIFETIME]
    digest = code_digest(code)
    opened = next((c for c in live if hmac.compare_digest(c.digest, digest)), None)
    dropped = [c for c in claims if c not in live]
    wrong = [] if opened is not None else [replace(c, wrong=c.wrong + 1) for c in live]
    worn_out = [c for c in wrong if c.wrong >= CLAIM_TRIES]
    for claim in dropped + worn_out:
        work.drop_seat_claim(claim.game_id, claim.seat)
    for claim in wrong:
        if claim not in worn_out:
            work.save_seat_claim(claim)
    if not live:
        if claims:
            return tr.gettext("That code has expired; ask the player to say 'move' again.")
        return tr.gettext("No seat waits for you to claim it.")
    if opened is not None:
        return opened
    if worn_out:
        return tr.gettext("That is not the code, too many times: ask the player for a new one.")
    return tr.gettext("That is not the code; nothing changed.")


def carry_out_claim(
    session: GameSession,
    work: Work,
    tr: Translator,
    inbound: Inbound,
    claim: SeatClaim,
    now: datetime,
) -> list[Outbound]:
    """Seat the claimant in place of the player who asked, if the seat is still his."""
    seat = claim.seat
    if not 0 <= seat < len(session.seats) or (
        session.seats[seat].identity.user_id != claim.asked_by
    ):
        work.drop_seat_claim(claim.game_id, seat)
        return [Reply(inbound, tr.gettext("That seat has moved meanwhile; nothing changed."))]
    error = move_error(session, tr, seat, inbound.user_id)
    if error is not None:
        work.drop_seat_claim(claim.game_id, seat)
        return [Reply(inbound, error)]
    return move_seat(
        session,
        work,
        tr,
        seat,
        inbound.user_id,
        inbound.name if clean_name(inbound.name) else claim.name,
        now,
        asked_by=claim.asked_by,
        reason=CLAIMED,
    )
