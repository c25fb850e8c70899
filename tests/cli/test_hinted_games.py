"""A game played with hints through the real typer application: listed as such, not rated."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from typer.testing import CliRunner

from bohnanza.cli.app import build_app
from bohnanza.cli.simulate import simulate_game

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(build_app(), list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_game_played_with_hints_is_listed_as_such_and_not_rated(tmp_path: Path) -> None:
    record = simulate_game(3, ["heuristic"], 4)
    hinted = replace(record, game_id="hinted", options={**record.options, "hints": "on"})
    path = tmp_path / "hinted.json"
    path.write_text(hinted.dumps())
    db = tmp_path / "games.db"
    assert run("import", str(path), "--db", str(db))[0] == 0
    assert run("simulate", "--players", "3", "--games", "1", "--db", str(db))[0] == 0

    code, out, _ = run("replay", str(db), "--json")
    assert code == 0
    assert {g["game_id"]: g["hints"] for g in json.loads(out)} == {
        "hinted": True,
        "sim-p3-heuristic-1000003": False,
    }
    code, out, _ = run("replay", str(db))
    assert code == 0
    [line] = [line for line in out.splitlines() if line.startswith("hinted ")]
    assert "finished, hints" in line

    code, out, _ = run("stats", str(db), "--json")
    assert code == 0
    [board] = json.loads(out)["boards"]
    assert board["games"] == 1
