"""Games to make pages of, and what a page embeds, read back."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from bohnanza.cli.simulate import simulate_game
from bohnanza.core.cards import VARIETIES
from bohnanza.core.events import CardsDrawn
from bohnanza.core.record import GameRecord, SeatRecord, replay_steps

DATA_START = '<script type="application/json" id="game-data">'

HOSTILE_NAMES = (
    "</script><script>alert(1)</script>",
    "<!-- Anna & <b>Bea</b>",
    "Carl \"'\u2028 </SCRIPT >",
)
"""Player names a page must show as written, never as markup."""


def bot_game(players: int, seed: int = 3, strategy: str = "heuristic") -> GameRecord:
    """A complete game played by bots."""
    return simulate_game(players, [strategy], seed)


def renamed(record: GameRecord, names: tuple[str, ...]) -> GameRecord:
    """The same game with other names at the first seats."""
    seats = tuple(
        SeatRecord(names[i]) if i < len(names) else seat for i, seat in enumerate(record.seats)
    )
    return replace(record, seats=seats)


def embedded(page: bytes) -> dict[str, Any]:
    """The data a page embeds, parsed back."""
    text = page.decode("utf-8")
    start = text.index(DATA_START) + len(DATA_START)
    data: dict[str, Any] = json.loads(text[start : text.index("</script>", start)])
    return data


def hands_at_every_moment(record: GameRecord) -> list[list[list[int]]]:
    """Every seat's real hand (variety indexes, front first) after the deal and each action."""
    index = {variety: i for i, variety in enumerate(VARIETIES)}
    return [
        [[index[variety] for variety in game.view(seat).hand] for seat in range(len(record.seats))]
        for game, _, _, _ in replay_steps(record)
    ]


def draws(record: GameRecord) -> list[tuple[int, CardsDrawn]]:
    """Every draw into a hand, with the moment it happened at."""
    return [
        (moment, event)
        for moment, (_, _, _, events) in enumerate(replay_steps(record))
        for event in events
        if isinstance(event, CardsDrawn)
    ]
