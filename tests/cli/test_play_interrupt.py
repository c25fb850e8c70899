"""Ctrl-C in a terminal game stops it at once and keeps it, to be resumed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

BOHNANZA = Path(sys.executable).with_name("bohnanza")
WAITS_FOR_A_LINE = "Type the number of a choice, or a command"
"""What the game prints when it waits for the player's line."""


AS_AT_A_TERMINAL = [
    sys.executable,
    "-c",
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])",
]
"""Runs a command with Ctrl-C doing what it does at a terminal. A suite started in the
background of a shell without job control (`make test &`, a CI job) inherits SIGINT ignored,
and so would the game: the signal would never reach it. The command replaces this process
(same pid), keeping the default action, which the game's Python then turns into its handler."""


@pytest.mark.slow
def test_ctrl_c_stops_the_game_at_once_and_keeps_it(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOHNANZA_")}
    db = tmp_path / "games.db"
    # Output goes to files and stdin is closed only once the game has exited: closing it
    # earlier (as `communicate` does) ends the input, a quit of its own that could race the
    # signal.
    with (tmp_path / "out.txt").open("w") as out_file, (tmp_path / "err.txt").open("w") as err_file:
        game = subprocess.Popen(
            [*AS_AT_A_TERMINAL, str(BOHNANZA), "play", "--db", str(db), "--seed", "3"],
            stdin=subprocess.PIPE,
            stdout=out_file,
            stderr=err_file,
            text=True,
            env=env,
        )
        assert game.stdin is not None
        try:
            # The game is on the table once it asks for a line (flushed before it reads one).
            deadline = time.monotonic() + 120
            while WAITS_FOR_A_LINE not in (tmp_path / "out.txt").read_text():
                assert game.poll() is None, (tmp_path / "err.txt").read_text()
                assert time.monotonic() < deadline, "the game never asked for a line"
                time.sleep(0.1)
            game.send_signal(signal.SIGINT)  # the line never comes: the pipe stays open
            game.wait(timeout=10)
        finally:
            if game.poll() is None:
                game.kill()
            game.stdin.close()
    out = (tmp_path / "out.txt").read_text()
    err = (tmp_path / "err.txt").read_text()
    assert game.returncode == 130, err
    assert "Traceback" not in err
    assert f"is kept: go on with `{BOHNANZA} play --resume --db {db}`." in out

    resumed = subprocess.run(
        [str(BOHNANZA), "play", "--db", str(db), "--resume"],
        input="quit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert resumed.returncode == 0, resumed.stderr
