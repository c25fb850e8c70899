"""What the runner does for a platform's limits: messages split to fit, lines sent at a pace.

A message longer than a platform takes is sent as several, split between lines, a line too long
for a line-based platform is wrapped between words: a table or a hand is never cut. On a
platform that limits how fast the bot may send on its connection (IRC's flood limit), every
line waits for its share of a budget common to all chats, the most urgent first (an answer to
the player who wrote, then what a player must decide, then the tables, then the rest).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from dataclasses import replace

from bohnanza.core.app.messages import GamePage, Message, Outbound, Reply, ToPlayer, ToRoom
from bohnanza.core.app.ports import Capabilities

ANSWER, DECISION, TABLE, VIEW, FILE = range(5)
"""Priorities of outgoing messages, the most urgent first."""


def priority_of(item: Outbound) -> int:
    """How urgent a message is: answers, then decisions due, tables, other views, files."""
    if isinstance(item, Reply):
        return ANSWER
    if isinstance(item, ToPlayer):
        return DECISION if item.message.alert else VIEW
    if isinstance(item, ToRoom):
        return TABLE
    if isinstance(item, GamePage):
        return FILE
    return VIEW


def lines_per_message(caps: Capabilities) -> int:
    """The most lines one message may hold: the platform's limit, and no more than may go at
    once on a paced connection (0: any)."""
    limits = [n for n in (caps.max_lines, caps.line_burst if caps.line_pace > 0 else 0) if n > 0]
    return min(limits, default=0)


def wrap_line(line: str, max_bytes: int, max_chars: int) -> list[str]:
    """A line as pieces of at most `max_bytes` UTF-8 bytes (0: any) and `max_chars`
    characters, broken between words where it can be, inside a word where it must."""

    def fits(text: str) -> bool:
        return len(text) <= max_chars and (not max_bytes or len(text.encode()) <= max_bytes)

    if fits(line):
        return [line]
    pieces: list[str] = []
    current = ""
    for word in line.split(" "):
        candidate = f"{current} {word}" if current else word
        if fits(candidate):
            current = candidate
            continue
        if current:
            pieces.append(current)
        current = ""
        while not fits(word):
            cut = _longest_fitting(word, fits)
            pieces.append(word[:cut])
            word = word[cut:]
        current = word
    if current:
        pieces.append(current)
    return pieces


def _longest_fitting(word: str, fits: Callable[[str], bool]) -> int:
    cut = 1
    while cut < len(word) and fits(word[: cut + 1]):
        cut += 1
    return cut


PACKED = " // "
"""What separates two lines packed into one, where lines cost."""


def packed(lines: list[str], max_bytes: int) -> list[str]:
    """Consecutive lines joined into as few as fit `max_bytes` UTF-8 bytes each (blank
    lines dropped); a line too long alone stays as it is (to be wrapped)."""
    out: list[str] = []
    for line in (line.strip() for line in lines):
        if not line:
            continue
        joined = f"{out[-1]}{PACKED}{line}" if out else line
        if out and len(joined.encode()) <= max_bytes:
            out[-1] = joined
        else:
            out.append(line)
    return out


def split_message(message: Message, caps: Capabilities) -> list[Message]:
    """The message as parts that each fit the platform (where lines cost, its lines packed
    first); the buttons and the alert go with the last part. A message split or packed loses
    its HTML (the parts are plain text)."""
    max_chars = max(1, caps.max_text)
    per_message = lines_per_message(caps)
    source = message.text.split("\n")
    if caps.compact and caps.line_bytes:
        source = packed(source, caps.line_bytes)
        if source != message.text.split("\n"):
            message = replace(message, text="\n".join(source), html=None)
    lines = [piece for line in source for piece in wrap_line(line, caps.line_bytes, max_chars)]
    if (
        len(message.text) <= max_chars
        and (not per_message or len(lines) <= per_message)
        and len(lines) == message.text.count("\n") + 1
    ):
        return [message]
    chunks: list[list[str]] = [[]]
    for line in lines:
        chunk = chunks[-1]
        size = sum(len(x) + 1 for x in chunk) + len(line)
        if chunk and (size > max_chars or (per_message and len(chunk) >= per_message)):
            chunks.append([])
        chunks[-1].append(line)
    parts = [Message("\n".join(chunk)) for chunk in chunks]
    parts[-1] = replace(parts[-1], buttons=message.buttons, alert=message.alert)
    return parts


class LineBudget:
    """The lines a connection may send: `burst` at once, then one per `pace` seconds; who
    waits is served most urgent first, in order of arrival among equals."""

    def __init__(self, pace: float, burst: int, clock: Callable[[], float] | None = None) -> None:
        self.pace = pace
        self.burst = max(1, burst)
        self._clock = clock
        self._tokens = float(self.burst)
        self._updated: float | None = None
        self._queue: list[tuple[int, int]] = []
        self._order = itertools.count()
        self._changed = asyncio.Event()
        self.lines = 0
        """Lines taken so far."""

    def _now(self) -> float:
        return self._clock() if self._clock else asyncio.get_running_loop().time()

    def _refill(self) -> None:
        now = self._now()
        if self._updated is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._updated) / self.pace)
        self._updated = now

    async def take(self, lines: int, priority: int) -> None:
        """Wait until `lines` lines may be sent (at most `burst` are asked for at once)."""
        self.lines += lines
        if self.pace <= 0:
            return
        need = min(max(1, lines), self.burst)
        ticket = (priority, next(self._order))
        heapq.heappush(self._queue, ticket)
        try:
            while True:
                if self._queue[0] == ticket:
                    self._refill()
                    if self._tokens >= need:
                        self._tokens -= need
                        return
                    await asyncio.sleep((need - self._tokens) * self.pace)
                else:
                    self._changed.clear()
                    await self._changed.wait()
        finally:
            self._queue.remove(ticket)
            heapq.heapify(self._queue)
            self._changed.set()
