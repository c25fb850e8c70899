"""Moving a seat to a new identity: a player who came back under a new nick keeps his seat.

A seat is bound to the id its player sat down with. Where ids are nicks (IRC), the platform
moves the seat when it sees the change, the seated player moves it with `move NEW`, and the
game's opener with `move OLD NEW`, only for a player who is gone (quit, unreachable, or handed
to a bot for missed deadlines). Where ids are accounts (`Capabilities.verified_ids`), `move NEW`
only asks: the seat moves once NEW claims it (`seat_claims`), and nobody moves another's seat.
The game's record keeps who sat down; the store keeps who plays the seat now, who asked, why.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace
from datetime import datetime

from ..ports import SeatIdentity
from . import turns
from .i18n import Translator
from .messages import Message, Outbound, ToRoom
from .names import seat_name
from .session import GameSession
from .work import Work

MAX_ID = 200
"""The longest user id a seat can be moved to."""
ASKED = "asked"
CLAIMED = "claimed"
RENAME = "rename"
OPENER_PLAYER_GONE = "opener: player gone"
"""Why a seat moved, as the store keeps it."""


def seat_moved(session: GameSession, moves: Mapping[int, SeatIdentity]) -> None:
    """Seat the identities `moves` names (as stored) in place of the ones that sat down,
    under their names as `names.seat_name` gives them, whenever they were stored."""
    for seat, identity in moves.items():
        if 0 <= seat < len(session.seats) and session.seats[seat].is_human:
            control = session.seats[seat]
            name = seat_name(identity.name, _others(session, seat), fallback=identity.user_id)
            control.identity = replace(control.identity, user_id=identity.user_id, name=name)


def _others(session: GameSession, seat: int) -> list[str]:
    """The names of the table's other seats."""
    return [name for index, name in enumerate(session.names) if index != seat]


def move_error(session: GameSession, tr: Translator, seat: int | None, new_id: str) -> str | None:
    """Why a seat cannot move to `new_id` (None: it can)."""
    if seat is None:
        return tr.gettext("That player is not playing in this game.")
    if not new_id or len(new_id) > MAX_ID or not new_id.isprintable():
        return tr.gettext("That is not a player's name here.")
    if session.seat_of(new_id) is not None:
        return tr.gettext("{name} plays a seat in this game already.").format(name=new_id)
    return None


def move_request(
    session: GameSession,
    tr: Translator,
    asker: str,
    ids: list[str],
    verified_ids: bool,
    gone: Collection[str],
) -> tuple[int, str] | str:
    """The seat `move` (with the user ids it names) asks to move and why, or why it may
    not: `move NEW` is the seated player's; `move OLD NEW` the opener's, where ids are nicks,
    for a player gone (in `gone`, or handed to a bot for missed deadlines)."""
    if len(ids) == 2 and ids[0] == asker:
        ids = ids[1:]  # his own seat, named
    if len(ids) == 1:
        seat = session.seat_of(asker)
        if seat is None:
            return tr.gettext("You are not playing in this game.")
        return seat, ASKED
    if verified_ids:
        if len(ids) == 2:
            return tr.gettext(
                "Only a seat's player may hand it on here: he says 'move NEW', and NEW "
                "claims it with the code he is given."
            )
        return tr.gettext("Say 'move NEW' to hand your seat to NEW.")
    if len(ids) != 2:
        return tr.gettext("Say 'move NEW' (the opener: 'move OLD NEW').")
    if asker != (session.creator or session.seats[0].identity.user_id):
        return tr.gettext("Only the game's opener may move another's seat.")
    seat = session.seat_of(ids[0])
    if seat is None:
        return tr.gettext("That player is not playing in this game.")
    control = session.seats[seat]
    if control.identity.user_id not in gone and not control.stand_in:
        return tr.gettext(
            "{name} is still here: the opener moves only the seat of a player who is gone."
        ).format(name=control.identity.name)
    return seat, OPENER_PLAYER_GONE


def move_seat(
    session: GameSession,
    work: Work,
    tr: Translator,
    seat: int,
    new_id: str,
    new_name: str,
    now: datetime,
    *,
    asked_by: str,
    reason: str,
) -> list[Outbound]:
    """Store the move (with who asked and why), seat the new identity under its name as
    `names.seat_name` gives it, and tell the room. Someone else taking the seat (not the same
    player renamed on the platform) plays it himself from now on: a stand-in that played for
    the one before him stops, and nobody is told he "is back"."""
    control = session.seats[seat]
    old_name = control.identity.name
    new_name = seat_name(new_name, _others(session, seat), fallback=new_id)
    identity = SeatIdentity(session.platform, new_id, new_name)
    work.move_seat(session.game_id, seat, identity, now, asked_by=asked_by, reason=reason)
    control.identity = replace(control.identity, user_id=new_id, name=new_name)
    if reason != RENAME and turns.hand_back(session, seat):
        turns.close_trade_window(session)
        session.refresh_waiting(now, acted=seat)  # his clock starts now
    session.hand_tokens.pop(seat, None)
    session.table_key = None
    text = tr.gettext("{old}'s seat is now played by {new}.").format(old=old_name, new=new_name)
    if reason == OPENER_PLAYER_GONE:
        text += " " + tr.gettext("The game's opener moved it: {old} was gone.").format(old=old_name)
    return [ToRoom(session.room, Message(text))]
