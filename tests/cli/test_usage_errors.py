"""A mistyped command line is one line on stderr and exit 2, never a box or a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BOHNANZA = Path(sys.executable).with_name("bohnanza")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("BOHNANZA_")}
    return subprocess.run(
        [str(BOHNANZA), *args], env=clean, capture_output=True, text=True, timeout=60
    )


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


def test_help_and_a_bare_command_still_show_the_help() -> None:
    assert run("--help").returncode == 0
    bare = run("db")
    assert "upgrade" in bare.stdout + bare.stderr
