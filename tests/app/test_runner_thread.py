"""The runner handles inputs for tables with expert bots in a thread of its own: while they think,
the event loop goes on; other inputs stay on the loop."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Outbound

from .recording import PLATFORM, People, Table

WAIT = 60.0
"""Seconds a held-up input waits for the event loop before it gives up on it."""


def hold_inputs(table: Table, monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, list]:
    """Make each input wait, before the service handles it, until the event loop sets the
    event (at most `WAIT` seconds); the list records per input whether the loop did."""
    loop_ran = threading.Event()
    seen: list[bool] = []
    handle = table.service.handle

    def held(inbound: Inbound, now: object) -> list[Outbound]:
        seen.append(loop_ran.wait(WAIT))
        loop_ran.clear()
        return handle(inbound, now)  # type: ignore[arg-type]

    monkeypatch.setattr(table.service, "handle", held)
    return loop_ran, seen


def test_the_event_loop_runs_while_expert_bots_answer_a_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    game_id = asyncio.run(people.gather("g1", ["ann", "bot:expert", "bot:expert"]))
    loop_ran, seen = hold_inputs(table, monkeypatch)
    before = table.action_count(game_id)

    async def moves_with_a_heartbeat() -> None:
        done = False

        async def heartbeat() -> None:
            while not done:
                loop_ran.set()
                await asyncio.sleep(0.001)

        beating = asyncio.create_task(heartbeat())
        for _ in range(3):
            await people.move("g1")
        done = True
        await beating

    asyncio.run(moves_with_a_heartbeat())

    assert seen and all(seen)
    session = table.session("g1")
    assert any(s.identity.kind == "bot" and s.identity.strategy == "expert" for s in session.seats)
    # The moves and the experts' answers were played and stored.
    assert table.action_count(game_id) > before + 3


def test_a_question_to_the_service_waits_for_the_input_in_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.open(tmp_path / "games.db")
    asyncio.run(People(table).gather("g1", ["ann", "bot:expert", "bot:expert"]))
    loop_ran, _ = hold_inputs(table, monkeypatch)
    order: list[str] = []
    held = table.service.handle

    def handle(inbound: Inbound, now: object) -> list[Outbound]:
        out = held(inbound, now)  # type: ignore[arg-type]
        order.append("handled")
        return out

    monkeypatch.setattr(table.service, "handle", handle)

    async def a_command_and_a_question() -> None:
        submitted = asyncio.create_task(
            table.runner.submit(Inbound(PLATFORM, "ann", "Ann", "g1", "table", "x1"))
        )
        await asyncio.sleep(0.01)  # the input is now held in the runner's thread
        asked = asyncio.create_task(table.runner.read(lambda service: order.append("asked")))
        await asyncio.sleep(0.01)
        order.append("released")
        loop_ran.set()
        await submitted
        await asked

    asyncio.run(a_command_and_a_question())

    assert order == ["released", "handled", "asked"]


def test_an_input_that_takes_a_while_shows_the_bot_at_work_until_it_is_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.open(tmp_path / "games.db")
    asyncio.run(People(table).gather("g1", ["ann", "bob", "bot"]))
    asyncio.run(People(table).gather("g2", ["cat", "bot:expert"]))
    table.runner.at_work_after = 0.05
    shown_while_held: list[list[tuple[str, bool]]] = []
    handle = table.service.handle

    def slow(inbound: Inbound, now: object) -> list[Outbound]:
        if inbound.room == "g2":  # held until the bot is shown at work (at most `WAIT` s)
            for _ in range(int(WAIT / 0.01)):
                if table.port.thinking_shown:
                    break
                threading.Event().wait(0.01)
            shown_while_held.append(list(table.port.thinking_shown))
        return handle(inbound, now)  # type: ignore[arg-type]

    monkeypatch.setattr(table.service, "handle", slow)

    async def inputs() -> None:
        await table.runner.submit(Inbound(PLATFORM, "ann", "Ann", "g1", "table", "x1"))
        await table.runner.submit(Inbound(PLATFORM, "cat", "Cat", "g2", "table", "x2"))
        await asyncio.sleep(0.05)  # the notice that work ended is sent without waiting

    asyncio.run(inputs())

    # Only the input at the experts' table ran in the runner's thread, and was shown.
    assert shown_while_held == [[("g2", True)]]
    assert table.port.thinking_shown == [("g2", True), ("g2", False)]


def test_only_inputs_for_tables_with_searching_bots_may_take_long(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    asyncio.run(people.gather("plain", ["ann", "bot"]))
    asyncio.run(people.gather("deep", ["bob", "bot:expert"]))
    asyncio.run(people.say("cat", "new", "lobby"))
    asyncio.run(people.say("cat", "bot expert", "lobby"))
    service = table.service

    def long(user: str, room: str, private: bool = False) -> bool:
        return service.may_take_long(Inbound(PLATFORM, user, user, room, "table", "", private))

    assert not long("ann", "plain")
    assert long("bob", "deep")
    assert long("cat", "lobby")  # starting it may let the expert move first
    assert not long("ann", "dm:ann", private=True)
    assert long("bob", "dm:bob", private=True)
    assert service.may_take_long()  # deadlines: a game with an expert is open
    del service.games["deep"]
    assert not service.may_take_long()
