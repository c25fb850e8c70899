"""`bohnanza simulate` and `bohnanza replay` through the real typer application."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bohnanza.cli.app import build_app
from bohnanza.core.record import GameRecord, replay

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(build_app(), list(args))
    return result.exit_code, result.stdout, result.stderr


def test_simulate_writes_one_replayable_record_per_game(tmp_path: Path) -> None:
    code, out, _ = run(
        "simulate", "--players", "3", "--games", "3", "--seed", "5", "--out", str(tmp_path)
    )
    assert code == 0, out
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    assert "games 3, actions" in out and "winners' mean score" in out
    for path in files:
        record = GameRecord.loads(path.read_text())
        assert len(record.seats) == 3
        assert replay(record).result() == record.result


def test_simulate_is_deterministic_for_a_seed(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        run(
            "simulate",
            "--players",
            "5",
            "--games",
            "2",
            "--seed",
            "9",
            "--out",
            str(tmp_path / folder),
        )
    first = sorted(p.read_text() for p in (tmp_path / "a").iterdir())
    second = sorted(p.read_text() for p in (tmp_path / "b").iterdir())
    assert first == second


def test_simulate_refuses_a_bad_player_count_in_one_line(tmp_path: Path) -> None:
    code, _, err = run("simulate", "--players", "8", "--out", str(tmp_path))
    assert code == 2
    assert err.strip() == "error: --players must be 2 to 7 (see 'bohnanza simulate --help')"
    assert not list(tmp_path.iterdir())


def test_simulate_refuses_an_unknown_bot(tmp_path: Path) -> None:
    code, _, err = run("simulate", "--bots", "genius", "--out", str(tmp_path))
    assert code != 0 and err.startswith("error: --bots takes")


def simulated(tmp_path: Path, players: int = 4) -> Path:
    run(
        "simulate", "--players", str(players), "--games", "1", "--seed", "3", "--out", str(tmp_path)
    )
    return next(tmp_path.glob("*.json"))


def test_replay_tells_the_game_turn_by_turn_and_the_final_scores(tmp_path: Path) -> None:
    path = simulated(tmp_path)
    code, out, _ = run("replay", str(path))
    assert code == 0
    record = GameRecord.loads(path.read_text())
    assert record.result is not None
    lines = out.splitlines()
    assert lines[0].startswith("— turn 1:")
    assert lines[-1].startswith("game over")
    for seat, score in zip(record.seats, record.result.scores, strict=True):
        assert f"{seat.name} {score}" in lines[-1]


def test_replay_at_an_action_shows_the_table_then(tmp_path: Path) -> None:
    path = simulated(tmp_path)
    code, out, _ = run("replay", str(path), "--at", "10")
    assert code == 0
    assert "deck" in out and "▶" in out
    assert "your hand" not in out  # the omniscient table shows no single player's hand line


def test_replay_of_a_missing_file_is_one_clear_line(tmp_path: Path) -> None:
    code, out, err = run("replay", str(tmp_path / "nope.json"))
    assert code == 1
    assert err.strip() == f"error: {tmp_path / 'nope.json'}: no such file"
    assert "Traceback" not in out + err


def test_replay_of_a_file_that_is_not_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "junk.json"
    path.write_bytes(b"\x00\xff not json")
    code, _, err = run("replay", str(path))
    assert code == 1 and err.startswith("error:") and len(err.strip().splitlines()) == 1


def test_replay_names_the_first_illegal_action(tmp_path: Path) -> None:
    path = simulated(tmp_path)
    data = json.loads(path.read_text())
    data["actions"][5] = {"type": "buy-field", "player": 0}
    data.pop("result")
    path.write_text(json.dumps(data))
    code, _, err = run("replay", str(path))
    assert code == 1
    assert "action 5: illegal buy-field by seat 0" in err
