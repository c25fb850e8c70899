"""IRC lines, read and written: pure functions, no I/O.

Everything written is made safe first: a nick, a channel or a message holds no CR, LF or NUL
once it is on its way, so no text a player chose can end a line early or add a command, and no
line is longer than the 512 bytes (CR LF included) the protocol allows.
"""

from __future__ import annotations

import base64
from typing import NamedTuple

MAX_LINE = 510
"""Bytes of a line before its CR LF."""
_FOLD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ[]\\~", "abcdefghijklmnopqrstuvwxyz{}|^")
_UNSAFE = str.maketrans("", "", "\r\n\0")


class Line(NamedTuple):
    """One line from the server: its command, parameters and source (`nick!user@host`)."""

    command: str
    params: list[str]
    nick: str = ""


def parse(raw: str) -> Line:
    """A line as the server sent it (message tags are skipped: none is needed)."""
    text, source = raw.rstrip("\r\n"), ""
    if text.startswith("@"):
        text = text.partition(" ")[2]
    if text.startswith(":"):
        source, _, text = text[1:].partition(" ")
    text, sep, trailing = text.partition(" :")
    words = text.split()
    params = words[1:] + [trailing] * bool(sep)
    return Line(words[0].upper() if words else "", params, source.split("!")[0])


def encode(*params: str) -> bytes:
    """A command and its parameters as one line, made safe (see above); only the last
    parameter may hold spaces, and it may be empty."""
    *middle, last = [p.translate(_UNSAFE) for p in params]
    words = [w.replace(" ", "") or "*" for w in middle] + [f":{last}" if middle else last]
    return " ".join(words).encode()[:MAX_LINE].decode(errors="ignore").encode() + b"\r\n"


def casefold(name: str) -> str:
    """A nick or channel by IRC's case rules (rfc1459): `Ann[1]` and `ann{1}` are one."""
    return name.translate(_FOLD)


def is_channel(target: str) -> bool:
    return target[:1] in "#&+!" and bool(target)


def sasl_plain(user: str, password: str) -> list[str]:
    """The AUTHENTICATE arguments of a SASL PLAIN login: base64 in 400-byte pieces, and `+`
    after a last piece of exactly 400."""
    data = base64.b64encode(f"{user}\0{user}\0{password}".encode()).decode()
    pieces = [data[i : i + 400] for i in range(0, len(data), 400)]
    return [*pieces, "+"] if len(pieces[-1]) == 400 else pieces
