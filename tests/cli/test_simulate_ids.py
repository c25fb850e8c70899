"""One store holds a study of several settings run with the same seeds: a simulated game's id
names its player count, its bots and its seed."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bohnanza.adapters.store import open_store
from bohnanza.cli.app import build_app
from bohnanza.cli.simulate import game_id_for, line_up, line_up_name


def simulate(db: Path, players: int, bots: str = "heuristic") -> tuple[int, str, str]:
    args = ["--players", str(players), "--games", "2", "--seed", "3", "--bots", bots]
    result = CliRunner().invoke(build_app(), ["simulate", *args, "--db", str(db)])
    return result.exit_code, result.stdout, result.stderr


def game_ids(db: Path) -> list[str]:
    with open_store(str(db)) as store:
        return sorted(g.game_id for g in store.list_games())


def test_the_same_seeds_with_other_player_counts_and_bots_share_one_store(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    for players, bots in [(2, "heuristic"), (3, "heuristic"), (3, "random,heuristic")]:
        code, out, err = simulate(db, players, bots)
        assert code == 0, out + err
    assert game_ids(db) == [
        "sim-p2-heuristic-3000009",
        "sim-p2-heuristic-3000010",
        "sim-p3-heuristic-3000009",
        "sim-p3-heuristic-3000010",
        "sim-p3-random+heuristic-3000009",
        "sim-p3-random+heuristic-3000010",
    ]


def test_a_repeated_identical_run_is_still_refused_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    assert simulate(db, 3)[0] == 0
    before = db.read_bytes()
    code, _, err = simulate(db, 3, "heuristic,heuristic")
    assert code == 1
    assert (
        err == f"error: {db}: already holds game sim-p3-heuristic-3000009; choose another --seed\n"
    )
    assert db.read_bytes() == before


@pytest.mark.parametrize(
    ("players", "bots", "name"),
    [
        (4, ["heuristic"], "heuristic"),
        (4, ["heuristic", "heuristic"], "heuristic"),
        (3, ["random", "heuristic"], "random+heuristic"),
        (4, ["random", "heuristic"], "random+heuristic"),
        (2, ["random", "heuristic", "random"], "random+heuristic"),
        (3, ["random", "random", "heuristic"], "random+random+heuristic"),
    ],
)
def test_the_line_up_is_named_by_the_round_of_bots_that_sits_down(
    players: int, bots: list[str], name: str
) -> None:
    assert line_up_name(line_up(players, bots)) == name


def test_the_same_settings_and_seed_give_the_same_id() -> None:
    seats = line_up(5, ["random", "heuristic"])
    assert game_id_for(seats, 7) == game_id_for(line_up(5, ["random", "heuristic"]), 7)
    assert game_id_for(seats, 7) == "sim-p5-random+heuristic-7"


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--seed", "-1", "--seed must be 0 to 1,000,000,000,000"),
        ("--seed", str(10**13), "--seed must be 0 to 1,000,000,000,000"),
        ("--players", "8", "--players must be 2 to 7"),
        ("--games", "0", "--games must be 1 to 1,000,000"),
        ("--bots", "genius", "--bots takes random, heuristic, expert (comma-separated)"),
    ],
)
def test_an_unusable_setting_is_a_one_line_usage_error(
    tmp_path: Path, option: str, value: str, message: str
) -> None:
    result = CliRunner().invoke(build_app(), ["simulate", option, value, "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == f"error: {message} (see 'bohnanza simulate --help')\n"
    assert list(tmp_path.iterdir()) == []
