"""`analysis` in a room after a game: the expert's look back at it, worked out in a process of
its own, comes to the room as three lines and the replay page with the analysis."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bohnanza.core.app.ports import Capabilities

from .recording import People, Table

WITH_FILES = Capabilities(buttons=True, edits=True, personal_answers=True, files=True)


@pytest.mark.slow
def test_a_room_asks_for_the_analysis_of_its_finished_game_and_gets_page_and_summary(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db", WITH_FILES)
    people = People(table, seed=6)
    game_id = asyncio.run(people.gather("g1", ["ann", "bot:random"]))
    asyncio.run(people.say("ann", "analysis", "g1"))
    assert table.port.last_answer("ann") == "The analysis comes once the game is over."
    for _ in range(3_000):
        if not asyncio.run(people.move("g1")):
            break
    assert "g1" not in table.service.games
    pages = len(table.port.files.get("g1", []))

    asyncio.run(people.say("ann", "analysis", private=True))
    assert table.port.last_answer("ann") == "Ask for the analysis in the game's room."

    async def ask() -> None:
        await people.say("bob", "analysis", "g1")
        assert await table.runner.drain(600)

    asyncio.run(ask())
    texts = table.port.room_texts("g1")
    told = [t for t in texts if t.startswith(f"Game {game_id} looked back:")]
    assert len(told) == 1 and len(told[0].splitlines()) >= 3, told
    page = table.port.files["g1"][-1]
    assert len(table.port.files["g1"]) == pages + 1
    assert b'id="analysis"' in page.data

    asyncio.run(people.say("ann", "analysis", "g1"))
    assert table.port.room_texts("g1")[-1] == f"The analysis of game {game_id} was asked already."


@pytest.mark.slow
def test_the_room_s_last_finished_game_is_found_after_a_restart_and_by_any_worker(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db", WITH_FILES)
    people = People(table, seed=6)
    asyncio.run(people.say("ann", "analysis", "g1"))
    assert table.port.last_answer("ann") == "No game has finished here yet to look back on."
    game_id = asyncio.run(people.gather("g1", ["ann", "bot:random"]))
    for _ in range(3_000):
        if not asyncio.run(people.move("g1")):
            break
    assert "g1" not in table.service.games

    restarted = Table.restarted(table)
    people.table = restarted
    before = len(restarted.port.room_texts("g1"))

    async def ask() -> None:
        await people.say("bob", "analysis", "g1")
        await people.say("ann", "analysis", "g2")
        assert await restarted.runner.drain(600)

    asyncio.run(ask())
    said = restarted.port.room_texts("g1")[before:]
    assert any(t.startswith(f"The expert looks back at game {game_id};") for t in said), said
    assert restarted.port.last_answer("ann") == "No game has finished here yet to look back on."
