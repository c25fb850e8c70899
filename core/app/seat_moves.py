"""Moving a seat to a new identity: a player who came back under a new nick keeps his seat.

A seat is bound to the id its player sat down with. Where ids change (an IRC nick), the
platform moves the seat when it sees the change, and a player can move it himself: `move NEW`
said by the seated player, or `move OLD NEW` said by the game's opener for him. The game's
record keeps who sat down; the store keeps who plays the seat now.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from ..ports import SeatIdentity
from .i18n import Translator
from .messages import Message, Outbound, ToRoom
from .ports import ChatStore
from .session import GameSession

MAX_ID = 200
"""The longest user id a seat can be moved to."""


def apply_moves(session: GameSession, store: ChatStore) -> None:
    """Seat the identities stored as moved in place of the ones that sat down."""
    for seat, identity in store.seat_moves(session.game_id).items():
        if 0 <= seat < len(session.seats) and session.seats[seat].is_human:
            control = session.seats[seat]
            control.identity = replace(
                control.identity, user_id=identity.user_id, name=identity.name
            )


def move_error(session: GameSession, tr: Translator, seat: int | None, new_id: str) -> str | None:
    """Why a seat cannot move to `new_id` (None: it can)."""
    if seat is None:
        return tr.gettext("That player is not playing in this game.")
    if not new_id or len(new_id) > MAX_ID or not new_id.isprintable():
        return tr.gettext("That is not a player's name here.")
    if session.seat_of(new_id) is not None:
        return tr.gettext("{name} plays a seat in this game already.").format(name=new_id)
    return None


def move_seat(
    session: GameSession,
    store: ChatStore,
    tr: Translator,
    seat: int,
    new_id: str,
    new_name: str,
    now: datetime,
) -> list[Outbound]:
    """Store the move, seat the new identity and tell the room."""
    control = session.seats[seat]
    old_name = control.identity.name
    identity = SeatIdentity(session.platform, new_id, new_name)
    store.move_seat(session.game_id, seat, identity, now)
    control.identity = replace(control.identity, user_id=new_id, name=new_name)
    session.hand_tokens.pop(seat, None)
    session.table_key = None
    text = tr.gettext("{old}'s seat is now played by {new}.").format(old=old_name, new=new_name)
    return [ToRoom(session.room, Message(text))]
