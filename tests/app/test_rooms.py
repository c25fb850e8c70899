"""Several rooms at once, and one player in games in two rooms."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bohnanza.core.actions import Plant
from bohnanza.core.audit import audit_game
from bohnanza.core.ports import FINISHED

from .recording import People, Table, hand_leaks


def two_rooms(tmp_path: Path) -> tuple[Table, People, str, str]:
    """Ann plays with Bob in g1 and with Cat in g2, each game with a bot; Ann is on turn in both."""
    table = Table.open(tmp_path / "games.db")
    people = People(table)

    async def gather() -> tuple[str, str]:
        first = await people.gather("g1", ["ann", "bob", "bot"])
        second = await people.gather("g2", ["ann", "cat", "bot:random"])
        return first, second

    first, second = asyncio.run(gather())
    return table, people, first, second


def test_in_private_a_player_of_two_games_must_name_the_game(tmp_path: Path) -> None:
    table, people, first, second = two_rooms(tmp_path)

    asyncio.run(people.say("ann", "plant 1", private=True))

    assert table.port.last_answer("ann").startswith("You play in several games;")
    assert (table.action_count(first), table.action_count(second)) == (0, 0)

    asyncio.run(people.say("ann", f"#{second} plant 1", private=True))

    assert table.store.load_record(second).actions == (Plant(0, 0),)
    assert table.action_count(first) == 0


def test_in_a_group_the_room_names_the_game(tmp_path: Path) -> None:
    table, people, first, second = two_rooms(tmp_path)

    asyncio.run(people.say("ann", "plant 1", "g1"))

    assert table.store.load_record(first).actions == (Plant(0, 0),)
    assert table.action_count(second) == 0


def test_each_private_message_names_its_game_and_each_room_gets_its_own_table(
    tmp_path: Path,
) -> None:
    table, _, first, second = two_rooms(tmp_path)

    assert table.port.hand_message("ann", first) is not None
    assert table.port.hand_message("ann", second) is not None
    assert any(f"game {first}" in t for t in table.port.room_texts("g1"))
    assert not any(f"game {second}" in t for t in table.port.room_texts("g1"))
    assert [m.text.split("\n")[0] for m in table.service.hand_of("ann")] == [
        f"Game {first}",
        f"Game {second}",
    ]
    assert table.service.hand_of("eve") == []


@pytest.mark.slow
def test_two_games_in_two_rooms_are_played_to_their_ends_side_by_side(tmp_path: Path) -> None:
    table, people, first, second = two_rooms(tmp_path)

    asyncio.run(people.play(["g1", "g2"]))

    for game_id in (first, second):
        assert audit_game(table.store.load_stored(game_id)) is None
    statuses = {s.game_id: s.status for s in table.store.list_games()}
    assert statuses == {first: FINISHED, second: FINISHED}
    assert table.port.last_room_text("g1").startswith(f"Game {first} is over.")
    assert table.port.last_room_text("g2").startswith(f"Game {second} is over.")
    assert hand_leaks(table.port, "g1", ["ann", "bob", "cat"]) == []
    assert hand_leaks(table.port, "g2", ["ann", "bob", "cat"]) == []
