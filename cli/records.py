"""Reading, writing and storing game records for the CLI, with one-line errors."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from bohnanza.core.audit import CheckedRecord
from bohnanza.core.errors import RecordError
from bohnanza.core.ports import GameStore, NewGame, SeatIdentity, StoredAction
from bohnanza.core.record import GameRecord

from .errors import fail

MAX_RECORD_BYTES = 64 * 1024 * 1024


def read_record(path: Path) -> GameRecord:
    """Load and check the shape of a record file, or exit with a one-line error."""
    try:
        if path.stat().st_size > MAX_RECORD_BYTES:
            fail(f"{path}: too large to be a game record")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        fail(f"{path}: no such file")
    except IsADirectoryError:
        fail(f"{path}: is a directory, not a record file")
    except UnicodeDecodeError:
        fail(f"{path}: not a text file")
    except OSError as error:
        fail(f"{path}: {error.strerror}")
    try:
        return GameRecord.loads(text)
    except RecordError as error:
        fail(f"{path}: {error}")


def write_record(record: GameRecord, path: Path) -> None:
    """Write a record file whole or not at all (a temporary file, then a rename)."""
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".tmp", dir=path.parent if path.parent.parts else "."
        )
    except OSError as error:
        fail(f"{path}: {error.strerror}")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(record.dumps())
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        fail(f"{path}: {error.strerror}")


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
