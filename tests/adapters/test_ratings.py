"""Ratings kept as games end agree exactly with ratings rebuilt from the stored games."""

from __future__ import annotations

import os
import random
import shutil
import tempfile
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from bohnanza.adapters.store import SqlGameStore, database_url, open_store
from bohnanza.adapters.store.rating_model import (
    BOT,
    LOCAL,
    Board,
    Entry,
    FinishedGame,
    Player,
    SeatOf,
    places,
    rate_game,
)
from bohnanza.cli.records import record_identities, store_record
from bohnanza.cli.simulate import simulate_game
from bohnanza.core.app.hints import HINTS_ON, HINTS_OPTION
from bohnanza.core.audit import check_record
from bohnanza.core.ports import Appended, NewGame, SeatIdentity, StoredAction
from bohnanza.core.scoring import GameResult

from .postgres import postgres_url

START = datetime(2026, 1, 5, 20, 0, tzinfo=UTC)
PLATFORM = "telegram"


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "games.db") if request.param == "sqlite" else postgres_url()


@pytest.fixture
def store(target: str) -> Iterator[SqlGameStore]:
    with open_store(target, create=True) as sql_store:
        yield sql_store


def rows(target: str) -> tuple[list[Any], list[Any]]:
    """Every rating and every board, exactly as stored."""
    engine = create_engine(database_url(target))
    try:
        with engine.connect() as connection:
            ratings = connection.execute(
                text("SELECT * FROM ratings ORDER BY platform, room, player_platform, player_id")
            ).all()
            boards = connection.execute(
                text("SELECT * FROM rating_boards ORDER BY platform, room")
            ).all()
    finally:
        engine.dispose()
    return [tuple(r) for r in ratings], [tuple(b) for b in boards]


def play_in_room(
    store: SqlGameStore,
    game_id: str,
    room: str,
    people: list[str],
    bots: list[str],
    seed: int,
    ends_at: datetime,
    hold_last: bool = False,
    hints: bool = False,
) -> StoredAction:
    """Bots play a game whose seats are these people and bots (people's seats played by
    heuristic minds), stored as a chat game is: started in the room, then its actions appended
    in a few transactions, the last one ending it (unless held back: it is returned)."""
    strategies = ["heuristic"] * len(people) + bots
    record = simulate_game(len(strategies), strategies, seed)
    checked = check_record(record)
    seats = tuple(SeatIdentity(PLATFORM, p, p.title()) for p in people) + tuple(
        SeatIdentity(BOT, f"{s}-{i + 1}", f"Bot {i + 1} ({s})", "bot", s)
        for i, s in enumerate(bots)
    )
    options: dict[str, str | int] = {"platform": PLATFORM, "room": room}
    if hints:
        options[HINTS_OPTION] = HINTS_ON
    assert store.start_game(NewGame(game_id, seats, record.deck, START, options), 0)
    last = len(record.actions) - 1
    actions = [
        StoredAction(
            seq,
            action,
            ends_at if seq == last else START,
            checked.reshuffles[seq],
            checked.result if seq == last else None,
        )
        for seq, action in enumerate(record.actions)
    ]
    stored = actions[:-1] if hold_last else actions
    for begin in range(0, len(stored), 100):
        store.append_actions(game_id, stored[begin : begin + 100])
    return actions[-1]


def simulated(store: SqlGameStore, line_up: list[str], seed: int, at: datetime) -> None:
    """A bot game stored as `bohnanza simulate` stores it (no platform, no room)."""
    record = simulate_game(len(line_up), line_up, seed)
    identities = record_identities(record, BOT)
    store_record(store, record, check_record(record), f"sim-{seed}", identities, at)


def test_places_go_by_coins_then_cards_in_hand_and_a_tie_on_both_is_shared() -> None:
    result = GameResult(scores=(9, 12, 9, 12, 3), hand_sizes=(2, 1, 4, 1, 7), winners=(1, 3))

    assert places(result) == [4, 1, 3, 1, 5]


