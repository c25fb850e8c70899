"""`bohnanza analyse` through the real typer application."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bohnanza.cli.app import build_app
from bohnanza.core.record import GameRecord, replay

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(build_app(), list(args))
    return result.exit_code, result.stdout, result.stderr


def simulated(tmp_path: Path) -> Path:
    folder = tmp_path / "records"
    code, out, _ = run(
        "simulate", "--players", "3", "--games", "1", "--seed", "3",
        "--bots", "random,heuristic", "--out", str(folder),
    )  # fmt: skip
    assert code == 0, out
    return next(folder.glob("*.json"))


@pytest.mark.slow
def test_analyse_tells_a_players_decisions_mistakes_and_coins_lost(tmp_path: Path) -> None:
    record = simulated(tmp_path)
    code, out, err = run("analyse", str(record), "--as", "1", "--deals", "2", "--workers", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Analysis of sim-p3-random+heuristic-3000009"
    assert lines[2] in ("Turning points:", "No decision was surely a mistake.")
    [player] = [line for line in lines if line.startswith("random-1: ")]
    assert " decisions, " in player and " expected coins lost (" in player
    assert player.endswith(" coins at the end")
    assert not any(line.startswith("heuristic-2: ") for line in lines)
    assert lines[-2].startswith("Expected coins lost: how far each decision left the player")
    assert "by at least 0.5 coins" in lines[-2]
    assert lines[-1].startswith("Coins lost a decision measure the play")


def test_analyse_speaks_the_language_asked(tmp_path: Path) -> None:
    record = simulated(tmp_path)
    code, out, err = run(
        "analyse", str(record), "--as", "2", "--deals", "1", "--workers", "1", "--lang", "it"
    )
    assert code == 0, err
    assert out.splitlines()[0].startswith("Analisi ")


@pytest.mark.slow
def test_analyse_json_holds_each_players_figures_and_the_decisions(tmp_path: Path) -> None:
    path = simulated(tmp_path)
    record = GameRecord.loads(path.read_text())
    args = ["analyse", str(path), "--as", "heuristic-2", "--deals", "2", "--json"]
    code, out, err = run(*args, "--workers", "1")
    assert code == 0, err
    data = json.loads(out)
    [player] = data["players"]
    assert player["name"] == "heuristic-2" and player["seat"] == 1
    assert isinstance(player["decisions"], int) and player["decisions"] > 20
    assert isinstance(player["mistakes"], int) and 0 <= player["mistakes"] <= player["decisions"]
    total = sum(d["expected_loss"] for d in data["decisions"])
    assert abs(player["expected_loss"] - total) < 0.01
    assert len(data["decisions"]) == player["decisions"]
    for decision in data["decisions"]:
        assert record.actions[decision["action"]].player == 1
        assert decision["expected_loss"] >= 0 and decision["error"] >= 0
        assert (decision["expected_loss"] > 0) == (decision["best"] != decision["chosen"])
        assert decision["mistake"] == (decision["expected_loss"] >= data["mistake_threshold"])
        # Up to three times the deals for a close call, eight times more for a second look.
        assert 2 <= decision["deals"] <= (22 if decision["looked_again"] else 6)
    mistakes = {d["action"] for d in data["decisions"] if d["mistake"]}
    assert set(data["turning_points"]) <= mistakes
    assert player["mistakes"] == len(mistakes)
    assert any(d["looked_again"] for d in data["decisions"])
    # The figures depend on the seed, never on the number of processes.
    code, again, err = run(*args, "--workers", "2")
    assert code == 0, err
    assert json.loads(again) == data


def test_analyse_refuses_an_unknown_player_in_one_line(tmp_path: Path) -> None:
    code, _, err = run("analyse", str(simulated(tmp_path)), "--as", "nobody")
    assert code == 2
    assert err.startswith("error: --as takes a seat number 1-3 or one player's name")
    assert len(err.strip().splitlines()) == 1


def test_analyse_refuses_an_unknown_stored_game_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    code, out, _ = run("simulate", "--players", "3", "--games", "1", "--db", str(db))
    assert code == 0, out
    code, _, err = run("analyse", str(db), "--game", "no-such-game")
    assert code == 1
    assert err.startswith("error: ") and "no-such-game" in err
    assert len(err.strip().splitlines()) == 1


def test_analyse_of_a_store_needs_a_game(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    run("simulate", "--players", "3", "--games", "1", "--db", str(db))
    code, _, err = run("analyse", str(db))
    assert code == 2 and "needs --game" in err


def test_analyse_refuses_a_game_that_has_not_ended(tmp_path: Path) -> None:
    path = simulated(tmp_path)
    record = GameRecord.loads(path.read_text())
    seats = record.seats
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(GameRecord.of(replay(record, upto=40), seats).dumps())
    code, _, err = run("analyse", str(unfinished))
    assert code == 1
    assert "has not ended" in err and len(err.strip().splitlines()) == 1


def test_analyse_refuses_bad_options_as_usage_errors(tmp_path: Path) -> None:
    path = str(simulated(tmp_path))
    for args in (["--workers", "0"], ["--deals", "0"], ["--lang", "xx"]):
        code, _, err = run("analyse", path, *args)
        assert code == 2, args
        assert err.startswith("error: ")
