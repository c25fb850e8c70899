"""What a typed number answers where choices are numbered lines: the choice its player saw.

A player's list of choices can change under him: another's move renumbers it while he reads
it, or it changed without being sent to him (where lines cost), or the bot was restarted. Each
seat keeps, for every number, the choice it stood for in each list he was sent since his own
last input (a short digest of its label and command), or None where those lists differ: a
number is taken only while the list as it stands is the one he was last sent and the number
meant that same choice in every list he may be reading. Otherwise he gets the list as it
stands, and nothing is done.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from .messages import Message

Choices = list[str | None]
"""By number (from 1, at index 0): the digest of the choice it stood for, or None where the
lists a player may be reading disagree."""


def choice_digest(label: str, payload: str) -> str:
    """A short digest of one choice: its label and its command (a game button's payload
    without the moment it was made for, which changes with every move of anyone)."""
    words = payload.split(maxsplit=3)
    command = words[3] if len(words) == 4 and words[0] == "g" else payload
    text = f"{label}\x1f{command}"
    return hashlib.blake2s(text.encode(), digest_size=4).hexdigest()


def message_choices(message: Message) -> list[str]:
    """The digests of a message's buttons, in the order they are numbered."""
    return [choice_digest(b.label, b.payload) for row in message.buttons for b in row]


def next_choices(before: Choices | None, shown: Sequence[str], own: bool) -> Choices:
    """What each number stands for once a list with the choices `shown` was sent: the new
    list alone when it answers the player's own input (he reads the answer to what he did),
    else only what it shares, number for number, with the lists sent before it (`before`
    None: what he was sent before is not known, so nothing is shared)."""
    if own:
        return list(shown)
    if before is None:
        return [None] * len(shown)
    merged: Choices = []
    for index, digest in enumerate(shown):
        earlier = before[index] if index < len(before) else digest
        merged.append(digest if earlier == digest else None)
    return merged


def answered(choices: Choices | None, shown: Sequence[str], number: int) -> bool:
    """Whether `number` means, in the list as it stands (`shown`), the choice it meant in
    every list the player may be reading."""
    if choices is None or not 1 <= number <= min(len(choices), len(shown)):
        return False
    return choices[number - 1] == shown[number - 1]


def stored_choices(value: object) -> Choices | None:
    """Choices as kept in the chat state (anything else: not known, so a number is refused
    until the player is sent his list again)."""
    if not isinstance(value, list):
        return None
    return [item if isinstance(item, str) else None for item in value]
