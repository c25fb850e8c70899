"""Games to store in tests: bot games as records, and the same split into stored actions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import cache

from bohnanza.cli.simulate import simulate_game
from bohnanza.core.audit import check_record
from bohnanza.core.ports import NewGame, SeatIdentity, StoredAction
from bohnanza.core.record import GameRecord

START = datetime(2024, 5, 1, 18, 30, tzinfo=UTC)


@cache
def bot_game(players: int = 3, seed: int = 1) -> GameRecord:
    """A whole game between random bots."""
    return simulate_game(players, ["random"], seed)


def new_game(record: GameRecord, game_id: str = "g1", at: datetime = START) -> NewGame:
    """The record's game as a new stored game, its seats on a chat platform."""
    seats = tuple(
        SeatIdentity("telegram", f"{1000 + i}", seat.name, seat.kind, seat.strategy)
        for i, seat in enumerate(record.seats)
    )
    return NewGame(game_id, seats, record.deck, at, dict(record.options))


def stored_actions(record: GameRecord) -> list[StoredAction]:
    """The record's actions as stored, each with its reshuffles; the last one with the result."""
    checked = check_record(record)
    last = len(record.actions) - 1
    return [
        StoredAction(
            seq,
            action,
            START + timedelta(seconds=seq),
            checked.reshuffles[seq],
            checked.result if seq == last else None,
        )
        for seq, action in enumerate(record.actions)
    ]
