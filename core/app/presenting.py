"""Presenting: what the audiences of each game an input touched now see, derived once the input
is decided, and noted in the same unit of work.

A handler decides and answers; where the views of a game go among its answers it puts a
`Show`, which says which views (the table, private messages) and how. `present`, the step that
`work.attempt` runs after the handler, inside the unit of work, puts in each `Show`'s place the
messages derived from the game as the handler left it (`updates`), notes in the game what they
show (`updates.record`: the lists numbers answer, the moments of messages) and gives the game to
the work: what a seat was shown is stored with the move it follows, in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import Enum

from .context import Context
from .messages import Message, Outbound, ToPlayer
from .session import GameSession
from .updates import (
    Update,
    hand_updates,
    record,
    retired_text,
    table_message,
    table_of,
    table_update,
)
from .work import Work


class Table(Enum):
    """What a `Show` shows of the room's table."""

    NONE = "none"
    DUE = "due"
    """The table when it is due (the turn changed, trading opened, the game ended)."""
    FRESH = "fresh"
    """The table posted anew."""
    WHOLE = "whole"
    """The table as it stands, due or not, in its place (a heal)."""


@dataclass(frozen=True, eq=False)
class Show:
    """Views of one game, derived where this stands among an input's answers once the input is
    decided. The seats' private messages as `updates.hand_updates` derives them: those that
    changed, and those of the seats in `force` as they stand, of every person at the table or of
    the seats in `only`."""

    session: GameSession
    table: Table = Table.DUE
    force: frozenset[int] = frozenset()
    only: frozenset[int] | None = None
    acting: int | None = None
    """The seat whose input it answers."""
    timed: bool = True
    """Times told from the moment of the input where a screen is printed anew (`times_from`)."""
    anew_to: str | None = None
    """The player whose private messages of this game are posted anew, below his input (the
    one they replace told it moved on)."""
    reprint: int | None = None
    """Where one screen shows everything: this seat's screen printed anew when nothing else of
    this input was shown to him (the lines on what happened since come above it)."""


Said = Outbound | Show
"""What a handler answers: messages, and where the views of a game go among them."""


def moved(session: GameSession, acting: int | None = None, fresh: bool = False) -> Show:
    """After a move: the table when due (`fresh`: posted anew), the private messages that
    changed (`acting`: the seat whose move it was)."""
    return Show(session, Table.FRESH if fresh else Table.DUE, acting=acting)


def seat_view(session: GameSession, seat: int, fresh: bool = False) -> Show:
    """A seat's private message as the game stands, in answer to his input (`fresh`: posted
    anew)."""
    user = session.seats[seat].identity.user_id if fresh else None
    seats = frozenset({seat})
    return Show(session, Table.NONE, seats, seats, acting=seat, anew_to=user)


def table_anew(session: GameSession) -> Show:
    """The room's table posted anew, and nothing else."""
    return Show(session, Table.FRESH, only=frozenset())


def every_view(session: GameSession) -> Show:
    """The table and every private message as they stand."""
    return Show(session, Table.WHOLE, frozenset(session.humans()))


def seat_healed(session: GameSession, seat: int) -> Show:
    """A seat's private message as it stands, not in answer to anything (a heal)."""
    seats = frozenset({seat})
    return Show(session, Table.NONE, seats, seats, timed=False)


def present(ctx: Context, work: Work, said: Sequence[Said], now: datetime) -> list[Outbound]:
    """The messages of a decided input, each `Show` replaced by the views it names; what they
    show noted in their game, and the game given to `work` to store."""
    out: list[Outbound] = []
    for item in said:
        if not isinstance(item, Show):
            out.append(item)
            continue
        session = item.session
        update = derived(ctx, item, now)
        record(session, update.shown)
        shown = update.out
        if item.reprint is not None:
            shown += _reprinted(ctx, session, item.reprint, out + shown, now)
        if item.anew_to is not None:
            retired = Message(retired_text(session, ctx.translator(session.language)))
            shown = [
                replace(o, fresh=True, retired=retired)
                if isinstance(o, ToPlayer) and o.user_id == item.anew_to
                else o
                for o in shown
            ]
        work.save_game(session)
        out += shown
    return out


def looked_at(ctx: Context, said: Sequence[Said]) -> list[Outbound]:
    """The messages with the views derived and nothing noted: a look, not a showing."""
    out: list[Outbound] = []
    for item in said:
        out += derived(ctx, item, None).out if isinstance(item, Show) else [item]
    return out


def derived(ctx: Context, show: Show, now: datetime | None) -> Update:
    """The views a `Show` names, as its game stands; nothing is changed."""
    session = show.session
    tr = ctx.translator(session.language)
    caps = ctx.capabilities
    at = now if show.timed else None
    update = Update()
    if show.table is Table.WHOLE:
        update.out.append(table_of(session, table_message(session, tr, caps, at)))
    elif show.table is not Table.NONE:
        update += table_update(session, tr, caps, fresh=show.table is Table.FRESH, now=at)
    only = None if show.only is None else set(show.only)
    force = set(show.force) or None
    return update + hand_updates(session, tr, caps, force, only, show.acting, at)


def _reprinted(
    ctx: Context, session: GameSession, seat: int, shown: list[Outbound], now: datetime
) -> list[Outbound]:
    """The seat's screen printed anew, where nothing shown so far went to him."""
    user = session.seats[seat].identity.user_id
    if any(isinstance(o, ToPlayer) and o.user_id == user for o in shown):
        return []
    tr = ctx.translator(session.language)
    update = hand_updates(session, tr, ctx.capabilities, force={seat}, only={seat}, now=now)
    record(session, update.shown)
    return [replace(o, fresh=True) if isinstance(o, ToPlayer) else o for o in update.out]
