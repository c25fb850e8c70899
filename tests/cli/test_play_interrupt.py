"""Ctrl-C in a terminal game stops it at once and keeps it, to be resumed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

BOHNANZA = Path(sys.executable).with_name("bohnanza")


def test_ctrl_c_stops_the_game_at_once_and_keeps_it(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOHNANZA_")}
    db = tmp_path / "games.db"
    game = subprocess.Popen(
        [str(BOHNANZA), "play", "--db", str(db), "--seed", "3"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert game.stdin is not None
    try:
        deadline = time.monotonic() + 30
        while not db.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)  # the game is on the table and waits for a line
        game.send_signal(signal.SIGINT)  # the line never comes: the pipe stays open
        out, err = game.communicate(timeout=10)
    finally:
        if game.poll() is None:
            game.kill()
    assert game.returncode == 130, err
    assert "Traceback" not in err
    assert "is kept: go on with `bohnanza play --resume`." in out

    resumed = subprocess.run(
        [str(BOHNANZA), "play", "--db", str(db), "--resume"],
        input="quit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert resumed.returncode == 0, resumed.stderr
