"""Whole games played through the chat application by people and bots, stored and audited."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bohnanza.core.app.ports import Capabilities
from bohnanza.core.audit import audit_game
from bohnanza.core.ports import FINISHED

from .recording import BUTTONS_AND_EDITS, TEXT_ONLY, People, Table, hand_leaks


def play_game(
    tmp_path: Path, seats: list[str], capabilities: Capabilities, seed: int
) -> tuple[Table, People, str]:
    table = Table.open(tmp_path / "games.db", capabilities, seed=seed)
    people = People(table, seed=seed)

    async def scenario() -> str:
        game_id = await people.gather("g1", seats)
        await people.play(["g1"])
        return game_id

    return table, people, asyncio.run(scenario())


def assert_finished_and_sound(table: Table, game_id: str) -> None:
    summary = next(s for s in table.store.list_games() if s.game_id == game_id)
    assert summary.status == FINISHED
    assert summary.result is not None
    assert audit_game(table.store.load_stored(game_id)) is None
    result = table.port.last_room_text("g1")
    assert result.startswith(f"Game {game_id} is over.")
    assert "Winner: " in result
    assert f"bohnanza replay DB --game {game_id}" in result


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seats", "capabilities", "seed"),
    [
        (["ann", "bob"], BUTTONS_AND_EDITS, 3),
        (["ann", "bob"], TEXT_ONLY, 4),
        (["ann", "bot", "bob"], BUTTONS_AND_EDITS, 5),
        (["ann", "bob", "bot", "cat", "bot:random"], TEXT_ONLY, 6),
        (["ann", "bot", "bob", "bot:random", "cat", "bot", "dan"], BUTTONS_AND_EDITS, 7),
    ],
    ids=["duel-buttons", "duel-text", "three", "five", "seven"],
)
def test_people_and_bots_play_a_whole_game_to_its_stored_and_audited_end(
    tmp_path: Path, seats: list[str], capabilities: Capabilities, seed: int
) -> None:
    table, people, game_id = play_game(tmp_path, seats, capabilities, seed)

    assert_finished_and_sound(table, game_id)
    assert people.moves > 20
    stored = table.store.load_stored(game_id)
    assert [s.name for s in stored.game.seats][:1] == ["Ann"]
    humans = [s for s in seats if not s.startswith("bot")]
    assert hand_leaks(table.port, "g1", humans) == []


def last_turn(table: Table, game_id: str) -> int:
    tables = [t for t in table.port.room_texts("g1") if t.startswith(f"Bohnanza · game {game_id}")]
    match = re.search(r"· turn (\d+) ·", tables[-1])
    assert match is not None
    return int(match.group(1))


@pytest.mark.slow
@pytest.mark.parametrize("capabilities", [BUTTONS_AND_EDITS, TEXT_ONLY], ids=["edits", "posts"])
@pytest.mark.parametrize("seed", [8, 9])
def test_a_five_player_game_costs_the_room_at_most_three_messages_or_edits_a_turn(
    tmp_path: Path, capabilities: Capabilities, seed: int
) -> None:
    seats = ["ann", "bot", "bob", "cat", "bot:random"]
    table, people, game_id = play_game(tmp_path, seats, capabilities, seed)

    turns = last_turn(table, game_id)
    per_turn = table.port.room_posts["g1"] / turns
    print(f"5 players, {capabilities}: {per_turn:.2f} room messages+edits per turn ({turns} turns)")
    assert turns > 20
    assert per_turn <= 3
    assert people.buttons_pressed > 0 or not capabilities.buttons
