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


def games_in(home: Path) -> dict[str, int]:
    """The stored games by id, with how many actions each holds."""
    store = open_store(str(home / "bohnanza" / "games.db"))
    try:
        return {game.game_id: game.actions for game in store.list_games()}
    finally:
        store.close()


@pytest.mark.slow
def test_a_new_game_tells_of_the_unfinished_one(tmp_path: Path) -> None:
    first = play("--players", "3", "--seed", "5", typed="1\nquit\n", home=tmp_path)
    (left,) = games_in(tmp_path)

    second = play("--players", "3", "--seed", "6", typed="quit\n", home=tmp_path)

    assert second.returncode == 0, second.stderr
    lines = second.stdout.splitlines()
    assert lines[0] == (
        f"You have an unfinished game; go on with it with `{bohnanza()[0]} play --resume`:"
    )
    assert lines[1].startswith(f"  {left} · ")
    assert first.stdout.splitlines()[0] == ""  # nothing to tell the first time


@pytest.mark.slow
def test_resume_asks_which_game_and_plays_that_one_alone(tmp_path: Path) -> None:
    play("--players", "3", "--seed", "5", typed="1\nquit\n", home=tmp_path)
    play("--players", "4", "--seed", "6", typed="1\nquit\n", home=tmp_path)
    before = games_in(tmp_path)
    older, newer = before

    # A move typed as a command: the numbers of its list are those its step began with.
    resumed = play("--resume", typed="x\n1\ndone\nquit\n", home=tmp_path)

    assert resumed.returncode == 0, resumed.stderr
    assert "Your unfinished games:" in resumed.stdout
    assert resumed.stdout.count("Which one? Type its number (1 to 2).") == 2
    assert f"game {older}" in resumed.stdout
    assert newer not in resumed.stdout.split("Which one?")[-1]
    after = games_in(tmp_path)
    assert after[older] > before[older]
    assert after[newer] == before[newer]

    by_id = play("--resume", "--game", newer.lower(), typed="quit\n", home=tmp_path)
    assert by_id.returncode == 0, by_id.stderr
    assert f"game {newer}" in by_id.stdout and "Which one?" not in by_id.stdout
    unknown = play("--resume", "--game", "NOSUCH", typed="", home=tmp_path)
    assert unknown.returncode == 1
    assert unknown.stderr.strip() == f"error: no interrupted game NOSUCH; yours: {older}, {newer}"


@pytest.mark.slow
def test_the_first_screen_and_enter_alone_say_how_to_answer(tmp_path: Path) -> None:
    done = play("--players", "3", "--seed", "5", typed="\nhelp\nquit\n", home=tmp_path)
    assert done.returncode == 0, done.stderr
    guide = "Type the number of a choice, or a command (`help` lists them)."
    assert done.stdout.count(guide) == 2
    assert f"» {guide}" in done.stdout
    assert "rules [beans|fields|turn|trading|end|variants] — the rules of the game" in done.stdout
    assert "set trading offers|always — " in done.stdout


@pytest.mark.slow
def test_the_terminals_own_words_come_in_the_games_language(tmp_path: Path) -> None:
    done = subprocess.run(
        [*bohnanza(), "play", "--players", "3", "--seed", "5", "--lang", "it"],
        input="99\nquit\n",
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path), "LOGNAME": "root", "USER": "root"},
    )
    assert done.returncode == 0, done.stderr
    assert "── lo vedi solo tu ──" in done.stdout and "only you see" not in done.stdout
    assert "Nel tuo messaggio privato non c'è la scelta 99." in done.stdout
    assert "1. Giocatore: 0 monete" in done.stdout


@pytest.mark.slow
def test_a_closed_output_ends_the_game_at_once_and_keeps_it(tmp_path: Path) -> None:
    game = subprocess.Popen(
        [*bohnanza(), "play", "--players", "3", "--seed", "5"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
    )
    assert game.stdout is not None and game.stderr is not None and game.stdin is not None
    try:
        game.stdout.readline()  # `bohnanza play | head -1`
        game.stdout.close()
        code = game.wait(timeout=120)  # ends by itself, though its input stays open
        errors = game.stderr.read().decode()
    finally:
        if game.poll() is None:
            game.kill()
        game.stdin.close()
    assert code == 0
    assert errors == ""
    assert len(games_in(tmp_path)) == 1
