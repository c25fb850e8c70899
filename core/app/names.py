"""The names players sit at a table under: the one place a name is cleaned and checked.

Every way a name reaches a seat goes through `seat_name`: joining a lobby, the game's start,
a seat claimed or moved, a platform's rename, a move read back from the store. A name is shown
in the room's table line by line, in plain text and HTML, and typed back in commands (`offer
ann 1`), so:

- what a platform lets a display name hold that no one can see or that rearranges a line
  (control characters, line breaks, bidi overrides and isolates, zero-width and other
  invisible characters, a pile of combining marks) is dropped, and white space is one space;
- it is at most `MAX_NAME` characters;
- it is unique at its table without regard to case or width (`name_key`): a second "Ann"
  or "ANN" sits as "Ann (2)";
- it does not begin with a number, which a command reads as a seat (`offer 2 1`): "2 Fast"
  sits as "#2 Fast".

>>> clean_name("Ann\\u202e\\nTurn: ANN\\u200b must\\tpay")
'Ann Turn: ANN must pay'
>>> seat_name("ANN", ["Bob", "ann"])
'ANN (2)'
>>> seat_name("", ["Bob"], fallback="42")
'#42'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

MAX_NAME = 32
"""The longest name a seat is shown under, in characters."""
MAX_MARKS = 2
"""Combining marks kept on one letter (enough for every script's accents)."""

_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories never shown in a name: controls, format characters (bidi, zero-width),
surrogates, private use, unassigned, line and paragraph separators."""
_INVISIBLE = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xE0100, 0xE01EF),
)
"""Default-ignorable and blank characters outside those categories (grapheme joiner, Hangul
fillers, variation selectors, the blank braille cell): they show nothing."""


def _invisible(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in _INVISIBLE)


def clean_name(raw: str) -> str:
    """A display name as a table line can show it: no invisible or line-breaking characters,
    one space between words, at most `MAX_NAME` characters (possibly empty)."""
    kept: list[str] = []
    marks = 0
    for ch in raw:
        category = unicodedata.category(ch)
        if ch.isspace() or category == "Zs":
            ch, category = " ", "Zs"  # a line break parts words, as a space does
        elif category in _DROPPED or _invisible(ch):
            continue
        if category in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS or not kept or kept[-1] == " ":
                continue
        else:
            marks = 0
        kept.append(ch)
    return " ".join("".join(kept).split())[:MAX_NAME].rstrip()


def name_key(name: str) -> str:
    """What makes two names the same at a table: case and width do not count ("ANN", "ann"
    and "Ann" written in full-width letters are one name)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def seat_name(raw: str, others: Iterable[str], fallback: str = "") -> str:
    """The name a seat is shown under: `raw` cleaned (else `fallback` cleaned, else "Player"),
    made unique among the `others` at the table with a number in brackets."""
    name = clean_name(raw) or clean_name(fallback) or "Player"
    if name.split()[0].isdigit():
        name = clean_name("#" + name)
    taken = {name_key(other) for other in others}
    if name_key(name) not in taken:
        return name
    number = 2
    while True:
        suffix = f" ({number})"
        candidate = name[: MAX_NAME - len(suffix)].rstrip() + suffix
        if name_key(candidate) not in taken:
            return candidate
        number += 1


def seat_names(names: Iterable[str]) -> list[str]:
    """The names of a table's seats in order, each cleaned and unique among those before it."""
    out: list[str] = []
    for name in names:
        out.append(seat_name(name, out))
    return out
