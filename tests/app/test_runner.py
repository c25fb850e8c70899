"""The runner delivers what the service says through a platform's port, editing where it can."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bohnanza.core.app.inbound import Inbound

from .recording import BUTTONS_AND_EDITS, PLATFORM, TEXT_ONLY, People, Table


def whole_game(table: Table, seats: list[str]) -> str:
    people = People(table)

    async def game() -> str:
        game_id = await people.gather("g1", seats)
        await people.play(["g1"])
        return game_id

    return asyncio.run(game())


def tables_shown(table: Table, game_id: str) -> list[int]:
    """How many versions of the table each room message had."""
    return [
        len(shown.history)
        for shown in table.port.rooms["g1"]
        if shown.text.startswith(f"Bohnanza · game {game_id}")
    ]


@pytest.mark.slow
def test_where_messages_can_be_edited_the_table_is_one_message_kept_current(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db", BUTTONS_AND_EDITS)
    game_id = whole_game(table, ["ann", "bob", "bot"])

    versions = tables_shown(table, game_id)
    assert len(versions) == 1
    assert versions[0] > 20
    # The lobby, the table, the result: nothing else was posted.
    assert len(table.port.rooms["g1"]) == 3


@pytest.mark.slow
def test_where_messages_cannot_be_edited_each_table_is_posted_anew(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db", TEXT_ONLY)
    game_id = whole_game(table, ["ann", "bob", "bot"])

    versions = tables_shown(table, game_id)
    assert len(versions) > 20
    assert set(versions) == {1}
    assert all(len(shown.history) == 1 for shown in table.port.private["ann"])


@pytest.mark.slow
def test_a_table_message_that_is_gone_is_posted_again(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db", BUTTONS_AND_EDITS)
    people = People(table)
    game_id = asyncio.run(people.gather("g1", ["ann", "bob", "bot"]))
    table.port.rooms["g1"] = [s for s in table.port.rooms["g1"] if "Bohnanza · game" not in s.text]

    asyncio.run(People(table).play(["g1"]))

    assert len(tables_shown(table, game_id)) == 1


@pytest.mark.slow
def test_an_unreachable_player_makes_the_room_get_one_notice(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db", BUTTONS_AND_EDITS)
    table.port.unreachable.add("bob")

    whole_game(table, ["ann", "bob", "bot"])

    notice = (
        "Bob: I cannot write to you privately. Open a private chat with me and press Start, "
        "then send /hand here."
    )
    assert table.port.room_texts("g1").count(notice) == 1
    assert "bob" not in table.port.private


def test_a_player_who_becomes_reachable_is_written_to_again(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db", TEXT_ONLY)
    table.port.unreachable.add("bob")
    people = People(table)
    asyncio.run(people.gather("g1", ["ann", "bob", "bot"]))
    table.port.unreachable.clear()

    asyncio.run(people.say("bob", "start", private=True))
    asyncio.run(people.say("bob", "hand"))

    assert table.port.last_answer("bob") == "I sent you your hand privately."
    # Writing to the bot privately brought his hand at once; asking for it posts it anew.
    assert len(table.port.private["bob"]) == 2
    hands = [shown.text for shown in table.port.private["bob"]]
    assert hands[0] == hands[1] and "Your hand" in hands[1]


def test_a_failing_input_is_answered_and_the_runner_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.open(tmp_path / "games.db")

    def broken(inbound: Inbound, now: object) -> list[object]:
        raise RuntimeError("boom")

    monkeypatch.setattr(table.service, "handle", broken)
    asyncio.run(table.runner.submit(Inbound(PLATFORM, "ann", "Ann", "g1", "new", "x1")))

    assert table.port.last_answer("ann") == "Something went wrong; nothing was changed."


def test_the_deadline_loop_plays_what_is_due(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table)
    game_id = asyncio.run(people.gather("g1", ["ann", "bob", "bot"], ["set deadline 1m"]))
    table.clock.advance(minutes=1)

    async def briefly() -> None:
        loop = asyncio.create_task(table.runner.run_deadlines())
        for _ in range(100):
            await asyncio.sleep(0.01)
            if table.action_count(game_id):
                break
        loop.cancel()

    asyncio.run(briefly())

    assert table.action_count(game_id) >= 1


def test_a_restarted_runner_finds_the_stored_games(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    asyncio.run(People(table).gather("g1", ["ann", "bob", "bot"]))

    later = table.restarted()

    assert asyncio.run(later.runner.start()) == 1
    assert asyncio.run(later.runner.start()) == 0