def test_the_winner_gains_and_the_loser_loses() -> None:
    ann, bob = Player(PLATFORM, "1"), Player(PLATFORM, "2")
    game = FinishedGame(
        "g1",
        PLATFORM,
        "r1",
        START,
        (SeatOf(ann, "Ann", "human"), SeatOf(bob, "Bob", "human")),
        GameResult((10, 4), (0, 0), (0,)),
    )

    after = rate_game({}, game)

    assert after[ann].mu > 25 > after[bob].mu
    assert after[ann].sigma < 25 / 3
    assert (after[ann].games, after[ann].wins, after[ann].coins) == (1, 1, 10)
    assert (after[bob].games, after[bob].wins, after[bob].coins) == (1, 0, 4)
    assert game.boards() == (Board(PLATFORM, ""), Board(PLATFORM, "r1"))


def test_a_strategy_at_several_seats_is_one_player_who_played_each_seat() -> None:
    heuristic, rand = Player(BOT, "heuristic"), Player(BOT, "random")
    seats = (
        SeatOf(heuristic, "heuristic", "bot"),
        SeatOf(rand, "random", "bot"),
        SeatOf(heuristic, "heuristic", "bot"),
    )
    game = FinishedGame("g1", None, None, START, seats, GameResult((11, 1, 7), (0, 0, 0), (0,)))
    before = {rand: Entry("random", "bot", 20.0, 6.0, 3, 0, 2, "g0", START)}

    after = rate_game(before, game)

    assert set(after) == {heuristic, rand}
    assert (after[heuristic].games, after[heuristic].wins, after[heuristic].coins) == (2, 1, 18)
    assert (after[rand].games, after[rand].coins) == (4, 3)
    alone = rate_game(
        before, FinishedGame("g1", None, None, START, seats[:2], GameResult((11, 1), (0, 0), (0,)))
    )
    assert after[rand].mu < alone[rand].mu < 20.0
    assert after[heuristic].mu > alone[heuristic].mu > 25.0
    assert after[heuristic].sigma < alone[heuristic].sigma
    assert game.boards() == (Board(LOCAL, ""),)


@pytest.mark.slow
def test_ratings_kept_as_games_end_are_exactly_those_rebuilt_from_the_stored_games(
    store: SqlGameStore, target: str
) -> None:
    rng = random.Random(4)
    people = ["ann", "bob", "cat", "dan"]
    # Games end out of the order they are stored in (workers' clocks), in two rooms, with
    # people and bots; simulated games go on the board of the `local` platform.
    for index in range(12):
        seated = rng.sample(people, rng.randint(1, 3))
        bots = rng.sample(["heuristic", "random", "random"], rng.randint(1, 2))
        ends_at = START + timedelta(hours=1, minutes=rng.randrange(60))
        room = f"room-{index % 2}"
        play_in_room(store, f"G{index:02d}", room, seated, bots, 100 + index, ends_at)
    for seed in range(3):
        simulated(store, ["random", "heuristic", "random"], seed, START)
    kept = rows(target)

    assert store.rebuild_ratings() == 15
    assert rows(target) == kept
    boards = {board for board, _ in store.rating_boards()}
    assert boards == {
        Board(LOCAL, ""),
        Board(PLATFORM, ""),
        Board(PLATFORM, "room-0"),
        Board(PLATFORM, "room-1"),
    }
    assert dict(store.rating_boards())[Board(PLATFORM, "")] == 12


def test_a_game_played_with_hints_is_not_rated_as_it_ends_nor_on_a_rebuild(
    store: SqlGameStore, target: str
) -> None:
    ends_at = START + timedelta(hours=1)
    play_in_room(store, "H1", "room-h", ["ann"], ["random"], 7, ends_at, hints=True)
    assert store.standing(PLATFORM, "room-h", "ann") is None
    play_in_room(store, "G1", "room-h", ["ann"], ["random"], 8, ends_at + timedelta(minutes=1))
    standing = store.standing(PLATFORM, "room-h", "ann")
    assert standing is not None and standing.games == 1
    kept = rows(target)
    assert store.rebuild_ratings() == 1
    assert rows(target) == kept


