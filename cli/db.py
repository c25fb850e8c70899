"""`bohnanza db upgrade [DB]`: bring a store's schema to this version's, before serving."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from bohnanza.core.ports import StoreError

from .errors import fail
from .play import default_db
from .stores import DB_HELP

app = typer.Typer(
    name="db",
    help="Manage the game store's schema.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.command("upgrade")
def upgrade(
    db: Annotated[
        str | None,
        typer.Argument(help=DB_HELP + " [default: $BOHNANZA_DB, else your data folder]"),
    ] = None,
    config: Annotated[
        str | None, typer.Option(help="A TOML settings file [default: $BOHNANZA_CONFIG].")
    ] = None,
) -> None:
    """Run the schema migrations: make a new SQLite file or an empty database a store, or bring
    an older one up to date. Safe to run again; refuses a store written by a newer bohnanza."""
    from bohnanza.adapters.settings import SettingsError, load_settings
    from bohnanza.adapters.store import display_name
    from bohnanza.adapters.store.database import upgrade as upgrade_store

    try:
        settings = load_settings(os.environ, config)
    except SettingsError as error:
        fail(str(error))
    target = db or settings.db or str(default_db())
    if target == str(default_db()):
        default_db().parent.mkdir(parents=True, exist_ok=True)
    try:
        before, after = upgrade_store(target)
    except StoreError as error:
        fail(str(error))
    name = display_name(target)
    if before == after:
        typer.echo(f"{name}: the schema is current (version {after})")
    elif before is None:
        typer.echo(f"{name}: created the store at schema version {after}")
    else:
        typer.echo(f"{name}: upgraded the schema from version {before} to {after}")
