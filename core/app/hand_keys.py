"""What a seat's private message was made from, kept per seat in the game's chat state: the
message is renewed when what it would now be made from differs (`updates.hand_key`). A value,
kept as its text (`a1b2c3|[1, 2] (3, (1,)) ask harvest 2`; `away 4` for a seat a stand-in
plays)."""

from __future__ import annotations

import re
from typing import NamedTuple

from ..legal import TradingMoment
from .seat_screen import Screen


class HandKey(NamedTuple):
    """A private message showing the game: the seat's moves (its token, with a digest of the
    face-up and offered cards where there are any), the open offers it shows, the seat's pass
    on trading and its screen."""

    token: str
    offers: tuple[int, ...]
    passed: TradingMoment | None
    screen: Screen | None

    def same_but_moves(self, other: ShownHand | None) -> bool:
        """Whether `other` shows what this does but for the seat's moves."""
        return isinstance(other, HandKey) and other[1:] == self[1:]


class AwayKey(NamedTuple):
    """A word to a player away that his turn came, which a stand-in plays."""

    turn: int


ShownHand = HandKey | AwayKey
"""What a seat's private message was made from."""


def hand_text(key: ShownHand) -> str:
    """The key as the chat state keeps it."""
    if isinstance(key, AwayKey):
        return f"away {key.turn}"
    screen = None if key.screen is None else key.screen.text
    return f"{key.token}|{list(key.offers)} {key.passed} {screen}"


_AWAY = re.compile(r"away (\d+)")
_HAND = re.compile(r"([^|]*)\|\[([\d, ]*)\] (None|\((\d+), \(([\d, ]*)\)\)) (.*)", re.DOTALL)


def read_hand(text: object) -> ShownHand | None:
    """A key as the chat state kept it; None for anything else."""
    if not isinstance(text, str):
        return None
    away = _AWAY.fullmatch(text)
    if away is not None:
        return AwayKey(int(away[1]))
    hand = _HAND.fullmatch(text)
    if hand is None:
        return None
    token, offers, passed, seat, passed_offers, screen = hand.groups()
    moment = None if passed == "None" else (int(seat), _numbers(passed_offers))
    key = HandKey(token, _numbers(offers), moment, Screen.read(screen))
    # Read back only what is written the same way again.
    return key if hand_text(key) == text else None


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(number) for number in text.replace(",", " ").split())
