"""A person at `bohnanza play` in a real pseudo-terminal: he reads each screen, answers the bots'
offers to him, makes offers of his own, and otherwise mostly takes the first choice. What he
typed, how soon each input was answered on screen, and what the game stored are kept for the
tests to judge."""

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
from dataclasses import dataclass, field
from pathlib import Path

from rich.cells import cell_len

from bohnanza.adapters.store import open_store
from bohnanza.core.actions import Action
from bohnanza.core.app.i18n import Translator, bean_name
from bohnanza.core.app.picker import short_bean
from bohnanza.core.cards import VARIETIES
from bohnanza.core.events import Event, TradeAccepted, TradeClosed, TradeProposed
from bohnanza.core.record import replay_steps

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
CHOICE = re.compile(r"\[(\d+)\] ")
QUIET = 0.05
"""Seconds without output after which the program is taken to wait for the next line."""
ANSWERED_WITHIN = 10.0
"""Seconds an input may go without a word on screen before it counts as unanswered: far more
than the second it should take, so that a loaded machine fails nothing by timing alone."""
MOST_INPUTS = 3000
SCREEN_PAUSE = 1.0
"""Seconds to wait for the rest of a screen that came in parts."""
YOUR_MOVE = "▶ Your move."
DIVIDER = "── only you see this ──"


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
        self.typed_at = 0.0
        self.answered_after: float | None = None
        """Seconds from the latest line typed to the first output after it (None: none yet)."""

    def read_until_quiet(self, limit: float | None = None, quiet: float = QUIET) -> str:
        """What the program printed until it went quiet (or ended)."""
        start = len(self.output)
        deadline = time.monotonic() + (ANSWERED_WITHIN if limit is None else limit)
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.main], [], [], quiet)
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
            if self.answered_after is None:
                self.answered_after = time.monotonic() - self.typed_at
            self.output += chunk
        return self.output[start:].decode("utf-8", errors="replace")

    def type(self, line: str) -> None:
        self.typed_at = time.monotonic()
        self.answered_after = None
        os.write(self.main, line.encode() + b"\n")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=30)
        os.close(self.main)

    @property
    def text(self) -> str:
        return self.output.decode("utf-8", errors="replace")

    @property
    def lines(self) -> list[str]:
        text = ANSI.sub("", self.output.decode("utf-8", errors="replace"))
        return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


@dataclass
class Inputs:
    """What the person typed, and how each input was answered."""

    typed: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    """Seconds from each input to the first output after it."""
    unanswered: list[str] = field(default_factory=list)
    passes: int = 0
    """Inputs that decide nothing: 'pass', the 'No trade' choice, an empty line."""
    answers: int = 0
    """Bot offers to him he accepted or declined."""
    offers: int = 0
    """Offers of his own he typed."""
    stalls: int = 0
    """Times the program waited with nothing for him to decide or pass on."""


def last_screen(screen: str) -> str:
    """The latest private screen in what was printed (or all of it)."""
    return screen.rsplit(DIVIDER, 1)[-1]


def choices(screen: str) -> dict[int, str]:
    """The numbered choices of a screen, by number (columns read apart)."""
    found: dict[int, str] = {}
    for line in screen.splitlines():
        for part in re.split(r"\s{3,}(?=\[\d+\] )", line.strip()):
            match = re.match(r"\[(\d+)\] (.*)", part)
            if match:
                found[int(match.group(1))] = match.group(2).strip()
    return found


def play_as_a_person(
    args: list[str], columns: int, seed: int, home: Path, first: tuple[str, ...] = ()
) -> tuple[Terminal, Inputs]:
    """A whole game typed at like a person: `first` lines, then a line per screen until the
    game ends."""
    terminal = Terminal([bohnanza(), "play", *args, "--seed", str(seed)], columns, home)
    players = int(args[args.index("--players") + 1]) if "--players" in args else 4
    chooser = random.Random(seed)
    inputs = Inputs()
    pending = list(first)
    try:
        terminal.read_until_quiet()
        for _ in range(MOST_INPUTS):
            if terminal.process.poll() is not None:
                break
            shown = last_screen(terminal.text)
            line = pending.pop(0) if pending else _decide(shown, chooser, inputs, players)
            if line is None:
                # Nothing for him to decide, and nothing to pass on: the game goes on alone.
                inputs.stalls += 1
                terminal.read_until_quiet(limit=300)
                continue
            inputs.typed.append(line)
            terminal.type(line)
            terminal.read_until_quiet()
            if terminal.answered_after is None:
                if terminal.process.poll() is not None:
                    break
                inputs.unanswered.append(line)
            else:
                inputs.latencies.append(terminal.answered_after)
            if YOUR_MOVE not in last_screen(terminal.text):
                # A screen may come in parts: what follows a pause is read too.
                terminal.read_until_quiet(limit=SCREEN_PAUSE, quiet=SCREEN_PAUSE / 4)
        else:
            raise AssertionError("the game did not end")
        terminal.read_until_quiet()
        assert terminal.process.wait(timeout=30) == 0
    finally:
        terminal.close()
    return terminal, inputs


