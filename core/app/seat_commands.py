"""Seats handed to a new identity: `move NEW` (claimed with a code where ids are accounts),
the opener's `move OLD NEW` for a player gone where ids are nicks, `claim CODE`, and a
platform's rename (an IRC nick change)."""

from __future__ import annotations

from datetime import datetime

from .accounts import SeveralAccounts, accounts_named
from .context import Context
from .i18n import Translator
from .inbound import Inbound
from .messages import Reply
from .presenting import Said, every_view
from .seat_claims import ask_claim, carry_out_claim, new_code, settle_claim
from .seat_moves import RENAME, move_error, move_request, move_seat
from .work import Work


def move(
    ctx: Context,
    work: Work,
    inbound: Inbound,
    tr: Translator,
    args: tuple[str, ...],
    now: datetime,
) -> list[Said]:
    """`move NEW` by a seated player: NEW plays his seat from now on (where ids are accounts,
    once NEW claims it: `seat_claims`); `move OLD NEW` by the game's opener, where ids are
    nicks, for a player gone (`seat_moves.move_request`)."""
    session = None if inbound.private else ctx.tables.room_session(inbound.room)
    if session is None:
        return [Reply(inbound, tr.gettext("Say 'move NEW' in the room of your game."))]
    tr = ctx.translator(session.language)
    verified = ctx.capabilities.verified_ids
    try:
        accounts = accounts_named(inbound, args, ctx.user_id_of)
    except SeveralAccounts as several:
        text = tr.gettext("Several people here are called {name}: name him by his user id.")
        return [Reply(inbound, text.format(name=str(several)))]
    ids = [user_id for user_id, _ in accounts]
    if len(ids) == 2 and inbound.handle and ids[0] == inbound.handle:
        ids[0] = inbound.user_id  # his own seat, named as people name him
    request = move_request(session, tr, inbound.user_id, ids, verified, ctx.gone)
    if isinstance(request, str):
        return [Reply(inbound, request)]
    seat, reason = request
    new_id, new_name = accounts[-1]
    if not new_id:
        text = tr.gettext(
            "I cannot tell whose account {name} is: name him as this chat does (his @name or "
            "user id), or answer one of his messages with 'move'."
        )
        return [Reply(inbound, text.format(name=new_name))]
    error = move_error(session, tr, seat, new_id)
    if error is not None:
        return [Reply(inbound, error)]
    if verified:
        code = new_code(ctx.codes)
        return [*ask_claim(session, work, tr, inbound, seat, new_id, new_name, code, now)]
    work.save_game(session)
    moved = move_seat(
        session, work, tr, seat, new_id, new_name, now, asked_by=inbound.user_id, reason=reason
    )
    return [*moved, every_view(session)]


def claim(
    ctx: Context,
    work: Work,
    inbound: Inbound,
    tr: Translator,
    args: tuple[str, ...],
    now: datetime,
) -> list[Said]:
    """`claim CODE`, in a room or privately: the identity a seat's player handed it to takes
    it (`seat_claims`)."""
    if len(args) != 1:
        return [Reply(inbound, tr.gettext("Say 'claim CODE' with the code you were given."))]
    settled = settle_claim(ctx.store, work, tr, inbound, args[0], now)
    if isinstance(settled, str):
        return [Reply(inbound, settled)]
    tables = ctx.tables
    session = tables.session_by_id(settled.game_id) or tables.adopt(settled.game_id)
    session = None if session is None else tables.up_to_date(session)
    if session is None:
        work.drop_seat_claim(settled.game_id, settled.seat)
        return [Reply(inbound, tr.gettext("That game is over."))]
    tr = ctx.translator(session.language)
    work.save_game(session)
    out = carry_out_claim(session, work, tr, inbound, settled, now)
    if any(isinstance(o, Reply) for o in out):
        return [*out]
    return [*out, every_view(session)]


def rename(
    ctx: Context, work: Work, old_id: str, new_id: str, new_name: str, now: datetime
) -> list[Said]:
    """A player's id changed on the platform (an IRC nick change): his seats follow."""
    out: list[Said] = []
    for session in ctx.tables.player_sessions(old_id):
        seat = session.seat_of(old_id)
        if seat is None or session.seat_of(new_id) is not None:
            continue
        tr = ctx.translator(session.language)
        out += move_seat(
            session, work, tr, seat, new_id, new_name, now, asked_by=old_id, reason=RENAME
        )
        work.save_game(session)
        out.append(every_view(session))
    return out
