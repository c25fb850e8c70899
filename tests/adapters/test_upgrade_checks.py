"""`bohnanza db upgrade` checks that every table and column of the schema is there, and says in
one line what is missing instead of calling a damaged store current."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner, Result

from bohnanza.adapters.store import SCHEMA_VERSION, database_url, open_store
from bohnanza.adapters.store.database import IncompleteSchema, upgrade
from bohnanza.cli.app import build_app

from .postgres import ENV, postgres_url

runner = CliRunner()


@pytest.fixture(autouse=True)
def no_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """No BOHNANZA_ setting of the machine running the tests (the test server's URL aside)."""
    for name in [n for n in os.environ if n.startswith("BOHNANZA_") and n != ENV]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    yield


def run(*args: str) -> Result:
    return runner.invoke(build_app(), list(args))


def sqlite_store(tmp_path: Path, *damage: str) -> Path:
    db = tmp_path / "games.db"
    open_store(str(db), create=True).close()
    with closing(sqlite3.connect(db)) as connection, connection:
        for statement in damage:
            connection.execute(statement)
    return db


def test_a_complete_store_is_current(tmp_path: Path) -> None:
    db = sqlite_store(tmp_path)
    result = run("db", "upgrade", str(db))
    assert result.exit_code == 0
    assert result.stdout.strip() == f"{db}: the schema is current (version {SCHEMA_VERSION})"


def test_a_store_without_its_actions_table_is_one_line_naming_it(tmp_path: Path) -> None:
    db = sqlite_store(tmp_path, "DROP TABLE actions")
    result = run("db", "upgrade", str(db))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"error: {db}: the schema (version {SCHEMA_VERSION}) is incomplete: "
        "it lacks table actions\n"
    )


def test_every_missing_table_and_column_is_named(tmp_path: Path) -> None:
    db = sqlite_store(
        tmp_path,
        "DROP TABLE views",
        "DROP INDEX ix_games_room",
        "ALTER TABLE games DROP COLUMN room",
    )
    result = run("db", "upgrade", str(db))
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert line.endswith("it lacks column games.room, table views")


def test_the_check_changes_nothing_in_the_damaged_store(tmp_path: Path) -> None:
    db = sqlite_store(tmp_path, "DROP TABLE actions")
    before = db.read_bytes()
    with pytest.raises(IncompleteSchema):
        upgrade(str(db))
    assert db.read_bytes() == before


def test_a_postgresql_store_without_its_actions_table_is_refused_too() -> None:
    url = postgres_url()
    open_store(url, create=True).close()
    engine = create_engine(database_url(url))
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE actions"))
    engine.dispose()
    result = run("db", "upgrade", url)
    assert result.exit_code == 1
    assert result.stderr.strip().endswith("is incomplete: it lacks table actions")
