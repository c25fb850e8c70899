"""Bean varieties, the beanometer, and card identities.

Every card in the box has a fixed id from 0 to 153. Ids are grouped by variety in the order of
the rulebook's frequency table (Coffee 0-23, Wax 24-45, ...), so a card's variety never needs to
be stored beside it.

>>> Variety.STINK.coins_for(7)
3
>>> variety_of(0).name
'COFFEE'
"""

from __future__ import annotations

from enum import Enum

Card = int
"""A card's identity: an int from 0 to 153."""


class Variety(Enum):
    """The eleven bean varieties, most common first; the value is the variety's short code."""

    COFFEE = "coffee"
    WAX = "wax"
    BLUE = "blue"
    CHILI = "chili"
    STINK = "stink"
    GREEN = "green"
    SOY = "soy"
    BLACK_EYED = "black-eyed"
    RED = "red"
    GARDEN = "garden"
    COCOA = "cocoa"

    # Each variety is one object: hashing it by identity, in C, gives the same sets and dicts as
    # Enum's hash of the name (a Python call), for the lookups by variety on every decision.
    __hash__ = object.__hash__

    @property
    def count(self) -> int:
        """How many cards of this variety the box holds."""
        return _COUNTS[self]

    @property
    def beanometer(self) -> tuple[int | None, int | None, int | None, int | None]:
        """Cards needed for 1, 2, 3 and 4 coins (None where the card shows no such step)."""
        return _BEANOMETER[self]

    def coins_for(self, cards: int) -> int:
        """The coins earned by selling `cards` beans of this variety at once."""
        return _COIN_TABLE[self][min(cards, len(_COIN_TABLE[self]) - 1)]

    @property
    def title(self) -> str:
        """The English name, as printed on the card."""
        return _TITLES[self]


_COUNTS = {
    Variety.COFFEE: 24,
    Variety.WAX: 22,
    Variety.BLUE: 20,
    Variety.CHILI: 18,
    Variety.STINK: 16,
    Variety.GREEN: 14,
    Variety.SOY: 12,
    Variety.BLACK_EYED: 10,
    Variety.RED: 8,
    Variety.GARDEN: 6,
    Variety.COCOA: 4,
}

_BEANOMETER: dict[Variety, tuple[int | None, int | None, int | None, int | None]] = {
    Variety.COFFEE: (4, 7, 10, 12),
    Variety.WAX: (4, 7, 9, 11),
    Variety.BLUE: (4, 6, 8, 10),
    Variety.CHILI: (3, 6, 8, 9),
    Variety.STINK: (3, 5, 7, 8),
    Variety.GREEN: (3, 5, 6, 7),
    Variety.SOY: (2, 4, 6, 7),
    Variety.BLACK_EYED: (2, 4, 5, 6),
    Variety.RED: (2, 3, 4, 5),
    Variety.GARDEN: (None, 2, 3, None),
    Variety.COCOA: (None, 2, 3, 4),
}

_TITLES = {
    Variety.COFFEE: "Coffee Bean",
    Variety.WAX: "Wax Bean",
    Variety.BLUE: "Blue Bean",
    Variety.CHILI: "Chili Bean",
    Variety.STINK: "Stink Bean",
    Variety.GREEN: "Green Bean",
    Variety.SOY: "Soy Bean",
    Variety.BLACK_EYED: "Black-eyed Bean",
    Variety.RED: "Red Bean",
    Variety.GARDEN: "Garden Bean",
    Variety.COCOA: "Cocoa Bean",
}


def _coin_table(steps: tuple[int | None, ...], count: int) -> tuple[int, ...]:
    """coins[n] for n = 0 .. count: the highest step whose card number n reaches."""
    table = []
    for n in range(count + 1):
        coins = 0
        for value, needed in enumerate(steps, start=1):
            if needed is not None and n >= needed:
                coins = value
        table.append(coins)
    return tuple(table)


_COIN_TABLE = {v: _coin_table(_BEANOMETER[v], _COUNTS[v]) for v in Variety}

VARIETIES: tuple[Variety, ...] = tuple(Variety)
COINS: dict[Variety, tuple[int, ...]] = _COIN_TABLE
"""`COINS[variety][n]`: the coins n beans of a variety sell for, n up to its count (what
`coins_for` answers, looked up without a call, for the hot paths)."""
RANK: dict[Variety, int] = {variety: rank for rank, variety in enumerate(VARIETIES)}
"""Each variety's place in `VARIETIES`: a key that sorts varieties faster than their names."""
CARD_COUNT = sum(_COUNTS.values())

_CARD_VARIETY: tuple[Variety, ...] = tuple(v for v in VARIETIES for _ in range(v.count))
_FIRST_CARD = {v: _CARD_VARIETY.index(v) for v in VARIETIES}


def variety_of(card: Card) -> Variety:
    """The variety of a card id."""
    return _CARD_VARIETY[card]


def cards_of(variety: Variety) -> range:
    """The ids of every card of one variety."""
    first = _FIRST_CARD[variety]
    return range(first, first + variety.count)


def parse_variety(text: str) -> Variety:
    """A variety from its code or English name, in any case ("red", "Red Bean", "BLACK_EYED")."""
    key = text.strip().lower().replace("_", "-").removesuffix(" bean").removesuffix(" beans")
    key = key.replace(" ", "-")
    for variety in VARIETIES:
        if key in (variety.value, variety.name.lower().replace("_", "-")):
            return variety
    raise ValueError(f"unknown bean variety: {text!r}")