def test_games_ending_at_once_on_one_board_are_rated_one_after_the_other(
    store: SqlGameStore, target: str
) -> None:
    # Each ends earlier than the game stored before it, so boards are also recomputed.
    last = {
        f"G{i}": play_in_room(
            store,
            f"G{i}",
            "r1",
            ["ann", "bob"][: 1 + i % 2],
            ["random"],
            40 + i,
            START + timedelta(hours=1, minutes=-i),
            hold_last=True,
        )
        for i in range(6)
    }
    barrier = threading.Barrier(len(last))
    results: list[object] = []

    def end(game_id: str) -> None:
        with open_store(target) as own:
            barrier.wait()
            results.append(own.append_actions(game_id, [last[game_id]]))

    threads = [threading.Thread(target=end, args=(game_id,)) for game_id in last]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    kept = rows(target)

    assert len(results) == len(last)
    assert all(isinstance(result, Appended) for result in results)
    assert dict(store.rating_boards())[Board(PLATFORM, "r1")] == 6
    store.rebuild_ratings()
    assert rows(target) == kept


def test_a_game_finished_again_with_another_result_is_rated_once_with_the_new_one(
    store: SqlGameStore, target: str
) -> None:
    seats = (SeatIdentity(PLATFORM, "1", "Ann"), SeatIdentity(PLATFORM, "2", "Bob"))
    options: dict[str, str | int] = {"platform": PLATFORM, "room": "r1"}
    store.add_game(NewGame("g1", seats, (), START, options))
    store.finish_game("g1", GameResult((8, 3), (0, 0), (0,)))
    store.finish_game("g1", GameResult((3, 8), (0, 0), (1,)))
    kept = rows(target)

    store.rebuild_ratings()

    assert rows(target) == kept
    ann, bob = store.leaderboard(PLATFORM, "r1", 10)[::-1]
    assert (ann.name, ann.games, ann.wins, bob.wins) == ("Ann", 1, 0, 1)


def test_a_store_whose_boards_were_never_built_builds_them_when_a_game_next_ends(
    store: SqlGameStore, target: str
) -> None:
    for index in range(3):
        play_in_room(store, f"G{index}", "r1", ["ann"], ["random"], index, START)
    engine = create_engine(database_url(target))
    with engine.begin() as connection:  # as a store upgraded from before ratings
        connection.execute(text("DELETE FROM ratings"))
        connection.execute(text("DELETE FROM rating_boards"))
    engine.dispose()

    play_in_room(store, "G9", "r1", ["ann"], ["random"], 9, START + timedelta(days=1))
    kept = rows(target)
    store.rebuild_ratings()

    assert rows(target) == kept
    assert store.standing(PLATFORM, "r1", "ann") is not None
    assert dict(store.rating_boards())[Board(PLATFORM, "r1")] == 4


@pytest.fixture
def quick_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder in memory where there is one: a thousand commits need not wait for a disk."""
    memory = Path("/dev/shm")
    if not (memory.is_dir() and os.access(memory, os.W_OK)):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(dir=memory))
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


@pytest.mark.slow
def test_a_thousand_bot_games_rate_the_heuristic_bot_above_the_random_bot(
    quick_folder: Path,
) -> None:
    target = str(quick_folder / "games.db")
    with open_store(target, create=True) as store:
        for seed in range(1000):
            line_up = ["heuristic", "random"] if seed % 2 else ["random", "heuristic"]
            simulated(store, line_up, seed, START + timedelta(seconds=seed))
        kept = rows(target)
        heuristic, rand = store.board_standings(Board(LOCAL, ""))

        assert store.rebuild_ratings() == 1000
        assert rows(target) == kept

    print(
        f"after 1000 games: heuristic mu {heuristic.mu:.2f} sigma {heuristic.sigma:.2f} "
        f"ordinal {heuristic.ordinal:.2f}, {heuristic.wins} wins; "
        f"random mu {rand.mu:.2f} sigma {rand.sigma:.2f} ordinal {rand.ordinal:.2f}"
    )
    assert (heuristic.player_id, rand.player_id) == ("heuristic", "random")
    assert heuristic.ordinal > rand.ordinal
    assert heuristic.mu - 3 * heuristic.sigma > rand.mu + 3 * rand.sigma
    assert heuristic.games == rand.games == 1000
