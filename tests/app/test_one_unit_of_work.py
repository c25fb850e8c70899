"""Everything a chat input writes is written in one unit of work: one transaction of the store,
opened at one place in the code (`core/app/work.py`), with the input's delivery id."""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bohnanza.adapters.runner import Runner
from bohnanza.adapters.store import open_store
from bohnanza.core.app import work
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Outbound, ToPlayer
from bohnanza.core.app.service import ChatService
from bohnanza.core.app.updates import hand_key

from .recording import PLATFORM, TEXT_ONLY, FakeClock, People, RecordingPort, Table

WRITES = frozenset(
    {
        "append_actions",
        "save_chat_state",
        "save_lobby",
        "drop_lobby",
        "start_game",
        "save_player_settings",
        "move_seat",
        "save_seat_claim",
        "drop_seat_claim",
        "record_delivery",
        "forget_deliveries",
        "add_game",
        "finish_game",
    }
)


class WatchedStore:
    """A store whose writes note whether they were made inside `atomic`, and who opened it."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.inside = False
        self.units: list[str] = []
        """The file that opened each unit of work."""
        self.writes: list[tuple[str, bool]] = []

    @contextmanager
    def atomic(self) -> Iterator[None]:
        # Past contextmanager's own frame; its code only (`inspect.stack` would read the source
        # of every frame, at every unit).
        caller = sys._getframe(2).f_code.co_filename
        self.units.append(caller)
        self.inside = True
        try:
            with self._store.atomic():
                yield
        finally:
            self.inside = False

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if name not in WRITES:
            return found

        def write(*args: Any, **kwargs: Any) -> Any:
            self.writes.append((name, self.inside))
            return found(*args, **kwargs)

        return write


@pytest.mark.slow
def test_every_write_of_every_input_is_in_one_unit_of_work_opened_in_work_py(
    tmp_path: Path,
) -> None:
    sql = open_store(str(tmp_path / "games.db"), create=True)
    watched = WatchedStore(sql)
    port = RecordingPort()
    clock = FakeClock()
    service = ChatService(PLATFORM, port.capabilities, watched, rng=random.Random(4))  # type: ignore[arg-type]
    table = Table(
        tmp_path / "games.db", port, clock, sql, service, Runner(service, port, clock, store=sql)
    )
    inputs: list[tuple[int, int]] = []
    handle: Callable[[Inbound, datetime], list[Outbound]] = service.handle

    def counted(inbound: Inbound, now: datetime) -> list[Outbound]:
        units, writes = len(watched.units), len(watched.writes)
        out = handle(inbound, now)
        inputs.append((len(watched.units) - units, len(watched.writes) - writes))
        return out

    service.handle = counted  # type: ignore[method-assign]
    people = People(table, seed=2)
    asyncio.run(people.say("ann", "set notify all", private=True))
    asyncio.run(people.gather("g1", ["ann", "bob", "bot", "cid"]))
    for _ in range(3_000):
        if not asyncio.run(people.move("g1")):
            break
    assert "g1" not in service.games

    assert len(inputs) > 100
    assert all(units == 1 for units, _ in inputs), "one unit of work per input"
    assert all(writes >= 1 for _, writes in inputs), "its delivery id at least"
    assert all(inside for _, inside in watched.writes), "no write outside a unit of work"
    assert set(watched.units) == {work.__file__}
    kinds = {name for name, _ in watched.writes}
    assert {"append_actions", "save_lobby", "start_game", "save_player_settings"} <= kinds


def test_what_an_input_shows_is_stored_with_it_and_a_look_notes_nothing(tmp_path: Path) -> None:
    """The views of an input are presented in its unit of work: after each, the store holds what
    every seat was shown (the lists his numbers answer). Views looked at without a moment are
    derived only: a player's message behind the game (only his moves changed, through others)
    is derived as it stands, and nothing of it is noted."""
    table = Table.open(tmp_path / "games.db", TEXT_ONLY)
    people = People(table, seed=3)
    game_id = asyncio.run(people.gather("g1", ["ann", "bob", "bot"]))

    def behind() -> list[int]:
        session = table.session("g1")
        caps = table.port.capabilities
        return [
            seat
            for seat in session.humans()
            if session.hand_tokens.get(seat) != hand_key(session, seat, caps)
        ]

    for _ in range(300):
        assert asyncio.run(people.move("g1"))
        stored = table.store.load_chat_state(game_id)
        assert stored is not None
        assert stored.data == table.session("g1").chat_state().data
        if behind():
            break
    assert behind(), "a moment when a player's message is behind the game"

    looked = table.service.views()
    assert any(o.slot == f"hand:{game_id}" for o in looked if isinstance(o, ToPlayer))
    assert table.session("g1").chat_state().data == stored.data, "a look changes nothing"
    assert behind()
