"""A mistyped command line is one line on stderr and exit 2, never a box or a traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BOHNANZA = Path(sys.executable).with_name("bohnanza")


def run(*args: str, columns: int = 80) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("BOHNANZA_")}
    clean["COLUMNS"] = str(columns)
    return subprocess.run(
        [str(BOHNANZA), *args], env=clean, capture_output=True, text=True, timeout=60
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["simulate", "--seed", "abc"], "'--seed'"),
        (["replay", "--no-such-option"], "--no-such-option"),
        (["nosuch"], "'nosuch'"),
        (["export"], "Missing"),
        (["play", "--players", "²"], "'--players'"),
    ],
)
def test_a_usage_error_is_one_line_and_exit_2(args: list[str], names: str) -> None:
    done = run(*args)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert names in lines[0] and "--help" in lines[0]


@pytest.mark.slow
def test_help_and_a_bare_command_still_show_the_help() -> None:
    assert run("--help").returncode == 0
    bare = run("db")
    assert "upgrade" in bare.stdout + bare.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["play", "--players", "9"], "'--players'"),
        (["play", "--lang", "xx"], "'--lang'"),
        (["play", "--bots", "foo"], "'--bots'"),
        (["play", "--deadline", "5x"], "'--deadline'"),
        (["play", "--trade-window", "off"], "'--trade-window'"),
        (["play", "--nosuch"], "--nosuch"),
        (["simulate", "--players", "9"], "--players"),
        (["simulate", "--games", "0"], "--games"),
        (["simulate", "--output", "-"], "'--output'"),
        (["audit", "games.db", "--jobs", "0"], "'--jobs'"),
        (["stats", "--nosuch"], "--nosuch"),
        (["export", "games.db", "--game", "g"], "'--output'"),
        (["replay", "--at", "x"], "'--at'"),
        (["health", "--url"], "'--url'"),
        (["serve"], "'PLATFORMS"),
    ],
)
def test_every_command_tells_a_usage_error_the_same_way(args: list[str], names: str) -> None:
    done = run(*args)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert names.lower() in lines[0].lower() and f"'bohnanza {args[0]} --help'" in lines[0]


@pytest.mark.slow
@pytest.mark.parametrize("args", [["--help"], ["play", "--players", "9"], ["health", "--help"]])
def test_the_help_and_a_usage_error_import_no_store_nor_server(args: list[str]) -> None:
    """They answer at once: the store, the platforms and the web server are imported by the
    commands that use them, when they run."""
    command = (
        "import sys\n"
        "from bohnanza.cli.app import main\n"
        f"sys.argv = ['bohnanza', *{args!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ['sqlalchemy', 'alembic', 'aiohttp', 'bohnanza.adapters.platforms']\n"
        "print([name for name in heavy if name in sys.modules], file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", command], capture_output=True, text=True, timeout=60
    )
    assert done.stderr.splitlines()[-1] == "[]", done.stderr


@pytest.mark.slow
def test_a_missing_store_is_no_usage_error_but_exit_1(tmp_path: Path) -> None:
    done = run("replay", str(tmp_path / "none.db"))
    assert done.returncode == 1
    assert done.stderr == f"error: {tmp_path / 'none.db'}: no such file\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    "command", ["play", "simulate", "replay", "serve", "health", "export", "import", "audit"]
)
def test_help_names_values_by_what_they_are_not_by_their_type(command: str) -> None:
    shown = run(command, "--help", columns=100)
    assert shown.returncode == 0
    assert re.findall(r"<\w+(?:\[\w+\])?>", shown.stdout) == []


@pytest.mark.slow
def test_play_help_shows_the_deadline_and_the_trading_window_with_their_defaults() -> None:
    shown = " ".join(run("play", "--help", columns=200).stdout.split())
    assert "--deadline TIME" in shown and "[default: off]" in shown
    assert "--trade-window TIME" in shown and "[default: 2m]" in shown


@pytest.mark.slow
def test_defaults_told_in_the_help_are_whole() -> None:
    health = " ".join(run("health", "--help", columns=200).stdout.split())
    assert "[default: http://127.0.0.1:$BOHNANZA_HEALTH_PORT/healthz]" in health
    serve = " ".join(run("serve", "--help", columns=200).stdout.split())
    assert "A TOML settings file. [default: $BOHNANZA_CONFIG]" in serve


@pytest.mark.slow
def test_export_writes_standard_output_with_a_dash(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    assert run("simulate", "--games", "1", "--players", "2", "--db", str(db)).returncode == 0
    listed = run("replay", str(db), "--json")
    (game,) = [g["game_id"] for g in json.loads(listed.stdout)]
    done = run("export", str(db), "--game", game, "-o", "-")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["actions"]
    assert not (tmp_path / "-").exists()
