"""What the person at `bohnanza play` reads: the table at once, his seat by name, and a replay
command that runs as printed. Driven through the real console script and its standard input."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NARRATED = (
    "plants",
    "discards",
    "harvests",
    "buys",
    "turns up",
    "draws",
    "gives",
    "accepts",
    "ends trading",
    "leaves",
    "is back",
    "missed",
)
"""The verbs the table, the results and the replay's narration put after a seat's name."""
EVERY_BUTTON = "1\n" * 20_000
"""A player who always presses the first button: enough lines to finish any game."""


def bohnanza() -> str:
    found = shutil.which("bohnanza", path=str(Path(sys.executable).parent))
    assert found, "the bohnanza console script is installed beside the interpreter"
    return found


def run(
    *args: str, typed: str, home: Path, login: str = "anna", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(home), "LOGNAME": login, "USER": login}
    return subprocess.run(
        [bohnanza(), *args],
        input=typed,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
        env=env,
        cwd=cwd,
    )


def replay_hint(stdout: str) -> str:
    lines = [line for line in stdout.splitlines() if line.startswith("Replay it with: ")]
    assert len(lines) == 1, stdout[-2000:]
    return lines[0].removeprefix("Replay it with: ")


def run_hint(hint: str, home: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The printed command as a shell would split it, run from another folder."""
    words = shlex.split(hint)
    # `bohnanza` is not on the PATH here: the command names the program as it was started.
    assert words[0] == bohnanza()
    return run(*words[1:], typed="", home=home, cwd=cwd)


def third_person_you(text: str) -> list[str]:
    return [f"You {verb}" for verb in NARRATED if f"You {verb}" in text]


@pytest.mark.parametrize("players", [2, 4])
def test_the_game_begins_at_the_table_with_no_lobby(tmp_path: Path, players: int) -> None:
    done = run("play", "--players", str(players), "--seed", "7", typed="quit\n", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "is being gathered" not in done.stdout
    assert "Add a bot" not in done.stdout
    assert "begins:" not in done.stdout
    table, hand = done.stdout.strip("\n").split("\n\n")[:2]
    assert table.startswith("Bohnanza · game ")
    assert table.count(" coins, ") == players
    assert hand.startswith("── only you see this ──")
    assert "Your hand (front first): " in hand


def test_a_whole_game_speaks_of_the_person_by_name(tmp_path: Path) -> None:
    done = run("play", "--players", "4", "--seed", "3", typed=EVERY_BUTTON, home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "is over." in done.stdout
    assert "▶ 1. anna: 0 coins" in done.stdout
    assert "Waiting for: anna" in done.stdout
    assert "anna: " in done.stdout.split("is over.")[1]  # among the final scores
    assert "── only you see this ──" in done.stdout and "Your hand" in done.stdout
    assert third_person_you(done.stdout) == []
    told = run_hint(replay_hint(done.stdout), tmp_path, tmp_path)
    assert told.returncode == 0, told.stderr
    assert "anna plants" in told.stdout and "anna harvests" in told.stdout
    assert third_person_you(told.stdout) == []


def test_a_given_name_is_used_and_a_superuser_is_the_player(tmp_path: Path) -> None:
    named = run("play", "--players", "2", "--seed", "4", "--name", "  Anna\tRossi ",
                typed="quit\n", home=tmp_path / "named")  # fmt: skip
    assert "▶ 1. Anna Rossi: 0 coins" in named.stdout
    root = run("play", "--players", "2", "--seed", "4", typed="quit\n", home=tmp_path / "root",
               login="root")  # fmt: skip
    assert "▶ 1. Player: 0 coins" in root.stdout


def test_the_replay_command_names_the_store_given_with_db(tmp_path: Path) -> None:
    played_in = tmp_path / "work dir"
    (played_in / "my games").mkdir(parents=True)
    done = run("play", "--players", "2", "--seed", "4", "--db", "my games/bean games.db",
               typed=EVERY_BUTTON, home=tmp_path, cwd=played_in)  # fmt: skip
    assert done.returncode == 0, done.stderr
    game_id = done.stdout.split(" is over.", 1)[0].rsplit("Game ", 1)[1]
    store = (played_in / "my games" / "bean games.db").resolve()
    hint = replay_hint(done.stdout)
    assert hint == f"{bohnanza()} replay {shlex.quote(str(store))} --game {game_id}"
    told = run_hint(hint, tmp_path, cwd=tmp_path)  # another folder than the one played in
    assert told.returncode == 0, told.stderr
    assert "— turn 1: anna —" in told.stdout
    assert "game over — " in told.stdout


def test_the_replay_command_names_the_default_store(tmp_path: Path) -> None:
    home = tmp_path / "data home"
    done = run("play", "--players", "2", "--seed", "4", typed=EVERY_BUTTON, home=home)
    assert done.returncode == 0, done.stderr
    store = (home / "bohnanza" / "games.db").resolve()
    hint = replay_hint(done.stdout)
    assert f"{bohnanza()} replay {shlex.quote(str(store))} --game " in hint
    assert "DB" not in hint.split()
    told = run_hint(hint, home, cwd=tmp_path)
    assert told.returncode == 0, told.stderr
    assert "game over — " in told.stdout
