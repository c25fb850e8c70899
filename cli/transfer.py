"""`bohnanza export` and `bohnanza import`: stored games to and from portable record files.

Export writes the record of one stored game after checking it as an audit would. Import reads a
record file, checks its shape, replays it through the rules with card conservation checked, and
only then stores it, whole, in one transaction; a record that fails any check changes nothing.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from bohnanza.core.audit import audit_game, check_record
from bohnanza.core.errors import RecordError
from bohnanza.core.ports import DuplicateGame
from bohnanza.core.record import GameRecord

from .errors import fail
from .files import check_target, shown
from .records import read_record, record_identities, store_record, write_record
from .stores import DB_HELP, opened_store


def export(
    db: Annotated[str, typer.Argument(help=DB_HELP)],
    game: Annotated[str, typer.Option("--game", help="The stored game to export.")],
    output: Annotated[
        Path,
        typer.Option(
            "--output", "-o", help="The record file to write; '-' writes standard output."
        ),
    ],
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite the output file if it exists.")
    ] = False,
) -> None:
    """Write one stored game as a portable JSON record (docs/game-record.md)."""
    to_stdout = str(output) == "-"
    if not to_stdout:
        check_target(output, force)
    with opened_store(db) as store:
        stored = store.load_stored(game)
        name = store.name
    failure = audit_game(stored)
    if failure is not None:
        fail(f"{name}: {failure}; not exported (see `bohnanza audit`)")
    try:
        record = stored.record()
    except RecordError as error:
        fail(f"{name}: game {game}: {error}")
    if to_stdout:
        typer.echo(record.dumps())
        return
    write_record(record, output, force)
    typer.echo(f"game {game}: {len(record.actions)} action(s) → {shown(output)}")


def record_game_id(record: GameRecord) -> str:
    """The record's own id, or one derived from its content when it has none."""
    if record.game_id is not None:
        return record.game_id
    return "rec-" + hashlib.sha256(record.dumps().encode()).hexdigest()[:12]


def import_(
    file: Annotated[Path, typer.Argument(help="A game record (JSON); '-' reads standard input.")],
    db: Annotated[str, typer.Option(help=f"The store to add it to (created if new). {DB_HELP}")],
) -> None:
    """Check a record fully and add it to a store; a bad record changes nothing."""
    record = read_record(file)
    try:
        checked = check_record(record)
    except RecordError as error:
        fail(f"{shown(file)}: {error}; nothing imported")
    game_id = record_game_id(record)
    identities = record_identities(record, "record")
    with opened_store(db, create=True) as store:
        try:
            store_record(store, record, checked, game_id, identities, datetime.now(UTC))
        except DuplicateGame as error:
            fail(f"{store.name}: {error}; nothing imported")
        name = store.name
    typer.echo(f"game {game_id}: {len(record.actions)} action(s) imported into {name}")
