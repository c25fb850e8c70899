"""`bohnanza play` in a real pseudo-terminal of 80 and of 40 columns, over whole games: the player
reads every offer that concerned him, by its number and with what became of it (checked against
the stored record), and no printed line is wider than his terminal."""

from __future__ import annotations

import fcntl
import os
import random
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from rich.cells import cell_len

from bohnanza.adapters.store import open_store
from bohnanza.core.events import TradeAccepted, TradeClosed, TradeProposed
from bohnanza.core.record import replay_steps

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
CHOICE = re.compile(r"\[(\d+)\] ")
QUIET = 0.05
"""Seconds without output after which the program is taken to wait for the next line."""
MOST_INPUTS = 3000


def bohnanza() -> str:
    found = shutil.which("bohnanza", path=str(Path(sys.executable).parent))
    assert found, "the bohnanza console script is installed beside the interpreter"
    return found


@contextmanager
def short_folder() -> Iterator[Path]:
    """A folder with a short path, so the printed commands fit the narrowest terminal."""
    folder = Path(tempfile.mkdtemp(prefix="bz", dir="/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Terminal:
    """A program at a pseudo-terminal of a given width, typed at like a person would: one line
    each time the program has printed its screen and gone quiet."""

    def __init__(self, args: list[str], columns: int, home: Path) -> None:
        self.main, secondary = os.openpty()
        fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
        attributes = termios.tcgetattr(secondary)
        attributes[3] &= ~termios.ECHO  # the screen holds what the program prints, not the keys
        termios.tcsetattr(secondary, termios.TCSANOW, attributes)
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env.update(XDG_DATA_HOME=str(home), TERM="xterm", PYTHONIOENCODING="utf-8")
        self.process = subprocess.Popen(
            args, stdin=secondary, stdout=secondary, stderr=secondary, env=env, cwd=home
        )
        os.close(secondary)
        self.output = b""

    def read_until_quiet(self, limit: float = 10.0) -> str:
        """What the program printed until it went quiet (or ended)."""
        start = len(self.output)
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.main], [], [], QUIET)
            if not ready:
                if len(self.output) > start or self.process.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(self.main, 65536)
            except OSError:  # the program ended and closed the terminal
                break
            if not chunk:
                break
            self.output += chunk
        return self.output[start:].decode("utf-8", errors="replace")

    def type(self, line: str) -> None:
        os.write(self.main, line.encode() + b"\n")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=30)
        os.close(self.main)

    @property
    def lines(self) -> list[str]:
        text = ANSI.sub("", self.output.decode("utf-8", errors="replace"))
        return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def play_a_whole_game(columns: int, seed: int, home: Path) -> Terminal:
    """A player who mostly takes the first choice listed and now and then another (an offer
    of his own, a decline), until the game ends."""
    args = [bohnanza(), "play", "--players", "3", "--seed", str(seed), "--name", "anna"]
    terminal = Terminal(args, columns, home)
    chooser = random.Random(seed)
    try:
        for _ in range(MOST_INPUTS):
            screen = terminal.read_until_quiet()
            if terminal.process.poll() is not None:
                break
            # The choices of his latest screen, by the numbers they are listed with.
            numbers = [int(n) for n in CHOICE.findall(screen.rsplit("only you see this", 1)[-1])]
            listed = numbers or [1]
            pick = listed[0] if chooser.random() < 0.7 else chooser.choice(listed)
            terminal.type(str(pick))
        else:
            pytest.fail("the game did not end")
        terminal.read_until_quiet()
        assert terminal.process.wait(timeout=30) == 0
    finally:
        terminal.close()
    return terminal


def what_became_of_each_offer(home: Path) -> dict[int, tuple[TradeProposed, str]]:
    """Every offer to or from the person (seat 0) in the stored game, and how it ended."""
    store = open_store(str(home / "bohnanza" / "games.db"))
    try:
        (summary,) = store.list_games()
        record = store.load_record(summary.game_id)
    finally:
        store.close()
    offers: dict[int, tuple[TradeProposed, str]] = {}
    for _, _, _, events in replay_steps(record):  # as `bohnanza replay` tells the game
        for event in events:
            if isinstance(event, TradeProposed) and 0 in (
                event.offer.proposer,
                event.offer.receiver,
            ):
                offers[event.offer.id] = (event, "open")
            elif isinstance(event, TradeClosed | TradeAccepted) and event.offer.id in offers:
                outcome = event.reason if isinstance(event, TradeClosed) else "accepted"
                offers[event.offer.id] = (offers[event.offer.id][0], outcome)
    return offers


OUTCOME_TO_HIM = {
    "declined": "You declined offer #{id} from",
    "withdrawn": "withdrew offer #{id}.",
    "countered": "You answered offer #{id} from",
    "trading-ended": "Offer #{id} from {name} expired",
    "accepted": "You accepted offer #{id} from",
}
OUTCOME_OF_HIS = {
    "declined": "declined your offer #{id}.",
    "withdrawn": "You withdrew your offer #{id} to",
    "countered": "answered your offer #{id} with offer #",
    "trading-ended": "Your offer #{id} to {name} expired",
    "accepted": "accepted your offer #{id}:",
}


def told_lines(lines: list[str]) -> list[str]:
    """The event lines ('• …'), each with its wrapped continuation joined back."""
    told: list[str] = []
    for line in lines:
        if line.startswith("• "):
            told.append(line)
        elif told and told[-1] and line.startswith("  "):
            told[-1] += " " + line.strip()
        else:
            told.append("")
    return [line for line in told if line]


@pytest.mark.slow
@pytest.mark.parametrize(("columns", "seed"), [(80, 11), (40, 12)])
def test_a_whole_game_tells_every_offer_and_fits_the_terminal(columns: int, seed: int) -> None:
    with short_folder() as home:
        terminal = play_a_whole_game(columns, seed, home)
        offers = what_became_of_each_offer(home)
    lines = terminal.lines
    assert any("is over." in line for line in lines)
    too_wide = [line for line in lines if cell_len(line) > columns]
    assert too_wide == []
    told = "\n".join(told_lines(lines))
    names = ["anna", "Bot 1 (heuristic)", "Bot 2 (heuristic)"]
    assert len(offers) >= 5, "the game had offers to tell"
    untold = []
    for number, (proposed, outcome) in offers.items():
        offer = proposed.offer
        if offer.receiver == 0:
            made = f"#{number} from {names[offer.proposer]} to you"
            if proposed.replaces is not None:
                made = f"answered your offer #{proposed.replaces} with offer #{number}:"
            ending = OUTCOME_TO_HIM[outcome].format(id=number, name=names[offer.proposer])
            expected = [made, ending]
        else:
            expected = [OUTCOME_OF_HIS[outcome].format(id=number, name=names[offer.receiver])]
        untold += [(number, words) for words in expected if words not in told]
    assert untold == []
