"""`bohnanza play` driven through its real standard input."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from bohnanza.core.record import GameRecord, replay


def bohnanza() -> list[str]:
    found = shutil.which("bohnanza", path=str(Path(sys.executable).parent))
    assert found, "the bohnanza console script is installed beside the interpreter"
    return [found]


def play(*args: str, typed: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*bohnanza(), "play", *args],
        input=typed,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_player_who_always_takes_the_first_choice_finishes_a_duel(tmp_path: Path) -> None:
    record = tmp_path / "duel.json"
    done = play("--players", "2", "--seed", "4", "--record", str(record), typed="1\n" * 4000)
    assert done.returncode == 0, done.stderr
    assert "game over" in done.stdout
    stored = GameRecord.loads(record.read_text())
    assert stored.seats[0].kind == "human"
    assert replay(stored).is_over


def test_bad_commands_are_explained_and_change_nothing(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    typed = "plant 9\nfly away\noffer 1 1\n99\nquit\n"
    done = play("--players", "3", "--seed", "2", "--record", str(record), typed=typed)
    assert done.returncode == 0, done.stderr
    assert "✗ You have no field 9." in done.stdout
    assert "✗ Unknown command 'fly'" in done.stdout
    assert "✗ Choose 1 to" in done.stdout
    assert GameRecord.loads(record.read_text()).actions == ()


def test_the_hand_shown_is_only_the_players_own(tmp_path: Path) -> None:
    done = play("--players", "4", "--seed", "7", typed="quit\n")
    assert done.stdout.count("your hand:") == 1


def test_an_impossible_player_count_is_refused() -> None:
    done = play("--players", "9", typed="")
    assert done.returncode == 1
    assert done.stderr.strip() == "error: --players must be 2 to 7"
