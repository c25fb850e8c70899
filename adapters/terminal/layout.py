"""Text fit to the terminal's width: lines wrapped between words, choices laid out in columns.

A terminal breaks a line too long for it wherever the width ends, in the middle of a word or a
choice. Here every line is wrapped before it is printed, measured in the cells a terminal gives
each character (a bean's emoji takes two), and a line's continuation is indented under it. The
numbered choices go into as many columns as fit, never broken inside one; a choice wider than
the terminal gets a line (and its continuations) of its own.
"""

from __future__ import annotations

import io
import shlex
import shutil
import sys
from collections.abc import Sequence

from rich.cells import cell_len
from rich.columns import Columns
from rich.console import Console
from rich.text import Text

MIN_WIDTH = 40
"""The narrowest terminal laid out for; a narrower one gets lines of this width."""
CONTINUED = "  "
"""Before the continuation of a wrapped line."""
GAP = 3
"""Between two columns of choices."""


UNBOUNDED = 1_000_000
"""The width of output that goes to no terminal (a pipe, a file): lines are left whole."""


def terminal_width() -> int:
    """The terminal's width now (it may have been resized); output to a pipe or a file is
    read by programs too, and is never wrapped."""
    try:
        at_terminal = sys.stdout.isatty()
    except (AttributeError, ValueError):
        at_terminal = False
    if not at_terminal:
        return UNBOUNDED
    return max(MIN_WIDTH, shutil.get_terminal_size((80, 24)).columns)


def command_lines(line: str, program: str, width: int) -> list[str]:
    """A line that tells a command to type (`… bohnanza replay DB --game G`): when too wide,
    the command stands on lines of its own, broken between its words with a backslash, so that
    it still runs as pasted into a shell."""
    start = line.find(program + " ")
    if start < 0 or cell_len(line) <= width:
        return wrapped(line, width)
    head, command = line[:start].rstrip(), line[start:].rstrip()
    command = command.removesuffix(".").removesuffix("`")
    head = head.removesuffix("`").rstrip()
    try:
        words = [program, *(shlex.quote(word) for word in shlex.split(command[len(program) :]))]
    except ValueError:  # not a command after all
        return wrapped(line, width)
    lines: list[str] = []
    current = ""
    for word in words:
        joined = f"{current} {word}" if current else word
        if cell_len(CONTINUED + word) + 2 > width:  # a word no line holds: a path, say
            if current:
                lines.append(current + " \\")
            *whole, current = _word_lines(shlex.split(word)[0], width)
            lines += whole
        elif current and cell_len(joined) + 2 > width:
            lines.append(current + " \\")
            current = CONTINUED + word
        else:
            current = joined
    lines.append(current)
    return [*(wrapped(head, width) if head else []), *lines]


def _word_lines(word: str, width: int) -> list[str]:
    """One word of a command too wide for any line, in pieces: a backslash at the end of a line
    joins it to the next in a shell, inside a word too, and quoted pieces side by side make one
    word. The pieces start at the left edge, as an indent would be part of the word."""
    pieces: list[str] = []
    piece = ""
    for character in word:
        if piece and cell_len(shlex.quote(piece + character)) + 1 > width:
            pieces.append(piece)
            piece = ""
        piece += character
    pieces.append(piece)
    return [shlex.quote(p) + "\\" for p in pieces[:-1]] + [shlex.quote(pieces[-1])]


def _console(width: int) -> Console:
    return Console(
        file=io.StringIO(),
        width=width,
        color_system=None,
        force_terminal=False,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=False,
    )


def _printed(renderable: Text | Columns, width: int) -> list[str]:
    console = _console(width)
    console.print(renderable)
    out = console.file
    assert isinstance(out, io.StringIO)
    return [line.rstrip() for line in out.getvalue().rstrip("\n").split("\n")]


def wrapped(line: str, width: int) -> list[str]:
    """One line of text as lines of at most `width` cells, broken between words; a word wider
    than the whole line is broken where it must be."""
    if cell_len(line) <= width:
        return [line]
    lead = line[: len(line) - len(line.lstrip(" "))]
    indent = lead + CONTINUED
    first, *rest = _printed(Text(line.strip()), width - len(lead))
    if not rest:
        return [lead + first]
    tail = _printed(Text(" ".join(part.strip() for part in rest)), width - len(indent))
    return [lead + first, *(indent + part for part in tail)]


def fitted(text: str, width: int, program: str | None = None) -> list[str]:
    """Every line of a text wrapped to `width` cells; a command of `program` kept runnable."""
    if program is None:
        return [part for line in text.split("\n") for part in wrapped(line, width)]
    return [part for line in text.split("\n") for part in command_lines(line, program, width)]


def choices(labels: Sequence[str], width: int, numbers: Sequence[int] = ()) -> list[str]:
    """The numbered choices ('[1] Plant …', by `numbers`, else from 1) in columns as wide as
    the widest, as many as fit; one a line (each wrapped) when two do not fit side by side, or
    where nothing is wrapped."""
    numbers = numbers or range(1, len(labels) + 1)
    items = [f"[{number}] {label}" for number, label in zip(numbers, labels, strict=True)]
    if width >= UNBOUNDED:
        return items  # a pipe or a file: one a line, for the programs that read it
    widest = max((cell_len(item) for item in items), default=0)
    if 2 * widest + GAP > width:
        return [part for item in items for part in wrapped(item, width)]
    # No wider than all of them side by side: a pipe's width is unbounded, and rich lays out
    # every cell of the width it is given.
    width = min(width, len(items) * (widest + GAP))
    columns = Columns(
        [Text(item, no_wrap=True) for item in items],
        padding=(0, GAP, 0, 0),
        equal=True,
        column_first=True,
        width=widest,
    )
    return _printed(columns, width)
