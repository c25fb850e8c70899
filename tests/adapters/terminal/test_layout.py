"""Lines fit to a terminal's width: wrapped between words, choices never broken inside one."""

from __future__ import annotations

import shlex
import subprocess

import pytest
from rich.cells import cell_len

from bohnanza.adapters.terminal.layout import choices, command_lines, fitted

LABELS = [
    "End trading, plant: Garden → 3, sell Green (0 coins), Blue → 1",
    "Sell 1 Green Bean: 0 coins",
    "⚡ Garden for Green → anyone",
    "🤝 Offer to Bot 1 (heuristic)",
    "Yes",
]


@pytest.mark.parametrize("width", [40, 60, 80, 120])
def test_every_line_fits_and_breaks_between_words(width: int) -> None:
    text = "Your hand (front first): " + " · ".join(f"{n}. Black-eyed Bean" for n in range(1, 12))
    lines = fitted(text, width)
    assert all(cell_len(line) <= width for line in lines)
    assert " ".join(line.strip() for line in lines) == text


@pytest.mark.parametrize("width", [40, 60, 80, 120])
def test_no_choice_is_broken_inside_unless_it_is_wider_than_the_terminal(width: int) -> None:
    lines = choices(LABELS, width)
    assert all(cell_len(line) <= width for line in lines)
    shown = " ".join(" ".join(line.split()) for line in lines)
    for number, label in enumerate(LABELS, start=1):
        item = f"[{number}] {label}"
        if cell_len(item) <= width:
            assert any(item in " ".join(line.split()) for line in lines), item
        assert " ".join(item.split()) in shown


def test_short_choices_stand_side_by_side() -> None:
    assert choices(["Yes", "No"], 80) == ["[1] Yes   [2] No"]


def test_a_command_too_wide_is_broken_so_that_a_shell_still_runs_it() -> None:
    program = "/home/anna/bohnanza/.venv/bin/bohnanza"
    line = f"Replay it with: {program} replay '/tmp/my games/g.db' --game ABC123"
    lines = command_lines(line, program, 40)
    assert all(cell_len(part) <= 40 for part in lines)
    assert lines[0] == "Replay it with:"
    pasted = "\n".join(lines[1:]).replace("\\\n", " ")
    assert shlex.split(pasted) == [program, "replay", "/tmp/my games/g.db", "--game", "ABC123"]


@pytest.mark.parametrize(
    "program",
    [
        "/tmp/a-clone-at-a-rather-long-path/of-its-own/.venv/bin/bohnanza",
        "'/tmp/a clone with spaces in a long path of its own/.venv/bin/bohnanza'",
    ],
)
def test_a_word_wider_than_the_terminal_is_cut_where_a_shell_joins_it_again(program: str) -> None:
    line = f"Game ABC is kept: go on with `{program} play --resume --db /tmp/g.db`."
    lines = command_lines(line, program, 40)
    assert all(cell_len(part) <= 40 for part in lines)
    assert lines[0] == "Game ABC is kept: go on with"
    pasted = "\n".join(lines[1:])
    words = subprocess.run(
        ["sh", "-c", "printf '%s\\n' " + pasted],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert words == [*shlex.split(program), "play", "--resume", "--db", "/tmp/g.db"]
