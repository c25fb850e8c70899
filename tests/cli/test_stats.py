"""`bohnanza stats` through the real typer application: leaderboards, one player, --rebuild,
--json, hostile names and one-line errors."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bohnanza.adapters.store import open_store
from bohnanza.adapters.store.rating_model import LOCAL
from bohnanza.cli.app import build_app
from bohnanza.cli.simulate import simulate_game
from bohnanza.core.audit import check_record
from bohnanza.core.ports import NewGame, SeatIdentity, StoredAction

runner = CliRunner()
START = datetime(2026, 2, 1, 12, 0, tzinfo=UTC)
HOSTILE = "[bold red]Eve[/] \x1b[2J\u202e"
"""A name as someone might choose it: rich markup, a terminal escape, a direction change."""


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(build_app(), list(args))
    return result.exit_code, result.stdout, result.stderr


def chat_game(db: Path, game_id: str, platform: str, room: str, names: dict[str, str]) -> None:
    """A game of people (user id: name) and a random bot, stored as a chat game is: started
    in its room, its actions appended, the last one ending it."""
    strategies = ["heuristic"] * len(names) + ["random"]
    record = simulate_game(len(strategies), strategies, seed=len(game_id) + len(room))
    checked = check_record(record)
    bot = SeatIdentity("bot", "random-1", "Bot 1 (random)", "bot", "random")
    seats = (*(SeatIdentity(platform, uid, name) for uid, name in names.items()), bot)
    options: dict[str, str | int] = {"platform": platform, "room": room}
    last = len(record.actions) - 1
    actions = [
        StoredAction(
            seq,
            action,
            START + timedelta(minutes=len(game_id)),
            checked.reshuffles[seq],
            checked.result if seq == last else None,
        )
        for seq, action in enumerate(record.actions)
    ]
    with open_store(str(db), create=True) as store:
        assert store.start_game(NewGame(game_id, seats, record.deck, START, options), 0)
        store.append_actions(game_id, actions)


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("stats") / "games.db"
    code, out, err = run(
        "simulate", "--players", "2", "--games", "6", "--bots", "random,heuristic", "--db", str(db)
    )
    assert code == 0, out + err
    return db


@pytest.fixture(scope="module")
def rooms(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("rooms") / "games.db"
    chat_game(db, "G1", "telegram", "r1", {"ann": "Ann", "eve": HOSTILE})
    chat_game(db, "G22", "telegram", "r2", {"ann": "Ann"})
    chat_game(db, "G333", "matrix", "r1", {"@bob:hs": "Bob"})
    return db


def test_without_options_each_platform_has_its_leaderboard(simulated: Path) -> None:
    code, out, err = run("stats", str(simulated))

    assert (code, err) == (0, "")
    assert "local, all rooms: 6 game(s)" in out
    lines = [line.split() for line in out.splitlines()]
    assert ["1", "heuristic", "(bot)", "bot:heuristic", "6", "6"] in [line[:6] for line in lines]
    assert ["2", "random", "(bot)", "bot:random", "6", "0"] in [line[:6] for line in lines]


def test_a_rebuild_gives_exactly_the_figures_kept_as_games_ended(simulated: Path) -> None:
    code, kept, _ = run("stats", str(simulated), "--json")
    assert code == 0

    code, rebuilt, err = run("stats", str(simulated), "--json", "--rebuild")

    assert code == 0
    assert err == f"{simulated}: rebuilt the ratings from 6 finished game(s)\n"
    assert json.loads(rebuilt) == json.loads(kept)
    board = json.loads(kept)["boards"][0]
    assert (board["platform"], board["room"], board["games"]) == ("local", None, 6)
    best = board["players"][0]
    assert best["player_id"] == "heuristic"
    assert best["ordinal"] == pytest.approx(best["mu"] - 3 * best["sigma"])


def test_a_store_from_before_ratings_has_its_games_rated_by_a_rebuild(
    simulated: Path, tmp_path: Path
) -> None:
    db = tmp_path / "games.db"
    shutil.copy(simulated, db)
    with closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("DELETE FROM ratings")
        connection.execute("DELETE FROM rating_boards")

    code, out, _ = run("stats", str(db))
    assert code == 0
    assert out == f"{db}: no rated games yet (--rebuild rates the finished games stored before)\n"

    code, out, _ = run("stats", str(db), "--rebuild")
    assert code == 0
    assert "local, all rooms: 6 game(s)" in out


def test_a_room_has_its_own_board_and_a_player_his_figures_on_each(rooms: Path) -> None:
    code, out, _ = run("stats", str(rooms), "--room", "r2")
    assert code == 0
    assert "telegram, room r2: 1 game(s)" in out
    assert "Ann" in out and "Eve" not in out

    code, out, _ = run("stats", str(rooms), "--player", "ann", "--json")
    assert code == 0
    boards = [(s["platform"], s["room"], s["games"]) for s in json.loads(out)["standings"]]
    assert boards == [("telegram", None, 2), ("telegram", "r1", 1), ("telegram", "r2", 1)]

    code, out, _ = run("stats", str(rooms), "--player", "Bob", "--platform", "matrix")
    assert code == 0
    assert "matrix, all rooms" in out and "matrix, room r1" in out and "@bob:hs" in out


def test_names_are_printed_as_text_never_as_markup_or_terminal_codes(rooms: Path) -> None:
    code, out, _ = run("stats", str(rooms), "--room", "r1", "--platform", "telegram")

    assert code == 0
    assert "[bold red]Eve[/] \\x1b[2J\\u202e" in out
    assert "\x1b" not in out and "\u202e" not in out

    code, out, _ = run("stats", str(rooms), "--platform", "telegram", "--json")
    assert code == 0
    assert "\x1b" not in out and "\u202e" not in out
    names = {p["name"] for p in json.loads(out)["boards"][0]["players"]}
    assert HOSTILE in names


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--room", "nowhere"], 1, "no rated games in room 'nowhere'"),
        (["--platform", "irc"], 1, "no rated games on platform 'irc'"),
        (["--player", "nobody"], 1, "no rated player 'nobody' there"),
        (
            ["--room", "r1"],
            2,
            "room 'r1' is on several platforms (matrix, telegram): add --platform",
        ),
    ],
)
def test_what_cannot_be_shown_is_one_line_of_error(
    rooms: Path, args: list[str], code: int, message: str
) -> None:
    got, out, err = run("stats", str(rooms), *args)

    assert (got, out) == (code, "")
    assert err.startswith("error: ") and message in err
    assert err.count("\n") == 1


def test_a_missing_store_is_refused_in_one_line(tmp_path: Path) -> None:
    code, _, err = run("stats", str(tmp_path / "none.db"))

    assert code == 1
    assert err == f"error: {tmp_path / 'none.db'}: no such file\n"


def test_the_help_names_the_board_of_simulated_and_imported_games() -> None:
    code, out, _ = run("stats", "--help")
    assert code == 0
    assert f"'{LOCAL}'" in out
