"""`bohnanza play` driven through its real standard input."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bohnanza.adapters.i18n import load_translators
from bohnanza.adapters.store import open_store
from bohnanza.adapters.terminal.console import Console, TableChoice
from bohnanza.core.record import GameRecord, replay


def bohnanza() -> list[str]:
    found = shutil.which("bohnanza", path=str(Path(sys.executable).parent))
    assert found, "the bohnanza console script is installed beside the interpreter"
    return [found]


def play(*args: str, typed: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*bohnanza(), "play", *args],
        input=typed,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
        env={**os.environ, "XDG_DATA_HOME": str(home)},
    )


@pytest.mark.slow
def test_a_player_who_always_types_the_first_number_listed_finishes_a_duel(
    tmp_path: Path,
) -> None:
    printed: list[str] = []

    def first_listed() -> str:
        """The number of the first choice of the latest screen, as he reads it."""
        screen = "\n".join(printed).rsplit("only you see this", 1)[-1]
        found = re.search(r"^\[(\d+)\] ", screen, re.MULTILINE)
        if "is over." in screen or found is None:
            raise EOFError
        return found.group(1)

    with open_store(str(tmp_path / "games.db"), create=True) as store:
        console = Console(store, load_translators(), first_listed, printed.append, seed=4)
        choice = TableChoice(2, ["heuristic"], "en", "off", "Anna", "2m")

        async def game() -> None:
            await console.open(choice)
            await console.play()

        asyncio.run(game())
        (summary,) = store.list_games()
        stored = store.load_record(summary.game_id)
    assert "is over." in "\n".join(printed)
    assert stored.seats[0].kind == "human"
    assert replay(stored).is_over
    assert "no longer" not in "\n".join(printed), "a number listed is always taken"


@pytest.mark.slow
def test_bad_commands_are_explained_and_change_nothing(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    typed = "plant 9\nfly away\noffer 1 1\n99\n²\nquit\n"
    done = play("--players", "3", "--seed", "2", "--record", str(record), typed=typed,
                home=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "» You have no such field." in done.stdout
    assert "» Unknown command. Send 'help' for the list." in done.stdout
    assert "» There is no choice 99 in your private message." in done.stdout
    assert "» Write numbers with the digits 0 to 9." in done.stdout
    assert GameRecord.loads(record.read_text()).actions == ()


@pytest.mark.slow
def test_an_interrupted_game_goes_on_with_resume(tmp_path: Path) -> None:
    first = play("--players", "3", "--seed", "5", typed="1\nplant 2\nquit\n", home=tmp_path)
    assert first.returncode == 0, first.stderr
    # Not on the PATH here: the command names the program as it was started.
    assert f"go on with `{bohnanza()[0]} play --resume`" in first.stdout
    kept = re.search(r"Game (\w+) is kept: ", first.stdout)
    assert kept is not None, first.stdout
    game_id = kept.group(1)
    record = tmp_path / "resumed.json"
    again = play("--resume", "--record", str(record), typed="1\nquit\n", home=tmp_path)
    assert again.returncode == 0, again.stderr
    assert f"game {game_id}" in again.stdout
    resumed = GameRecord.loads(record.read_text())
    assert resumed.game_id == game_id
    assert len(resumed.actions) >= 3  # two plants before the break, one after
    assert resumed.seats[0].kind == "human"


@pytest.mark.slow
def test_a_game_left_in_italian_says_it_is_kept_in_italian_and_resumes_in_it(
    tmp_path: Path,
) -> None:
    first = play("--players", "3", "--seed", "5", "--lang", "it", typed="quit\n", home=tmp_path)
    assert first.returncode == 0, first.stderr
    kept = re.search(r"La partita (\w+) è salvata: riprendila con `\S+ play --resume`\.",
                     first.stdout)  # fmt: skip
    assert kept is not None, first.stdout
    assert "is kept" not in first.stdout
    again = play("--resume", typed="quit\n", home=tmp_path)  # no --lang: the game's own
    assert again.returncode == 0, again.stderr
    assert f"La partita {kept.group(1)} è salvata" in again.stdout


@pytest.mark.slow
def test_resume_without_an_interrupted_game_is_refused(tmp_path: Path) -> None:
    done = play("--resume", typed="", home=tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip() == "error: no interrupted game to resume"


@pytest.mark.slow
def test_only_the_players_own_hand_is_shown(tmp_path: Path) -> None:
    done = play("--players", "4", "--seed", "7", typed="quit\n", home=tmp_path)
    blocks = done.stdout.split("\n\n")
    hands = [b for b in blocks if "Your hand" in b]
    assert hands and all("── only you see this ──" in b for b in hands)


@pytest.mark.slow
def test_asking_for_the_hand_shows_it_again_without_saying_it_went_elsewhere(
    tmp_path: Path,
) -> None:
    done = play("--players", "4", "--seed", "7", typed="hand\nquit\n", home=tmp_path)
    assert done.returncode == 0, done.stderr
    hands = [b for b in done.stdout.split("\n\n") if "Your hand" in b]
    assert len(hands) == 2  # at the start, and asked for
    assert hands[1] == hands[0]
    assert "privately" not in done.stdout


@pytest.mark.slow
def test_an_impossible_player_count_is_refused(tmp_path: Path) -> None:
    done = play("--players", "9", typed="", home=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: Invalid value for '--players': must be 2 to 7 (see 'bohnanza play --help')"
    )
