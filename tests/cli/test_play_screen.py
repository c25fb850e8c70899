"""What the person at `bohnanza play` reads: the table at once, his seat by name, and a replay
command that runs as printed. Driven through the real console script and its standard input."""

from __future__ import annotations

import contextlib
import os
import re
import select
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
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
CHOICE = re.compile(r"^\[(\d+)\] ", re.MULTILINE)
QUIET = 0.05
"""Seconds without output after which the program is taken to wait for the next line."""
MOST_INPUTS = 20_000


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


def played_to_the_end(
    *args: str, home: Path, login: str = "anna", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`bohnanza play` by a player who always types the number of the first choice of the
    latest screen, as he reads it, until the game ends."""
    env = {**os.environ, "XDG_DATA_HOME": str(home), "LOGNAME": login, "USER": login}
    env["PYTHONUNBUFFERED"] = "1"
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            [bohnanza(), "play", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,
            env=env,
            cwd=cwd,
        )
        assert process.stdin is not None and process.stdout is not None
        output = b""
        try:
            for _ in range(MOST_INPUTS):
                output += _until_quiet(process)
                if process.poll() is not None:
                    break
                latest = output.decode(errors="replace").rsplit("only you see this", 1)[-1]
                first = CHOICE.search(latest)
                with contextlib.suppress(BrokenPipeError):
                    process.stdin.write(f"{first.group(1) if first else 'hand'}\n".encode())
                    process.stdin.flush()
            output += process.stdout.read()
            code = process.wait(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        errors.seek(0)
        return subprocess.CompletedProcess(
            process.args, code, output.decode(errors="replace"), errors.read().decode()
        )


def _until_quiet(process: subprocess.Popen[bytes], limit: float = 10.0) -> bytes:
    """What the program printed until it went quiet (or ended), after it printed anything."""
    assert process.stdout is not None
    out = b""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], QUIET)
        if not ready:
            if out or process.poll() is not None:
                break
            continue
        chunk = os.read(process.stdout.fileno(), 65536)
        if not chunk:
            break
        out += chunk
    return out


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


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_whole_game_speaks_of_the_person_by_name(tmp_path: Path) -> None:
    done = played_to_the_end("--players", "4", "--seed", "3", home=tmp_path)
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


@pytest.mark.slow
def test_a_given_name_is_used_and_a_superuser_is_the_player(tmp_path: Path) -> None:
    named = run("play", "--players", "2", "--seed", "4", "--name", "  Anna\tRossi ",
                typed="quit\n", home=tmp_path / "named")  # fmt: skip
    assert "▶ 1. Anna Rossi: 0 coins" in named.stdout
    root = run("play", "--players", "2", "--seed", "4", typed="quit\n", home=tmp_path / "root",
               login="root")  # fmt: skip
    assert "▶ 1. Player: 0 coins" in root.stdout


@pytest.mark.slow
def test_the_replay_command_names_the_store_given_with_db(tmp_path: Path) -> None:
    played_in = tmp_path / "work dir"
    (played_in / "my games").mkdir(parents=True)
    done = played_to_the_end("--players", "2", "--seed", "4", "--db", "my games/bean games.db",
                             home=tmp_path, cwd=played_in)  # fmt: skip
    assert done.returncode == 0, done.stderr
    game_id = done.stdout.split(" is over.", 1)[0].rsplit("Game ", 1)[1]
    store = (played_in / "my games" / "bean games.db").resolve()
    hint = replay_hint(done.stdout)
    assert hint == f"{bohnanza()} replay {shlex.quote(str(store))} --game {game_id}"
    told = run_hint(hint, tmp_path, cwd=tmp_path)  # another folder than the one played in
    assert told.returncode == 0, told.stderr
    assert "— turn 1: anna —" in told.stdout
    assert "game over — " in told.stdout


@pytest.mark.slow
def test_the_replay_command_names_the_default_store(tmp_path: Path) -> None:
    home = tmp_path / "data home"
    done = played_to_the_end("--players", "2", "--seed", "4", home=home)
    assert done.returncode == 0, done.stderr
    store = (home / "bohnanza" / "games.db").resolve()
    hint = replay_hint(done.stdout)
    assert f"{bohnanza()} replay {shlex.quote(str(store))} --game " in hint
    assert "DB" not in hint.split()
    told = run_hint(hint, home, cwd=tmp_path)
    assert told.returncode == 0, told.stderr
    assert "game over — " in told.stdout