OFFER = re.compile(r"^(Accept|Decline) #(\d+)$")


def _decide(shown: str, chooser: random.Random, inputs: Inputs, players: int) -> str | None:
    """His next line for what he reads: an answer to an offer to him, now and then an offer of
    his own while he trades on his turn, else mostly the first choice."""
    listed = choices(shown)
    by_label = {label: number for number, label in listed.items()}
    open_to_him = sorted(
        {
            int(match.group(2))
            for label in listed.values()
            if (match := OFFER.match(label)) and match.group(1) == "Decline"
        }
    )
    if open_to_him:
        offer = open_to_him[0]
        inputs.answers += 1
        accept = by_label.get(f"Accept #{offer}")
        if accept is not None and chooser.random() < 0.5:
            return str(accept)
        return str(by_label[f"Decline #{offer}"])
    if YOUR_MOVE not in shown:
        no_trade = by_label.get("No trade")
        if no_trade is None:
            return None
        inputs.passes += 1
        return str(no_trade)
    trading_on_his_turn = any(label.startswith("End trading") for label in listed.values())
    hand = re.search(r"Your hand \(front first\): (.*)", shown.replace("\n  ", " "))
    cards = len(re.findall(r"\d+\. ", hand.group(1))) if hand else 0
    if trading_on_his_turn and cards and players > 1 and chooser.random() < 0.35:
        inputs.offers += 1
        partner = chooser.randint(2, players)
        given = " ".join(str(n) for n in sorted(chooser.sample(range(1, cards + 1), 1)))
        return f"offer {partner} {given}"
    count = max(listed, default=1)
    return "1" if chooser.random() < 0.7 else str(chooser.randint(1, count))


def stored_game(home: Path) -> list[tuple[int | None, Action | None, list[Event]]]:
    """The one game in the person's store, action by action with its events."""
    store = open_store(str(home / "bohnanza" / "games.db"))
    try:
        (summary,) = store.list_games()
        record = store.load_record(summary.game_id)
    finally:
        store.close()
    return [(index, action, list(events)) for _, index, action, events in replay_steps(record)]


@dataclass
class OfferFate:
    proposed: TradeProposed
    outcome: str = "open"
    answered_first: bool = False
    """The person took an action of his between the offer and its end."""


def offers_to_the_person(
    steps: list[tuple[int | None, Action | None, list[Event]]], seat: int = 0
) -> dict[int, OfferFate]:
    """Every offer the bots made to the person, with how it ended and whether he acted
    before it did."""
    fates: dict[int, OfferFate] = {}
    for _, action, events in steps:
        if action is not None and action.player == seat:
            for fate in fates.values():
                if fate.outcome == "open":
                    fate.answered_first = True
        for event in events:
            if isinstance(event, TradeProposed) and event.offer.receiver == seat:
                fates[event.offer.id] = OfferFate(event)
            elif isinstance(event, TradeClosed | TradeAccepted) and event.offer.id in fates:
                fate = fates[event.offer.id]
                fate.outcome = event.reason if isinstance(event, TradeClosed) else "accepted"
    return fates


def withdrawn_before_he_acted(fates: dict[int, OfferFate]) -> list[int]:
    return [
        number
        for number, fate in fates.items()
        if fate.outcome == "withdrawn" and not fate.answered_first
    ]


def bean_names(tr: Translator) -> list[str]:
    """Every bean's name and short name in a language, longest first."""
    names = {bean_name(tr, v) for v in VARIETIES} | {short_bean(tr, v) for v in VARIETIES}
    return sorted(names, key=len, reverse=True)


def broken_lines(lines: list[str], columns: int, beans: list[str]) -> list[str]:
    """The places where a line was broken inside a bean's name, a numbered card ('4. Cocoa
    Bean'), a planting ('Blue → 3') or a choice ('[3] …') that would have fit on one line."""
    bean = "|".join(re.escape(name) for name in beans)
    units = re.compile(rf"\[\d+\]|\d+\. (?:{bean})|(?:{bean}) x\d+|\S+ → \d+|{bean}")
    broken: list[str] = []
    for index, line in enumerate(lines[:-1]):
        following = lines[index + 1]
        if not line.strip() or not following.startswith("  ") or following.startswith("  #"):
            continue
        joined = f"{line.rstrip()} {following.strip()}"
        cut = len(line.rstrip())
        inside = any(unit.start() < cut < unit.end() for unit in units.finditer(joined))
        choice = re.search(r"(?:^|\s{3})(\[\d+\] .*)$", line)
        fits = choice and cell_len(f"{choice.group(1).rstrip()} {following.strip()}") <= columns
        if inside or fits:
            broken.append(f"{line.rstrip()} / {following.strip()}")
    return broken
