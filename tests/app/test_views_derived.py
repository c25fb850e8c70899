"""What each audience sees is derived from the game as it stands: at every moment of whole games,
every view of every seat derived twice gives the same messages, and deriving changes nothing
of the session (what was shown is noted only by `updates.record`, a step of its own)."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest

from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Outbound
from bohnanza.core.app.ports import Capabilities
from bohnanza.core.app.screens import screen_message
from bohnanza.core.app.session import GameSession
from bohnanza.core.app.updates import hand_updates, private_message, table_message, table_update

from .recording import BUTTONS_AND_EDITS, TEXT_ONLY, People, Table
from .test_tapping_game import SEATS, play_by_taps

NO_EDITS_DECISIONS = Capabilities(private_updates="decisions")


def _memory(session: GameSession) -> object:
    """All a session keeps of what was shown and what it waits on."""
    seats = [
        (c.due, c.screen, c.screen_at, copy.deepcopy(c.numbers), c.passed, c.reminded)
        for c in session.seats
    ]
    return (
        copy.deepcopy(session.chat_state().data),
        session.table_key,
        dict(session.hand_tokens),
        seats,
        len(session.unsaved),
        session.trade_window_until,
    )


def _every_view(session: GameSession, table: Table, now: datetime) -> list[object]:
    tr = table.service.translator(session.language)
    caps = table.service.capabilities
    views: list[object] = [
        table_message(session, tr, caps, now),
        table_update(session, tr, caps, fresh=True, now=now).out,
        table_update(session, tr, caps, now=now).out,
        hand_updates(session, tr, caps).out,
        hand_updates(session, tr, caps, force=set(session.humans())).out,
    ]
    for seat in session.humans():
        views += [
            screen_message(session, seat, tr),
            private_message(session, seat, tr, caps),
            hand_updates(session, tr, caps, force={seat}, only={seat}).out,
            hand_updates(session, tr, caps, acting=seat).out,
        ]
    return views


class Checked:
    """The service's `handle`, each of whose answers is followed by the check."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.moments = 0
        self.screens = 0
        """Moments at which a seat had a screen of its own (a question, a draft)."""
        handle: Callable[[Inbound, datetime], list[Outbound]] = table.service.handle

        def checked(inbound: Inbound, now: datetime) -> list[Outbound]:
            out = handle(inbound, now)
            self.check(now)
            return out

        table.service.handle = checked  # type: ignore[method-assign]

    def check(self, now: datetime) -> None:
        for session in list(self.table.service.games.values()):
            before = _memory(session)
            first = _every_view(session, self.table, now)
            second = _every_view(session, self.table, now)
            assert first == second
            assert _memory(session) == before
            self.moments += 1
            self.screens += any(control.screen for control in session.seats)


@pytest.mark.slow
@pytest.mark.parametrize("capabilities", [BUTTONS_AND_EDITS, TEXT_ONLY, NO_EDITS_DECISIONS])
@pytest.mark.parametrize("seats", [["ann", "bob"], ["ann", "bot", "cid"]])
def test_every_view_derived_twice_is_the_same_and_changes_nothing(
    tmp_path: Path, capabilities: Capabilities, seats: list[str]
) -> None:
    table = Table.open(tmp_path / "games.db", capabilities)
    checked = Checked(table)
    people = People(table, seed=3)
    asyncio.run(people.gather("g1", seats))
    for _ in range(3_000):
        if not asyncio.run(people.move("g1")):
            break
    assert "g1" not in table.service.games
    assert checked.moments > 100


@pytest.mark.slow
def test_the_screens_of_a_game_played_by_taps_are_derived_alike(tmp_path: Path) -> None:
    """Questions, the offer picker and its drafts: every screen a button opens."""
    table = Table.open(tmp_path / "games.db")
    checked = Checked(table)
    people = People(table, seed=5)
    asyncio.run(people.gather("g1", SEATS))
    play_by_taps(table, people, seed=5)
    assert "g1" not in table.service.games
    assert checked.moments > 200
    assert checked.screens > 10
