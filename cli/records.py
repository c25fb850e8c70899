"""Reading, writing and storing game records for the CLI, with one-line errors."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from bohnanza.core.audit import CheckedRecord
from bohnanza.core.errors import RecordError
from bohnanza.core.ports import GameStore, NewGame, SeatIdentity, StoredAction
from bohnanza.core.record import GameRecord

from .errors import fail
from .files import read_bounded, shown, write_atomically

MAX_RECORD_BYTES = 64 * 1024 * 1024


def read_record(path: Path) -> GameRecord:
    """Load and check the shape of a record file (or '-', standard input), or exit with a
    one-line error; no more than MAX_RECORD_BYTES + 1 bytes are ever read."""
    data = read_bounded(path, MAX_RECORD_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        fail(f"{shown(path)}: not a text file (not UTF-8 at byte {error.start})")
    try:
        return GameRecord.loads(text)
    except RecordError as error:
        fail(f"{shown(path)}: {error}")


def write_record(record: GameRecord, path: Path, force: bool = False) -> None:
    """Write a record file whole or not at all; an existing file only with `force`."""
    write_atomically(path, record.dumps(), force)


def record_identities(record: GameRecord, platform: str) -> tuple[SeatIdentity, ...]:
    """Seat identities for a record's seats, which name players but no platform accounts."""
    return tuple(
        SeatIdentity(
            platform="bot" if seat.kind == "bot" else platform,
            user_id=seat.name,
            name=seat.name,
            kind=seat.kind,
            strategy=seat.strategy,
        )
        for seat in record.seats
    )


def store_record(
    store: GameStore,
    record: GameRecord,
    checked: CheckedRecord,
    game_id: str,
    seats: Sequence[SeatIdentity],
    at: datetime,
) -> None:
    """Store a record that passed `check_record`, whole, in one transaction."""
    actions = [
        StoredAction(seq, action, at, checked.reshuffles[seq])
        for seq, action in enumerate(record.actions)
    ]
    game = NewGame(game_id, tuple(seats), record.deck, at, dict(record.options))
    store.add_complete_game(game, actions, checked.result)
