"""Typed lines from standard input, read where a Ctrl-C cannot leave the exit stuck; and
whether standard output is still read.

The console reads each line in a thread of its own, so that Ctrl-C stops the game at once; that
thread is still waiting for a line when the program ends. `input()` from a pipe waits inside the
buffered `sys.stdin`, holding its lock, and the interpreter's shutdown, which needs that lock,
then aborts ("could not acquire lock ... at interpreter shutdown"). Lines from a pipe or a file
are therefore read straight from the file descriptor, which holds nothing of Python's; a
terminal keeps `input()` (the C library reads it, outside `sys.stdin`'s lock).
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable

CHUNK = 4096


class DescriptorLines:
    """Lines read from a file descriptor, decoded as UTF-8 (bytes that are not UTF-8 read as
    replacement characters), without their line end, as `input()` gives them; EOFError once
    the descriptor is at its end and every line was given."""

    def __init__(self, descriptor: int) -> None:
        self._descriptor = descriptor
        self._pending = b""
        self._ended = False

    def __call__(self) -> str:
        while b"\n" not in self._pending and not self._ended:
            chunk = os.read(self._descriptor, CHUNK)
            if chunk:
                self._pending += chunk
            else:
                self._ended = True
        if not self._pending:
            raise EOFError
        line, newline, self._pending = self._pending.partition(b"\n")
        if not newline:
            self._pending = b""
        return line.removesuffix(b"\r").decode("utf-8", errors="replace")


def stdin_lines() -> Callable[[], str]:
    """How the console reads typed lines: `input()` at a terminal, else from the descriptor."""
    try:
        if sys.stdin.isatty():
            return input
        return DescriptorLines(sys.stdin.fileno())
    except (AttributeError, ValueError, OSError):  # no usable stdin: let input() say so
        return input


def line_waiting() -> Callable[[], bool]:
    """Whether a typed line already waits to be read, at a terminal: typed before the game
    asked for it (a line from a pipe or a file is never taken for one typed too soon)."""
    try:
        descriptor = sys.stdin.fileno()
        if not sys.stdin.isatty():
            return lambda: False
    except (AttributeError, ValueError, OSError):
        return lambda: False

    def waiting() -> bool:
        try:
            return bool(select.select([descriptor], [], [], 0)[0])
        except (OSError, ValueError):
            return False

    return waiting


def closed_output() -> Callable[[], bool]:
    """Whether standard output's reader has gone (`bohnanza play | head -1`): the game stops
    then, rather than wait for a line nobody will read the answer to. A terminal or a file
    never closes this way."""
    try:
        descriptor = sys.stdout.fileno()
        if sys.stdout.isatty() or not hasattr(select, "poll"):
            return lambda: False
    except (AttributeError, ValueError, OSError):
        return lambda: False
    watch = select.poll()
    watch.register(descriptor, select.POLLOUT)

    def gone() -> bool:
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in watch.poll(0))

    return gone
