"""`stats` and `top` in a chat: a player's figures and a room's leaderboard, from the ratings kept
as games end."""

from __future__ import annotations

import asyncio

import pytest

from bohnanza.core.app.commands import help_text
from bohnanza.core.app.i18n import English
from bohnanza.core.app.ports import Standing
from bohnanza.core.app.standings import TOP_LINES, stats_text, top_text

from .recording import PLATFORM, People, Table

HOSTILE = "<b>Ann</b> & {name}"
"""A display name a player chose: shown exactly as typed, never as markup or a template."""


def standing(name: str, place: int, kind: str = "human", player_id: str = "1") -> Standing:
    return Standing(
        platform=PLATFORM,
        room="g1",
        player_platform="bot" if kind == "bot" else PLATFORM,
        player_id=player_id,
        name=name,
        kind=kind,
        games=4,
        wins=1,
        coins=30,
        mu=27.25,
        sigma=6.5,
        ordinal=7.75,
        place=place,
        players=12,
    )


def test_stats_say_games_wins_mean_coins_rating_and_place() -> None:
    text = stats_text(English(), standing("Ann", 3), whole_platform=False)

    assert text == (
        "Ann in this room: 4 games, 1 win, 7.5 coins a game.\n"
        "Rating 7.8 (mu 27.2, sigma 6.5): place 3 of 12."
    )


def test_stats_before_any_finished_game_say_so() -> None:
    assert stats_text(English(), None, whole_platform=False) == (
        "You have not finished a game in this room yet."
    )
    assert stats_text(English(), None, whole_platform=True) == (
        "You have not finished a game in any room yet."
    )


def test_the_leaderboard_shows_ten_lines_and_names_bots_by_strategy() -> None:
    board = [standing("Bot 1 (heuristic)", 1, "bot", "heuristic")] + [
        standing(f"P{i}", i) for i in range(2, 15)
    ]

    lines = top_text(English(), board).split("\n")

    assert lines[0] == "Best players of this room (rating = mu - 3 sigma):"
    assert lines[1] == "1. heuristic (bot): 7.8 (4 games, 1 win)"
    assert len(lines) == 1 + TOP_LINES


def test_a_hostile_name_is_shown_as_typed() -> None:
    text = top_text(English(), [standing(HOSTILE, 1)])

    assert text.split("\n")[1] == f"1. {HOSTILE}: 7.8 (4 games, 1 win)"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Table, People]:
    """Ann (a hostile name), Bob and a random bot played one game to its end in room g1."""
    table = Table.open(tmp_path_factory.mktemp("standings") / "games.db", seed=5)
    people = People(table, seed=5)

    async def scenario() -> None:
        await people.say("ann", "new", "g1", name=HOSTILE)
        await people.say("bob", "join", "g1")
        await people.say("ann", "bot random", "g1", name=HOSTILE)
        await people.say("ann", "set deadline off", "g1", name=HOSTILE)
        await people.say("ann", "start", "g1", name=HOSTILE)
        await people.play(["g1"])

    asyncio.run(scenario())
    return table, people


@pytest.mark.slow
def test_top_in_the_room_lists_everyone_who_finished_a_game_there(
    played: tuple[Table, People],
) -> None:
    table, people = played

    asyncio.run(people.say("bob", "top", "g1"))

    lines = table.port.last_answer("bob").split("\n")
    assert lines[0] == "Best players of this room (rating = mu - 3 sigma):"
    assert len(lines) == 4
    names = [line.split(": ")[0].split(". ", 1)[1] for line in lines[1:]]
    assert sorted(names) == sorted([HOSTILE, "Bob", "random (bot)"])
    assert all("(1 game, " in line for line in lines[1:])


def test_stats_in_the_room_are_the_players_own_figures_there(
    played: tuple[Table, People],
) -> None:
    table, people = played
    ann = table.store.standing(PLATFORM, "g1", "ann")
    assert ann is not None

    asyncio.run(people.say("ann", "stats", "g1", name=HOSTILE))

    first, second = table.port.last_answer("ann").split("\n")
    assert first.startswith(f"{HOSTILE} in this room: 1 game, {ann.wins} ")
    assert f"{ann.coins:.1f} coins a game" in first
    assert second.endswith(f"place {ann.place} of 3.")


def test_stats_privately_cover_every_room_and_top_privately_points_to_a_room(
    played: tuple[Table, People],
) -> None:
    table, people = played

    asyncio.run(people.say("bob", "stats", private=True))
    assert table.port.last_answer("bob").startswith("Bob in all rooms: 1 game, ")

    asyncio.run(people.say("bob", "top", private=True))
    assert table.port.last_answer("bob") == "Send top in a group room to see its leaderboard."


def test_someone_without_a_finished_game_is_told_so(played: tuple[Table, People]) -> None:
    table, people = played

    asyncio.run(people.say("cat", "stats", "g1"))
    assert table.port.last_answer("cat") == "You have not finished a game in this room yet."

    asyncio.run(people.say("cat", "top", "g2"))
    assert table.port.last_answer("cat") == "Nobody has finished a game in this room yet."


def test_the_help_names_stats_and_top() -> None:
    assert "stats · top — " in help_text(English())
