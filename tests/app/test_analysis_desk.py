"""The analysis a room asks for is worked out beside the room's messages, never in front of
them: while the expert works, the room's answers, a new lobby and the new game's table reach it;
the analysis comes when it is ready. The line of requests is bounded, and each room is told
where its request stands. On Telegram, every input through the adapter's own translation."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bohnanza.adapters import background
from bohnanza.core.analysis import Analysis, SearchSize, analyse_game
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.record import GameRecord

from .platform_people import TelegramPeople, platform_table
from .recording import Table

BOUND = 300.0
"""Seconds an awaited delivery may take on a loaded machine (it takes milliseconds)."""


class Expert:
    """The analysis in a thread, held until the test lets it go (a small search, the real
    one), instead of minutes of work in a process of its own."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.started: list[str | None] = []

    def analyse(self, record: GameRecord) -> Analysis:
        self.started.append(record.game_id)
        assert self.go.wait(BOUND), "the test never let the analysis go"
        return analyse_game(record, size=SearchSize(deals=2))


@pytest.fixture
def expert(monkeypatch: pytest.MonkeyPatch) -> Iterator[Expert]:
    held = Expert()
    pool = ThreadPoolExecutor(1)
    monkeypatch.setattr(background, "_pool", lambda: pool)
    monkeypatch.setattr(background, "analyse_game", held.analyse)
    yield held
    held.go.set()
    pool.shutdown(wait=True)


def finished_game(people: TelegramPeople, room: str, person: str) -> str:
    """A game of one person and a random bot in `room`, played to its end; its id."""
    game_id = asyncio.run(people.gather(room, [person, "bot:random"]))
    for _ in range(5_000):
        if not asyncio.run(people.move(room)):
            break
    assert room not in people.table.service.games
    return game_id


def told(table: Table, room: str, since: int = 0) -> list[str]:
    return table.port.room_texts(room)[since:]


@pytest.mark.slow
def test_the_room_s_messages_never_wait_for_the_analysis(tmp_path: Path, expert: Expert) -> None:
    table = platform_table(tmp_path / "games.db", "telegram")
    people = TelegramPeople(table, seed=6)
    room = "-100"
    game_id = finished_game(people, room, "1001")
    files = len(table.port.files.get(room, []))

    async def scenario() -> None:
        await people.say("1002", "analysis", room)
        before = len(told(table, room))
        # The expert is at work; the room goes on: help, a new game gathered and started.
        for user, command in [
            ("1001", "help"),
            ("1001", "new"),
            ("1002", "join"),
            ("1001", "set deadline off"),
            ("1001", "start"),
        ]:
            await people.say(user, command, room)  # delivered before it returns
        assert await table.runner.drain(0.0) is False  # the analysis is still being made
        said = told(table, room, before)
        assert any(t.startswith("A game of Bohnanza is being gathered") for t in said), said
        assert any(t.startswith("Bohnanza · game ") for t in said), said
        assert table.port.answers_to("1001"), "help was not answered"
        assert not any("looked back" in t for t in said)
        expert.go.set()
        assert await table.runner.drain(BOUND)

    bounded_deliveries(table)
    asyncio.run(scenario())
    summary = [t for t in told(table, room) if t.startswith(f"Game {game_id} looked back:")]
    assert len(summary) == 1 and len(summary[0].splitlines()) >= 3, summary
    page = table.port.files[room][-1]
    assert len(table.port.files[room]) == files + 1 and b'id="analysis"' in page.data


@pytest.mark.slow
def test_the_line_is_bounded_and_each_room_is_told_where_its_request_stands(
    tmp_path: Path, expert: Expert
) -> None:
    table = platform_table(tmp_path / "games.db", "telegram")
    table.runner.desk.max_waiting = 2
    bounded_deliveries(table)
    people = TelegramPeople(table, seed=6)
    rooms = ["-101", "-102", "-103", "-104"]
    games = [finished_game(people, room, f"20{i}") for i, room in enumerate(rooms)]

    async def scenario() -> list[str]:
        for i, room in enumerate(rooms):
            await people.say(f"30{i}", "analysis", room)
        answers = [told(table, room)[-1] for room in rooms]
        await people.say("310", "analysis", rooms[1])
        answers.append(told(table, rooms[1])[-1])
        # Once the line moved on, the room that was turned away asks again.
        expert.go.set()
        assert await table.runner.drain(BOUND)
        await people.say("303", "analysis", rooms[3])
        assert await table.runner.drain(BOUND)
        return answers

    first, second, third, fourth, again = asyncio.run(scenario())
    assert first == (
        f"The expert looks back at game {games[0]}; its analysis comes here in a few minutes."
    )
    assert second == (
        f"The expert looks back at game {games[1]} after 1 other game; its analysis comes here "
        "when it is ready."
    )
    assert third == (
        f"The expert looks back at game {games[2]} after 2 other games; its analysis comes here "
        "when it is ready."
    )
    assert fourth == "The expert has 3 analyses to work out first: ask again in a while."
    assert again == f"The analysis of game {games[1]} was asked already."
    assert expert.started == [*games[:3], games[3]]
    for room, game_id in zip(rooms, games, strict=True):
        summaries = [t for t in told(table, room) if t.startswith(f"Game {game_id} looked back:")]
        assert len(summaries) == 1, (room, told(table, room))
        assert b'id="analysis"' in table.port.files[room][-1].data


def bounded_deliveries(table: Table) -> None:
    """The runner's `submit` waits for its messages at most `BOUND` seconds: a delivery held
    behind the analysis fails the test rather than hang it."""
    submit = table.runner.submit

    async def bounded(inbound: Inbound, wait: bool = True) -> asyncio.Future[None]:
        done = await submit(inbound, wait=False)
        if wait:
            async with asyncio.timeout(BOUND):
                await asyncio.shield(done)
        return done

    table.runner.submit = bounded  # type: ignore[method-assign]


@pytest.mark.slow
def test_a_stop_lets_an_analysis_in_hand_go_and_delivers_the_rest(
    tmp_path: Path, expert: Expert
) -> None:
    table = platform_table(tmp_path / "games.db", "telegram")
    bounded_deliveries(table)
    people = TelegramPeople(table, seed=6)
    room = "-100"
    finished_game(people, room, "1001")

    async def ask_then_stop() -> bool:
        await people.say("1002", "analysis", room)
        await people.say("1001", "new", room)
        return await table.runner.stop(BOUND)

    assert asyncio.run(ask_then_stop())
    said = told(table, room)
    assert said[-1].startswith("A game of Bohnanza is being gathered")
    assert not any("looked back" in t for t in said)
