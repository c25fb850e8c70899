"""Players named in typed commands: `offer ann f1` is `offer 2 f1` at a table where Ann has
seat 2. A name is matched without regard to case, whole or by a prefix that fits one other
player alone; a seat number stays as it is.

>>> seat_numbers("offer ann f1 for soy", ["Bob", "Ann Lee", "Annika"], seat=0)
'offer 2 f1 for soy'
>>> seat_numbers("offer anni 3", ["Bob", "Ann Lee", "Annika"], seat=0)
'offer 3 3'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import IllegalActionError

NAMING: dict[str, int] = {"offer": 1}
"""The commands that name a player, and the place of the name among their words."""


def seat_numbers(command: str, names: Sequence[str], seat: int) -> str:
    """`command` with the player it names (if any) as his seat number, counted from 1;
    IllegalActionError ("no-such-player", "ambiguous-player") when no player, or several
    players other than the one who types (`seat`), answer to it."""
    words = command.split()
    place = NAMING.get(words[0].lower()) if words else None
    if place is None or len(words) <= place or words[place].isdigit():
        return command
    taken, found = _named(words[place:], names, seat)
    return " ".join([*words[:place], str(found + 1), *words[place + taken :]])


def _named(words: list[str], names: Sequence[str], seat: int) -> tuple[int, int]:
    """How many of `words` name a player, and his seat: a whole name first (the longest that
    fits: names may have spaces), else the one other player whose first name is the word, or
    whose name begins with it."""
    folded = [name.casefold() for name in names]
    for count in range(len(words), 0, -1):
        said = " ".join(words[:count]).casefold()
        if said in folded:
            return count, folded.index(said)
    said = words[0].casefold()
    fits = [i for i, name in enumerate(folded) if i != seat and name.split()[:1] == [said]]
    if len(fits) != 1:
        fits = [i for i, name in enumerate(folded) if i != seat and name.startswith(said)]
    if not fits:
        raise IllegalActionError("no-such-player", f"No player is called {words[0]!r}.")
    if len(fits) > 1:
        raise IllegalActionError("ambiguous-player", f"Several players' names begin {said!r}.")
    return 1, fits[0]
