"""Players named in typed commands: `offer ann f1` is `offer 2 f1` at a table where Ann has
seat 2. A name is matched without regard to case (`names.name_key`), whole or by a prefix that
fits one other player alone; a seat number stays as it is.

A typed command is never read two ways. Names may have spaces and end in a number ("Ann 2"),
and the cards of an offer are numbers too: where the words could name one player with some
cards as well as another reading of player and cards, nothing is guessed, and the player is
told to write the seat's number.

>>> seat_numbers("offer ann f1 for soy", ["Bob", "Ann Lee", "Annika"], seat=0)
'offer 2 f1 for soy'
>>> seat_numbers("offer anni 3", ["Bob", "Ann Lee", "Annika"], seat=0)
'offer 3 3'
>>> try:
...     seat_numbers("offer ann 2 1", ["Bob", "Ann", "Ann 2"], seat=0)
... except TwoReadings as refused:
...     print(refused.params["first"], "/", refused.params["second"])
offer 3 1 / offer 2 2 1
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import IllegalActionError
from .names import name_key

NAMING: dict[str, int] = {"offer": 1}
"""The commands that name a player, and the place of the name among their words."""
_CARD_WORD = re.compile(r"(?:f?\d+|for)", re.IGNORECASE)
"""A word that may follow a player's name in an offer: a card ('3', 'f1') or 'for'."""


class TwoReadings(IllegalActionError):
    """Typed words that name a player with his cards in two ways; `params` holds the command
    as typed and each reading written with the seat's number, for the refusal."""

    def __init__(self, typed: str, readings: list[tuple[str, str]]) -> None:
        (first, first_name), (second, second_name) = readings[:2]
        super().__init__(
            "two-readings",
            f"{typed!r} can be read two ways: {first!r} ({first_name}) or {second!r} "
            f"({second_name}).",
        )
        self.params = {
            "typed": typed,
            "first": first,
            "first_name": first_name,
            "second": second,
            "second_name": second_name,
        }


def seat_numbers(command: str, names: Sequence[str], seat: int) -> str:
    """`command` with the player it names (if any) as his seat number, counted from 1;
    IllegalActionError ("no-such-player", "ambiguous-player") when no player, or several
    players other than the one who types (`seat`), answer to it; `TwoReadings` when the
    words name a player and cards in more than one way."""
    words = command.split()
    place = NAMING.get(words[0].lower()) if words else None
    if place is None or len(words) <= place or words[place].isdigit():
        return command
    readings = _named(words[place:], names, seat)

    def written(reading: tuple[int, int]) -> str:
        taken, found = reading
        return " ".join([*words[:place], str(found + 1), *words[place + taken :]])

    if len(readings) > 1:
        raise TwoReadings(" ".join(words), [(written(r), names[r[1]]) for r in readings])
    return written(readings[0])


def _named(words: list[str], names: Sequence[str], seat: int) -> list[tuple[int, int]]:
    """The ways `words` name a player: how many of them, and his seat. A whole name (the
    longest first: names may have spaces), else the one other player whose first name is the
    word, or whose name begins with it; of several, those that leave words an offer can go on
    with (cards, 'for'), other players than the one who types. None at all is refused."""
    keys = [name_key(name) for name in names]
    readings: list[tuple[int, int]] = []
    for count in range(len(words), 0, -1):
        said = name_key(" ".join(words[:count]))
        whole = [i for i, key in enumerate(keys) if key == said]
        if whole:
            readings.append((count, _one_other(whole, seat, words[0])))
    if not any(count == 1 and found != seat for count, found in readings):
        fits = _prefixed(words[0], keys, seat)
        if len(fits) == 1:
            readings.append((1, fits[0]))
        elif not readings:
            if not fits:
                raise IllegalActionError("no-such-player", f"No player is called {words[0]!r}.")
            raise IllegalActionError(
                "ambiguous-player", f"Several players' names begin {words[0]!r}."
            )
    goes_on = [r for r in readings if r[0] == len(words) or _CARD_WORD.fullmatch(words[r[0]])]
    # Nobody offers to himself: a reading that names the one who types gives way.
    goes_on = [r for r in goes_on if r[1] != seat] or goes_on
    return goes_on if len(goes_on) > 1 else (goes_on or readings)[:1]


def _one_other(seats: list[int], seat: int, word: str) -> int:
    """Of the seats answering to a whole name, the one other player's (names are unique at a
    table; one seated before they were may hold two alike, and is refused)."""
    others = [s for s in seats if s != seat]
    if len(others) > 1:
        raise IllegalActionError("ambiguous-player", f"Several players are called {word!r}.")
    return others[0] if others else seats[0]


def _prefixed(word: str, keys: list[str], seat: int) -> list[int]:
    """The other players whose first name is `word`, else those whose name begins with it."""
    said = name_key(word)
    fits = [i for i, key in enumerate(keys) if i != seat and key.split()[:1] == [said]]
    if len(fits) != 1:
        fits = [i for i, key in enumerate(keys) if i != seat and key.startswith(said)]
    return fits
