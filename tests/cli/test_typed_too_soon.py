"""`bohnanza play` in a real pseudo-terminal: a number typed while the game still answered the
line before, after which it printed new choices, is not taken (numbers start from 1 again in a
new decision, so it may name a choice of a list the player never saw); typed again once the
choices are shown, it is."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from terminal_person import YOUR_MOVE, Terminal, bohnanza, last_screen, short_folder, stored_game

TOO_SOON = "1 was typed before the choices above were shown: not taken."
PATIENCE = 60.0
"""Seconds the game may take to answer, however loaded the machine."""

pytestmark = pytest.mark.slow  # a real terminal, and the game started in it


def _moves_of_the_person(home: Path) -> int:
    return sum(1 for _, action, _ in stored_game(home) if action and action.player == 0)


def _read_until(terminal: Terminal, text: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while text not in terminal.text and time.monotonic() < deadline:
        terminal.read_until_quiet(limit=1.0)
    assert text in terminal.text, terminal.text[-2000:]


def test_a_number_typed_before_the_choices_came_is_not_taken_until_typed_again() -> None:
    with short_folder() as home:
        args = [bohnanza(), "play", "--players", "3", "--name", "anna", "--seed", "11"]
        terminal = Terminal(args, 80, home)
        try:
            _read_until(terminal, YOUR_MOVE)
            assert "[1] " in last_screen(terminal.text)
            moves = _moves_of_the_person(home)
            # Both lines at once: the game reads `hand` and prints his choices anew while `1`
            # already waits.
            os.write(terminal.main, b"hand\n1\n")
            _read_until(terminal, TOO_SOON)
            assert _moves_of_the_person(home) == moves
            terminal.type("1")
            deadline = time.monotonic() + PATIENCE
            while _moves_of_the_person(home) == moves and time.monotonic() < deadline:
                terminal.read_until_quiet(limit=1.0)
            assert _moves_of_the_person(home) == moves + 1
            assert terminal.text.count(TOO_SOON) == 1
        finally:
            terminal.close()
