"""Opening a store: durable SQLite settings, the schema version, and every kind of bad target."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect
from sqlmodel import SQLModel

from bohnanza.adapters.store import (
    SCHEMA_VERSION,
    NotAStore,
    SchemaTooNew,
    database_url,
    display_name,
    open_store,
)
from bohnanza.adapters.store import tables as _tables
from bohnanza.adapters.store.database import make_engine, run_migrations, transaction
from bohnanza.core.ports import StoreError

from .games import bot_game, new_game, stored_actions
from .postgres import postgres_url

assert _tables  # the models must be imported for SQLModel.metadata to hold them


def test_a_new_sqlite_store_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with open_store(str(path), create=True) as store:
        store.add_game(new_game(bot_game()))
        with store._engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def migrated_from_empty(target: str) -> None:
    """A new database brought to the newest revision by the eight migrations, as an older
    store is, not built from the models as a new store is."""
    engine = make_engine(target, create=True)
    with engine.connect() as connection, transaction(connection, write=True):
        run_migrations(connection)
    engine.dispose()


def schema_of(target: str) -> tuple[dict[str, object], list[object], str | None]:
    """Every table of a database as the inspector reads it (columns with their types,
    nullability and defaults; primary, foreign and unique keys; indexes), what Alembic finds
    different from the models, and the recorded revision."""
    engine = create_engine(database_url(target))
    with engine.connect() as connection:
        inspector = inspect(connection)
        tables: dict[str, object] = {}
        for table in sorted(inspector.get_table_names()):
            columns = {
                column["name"]: (
                    str(column["type"]),
                    column["nullable"],
                    column.get("default"),
                )
                for column in inspector.get_columns(table)
            }
            keys = inspector.get_pk_constraint(table)["constrained_columns"]
            foreign = sorted(
                (tuple(f["constrained_columns"]), f["referred_table"], tuple(f["referred_columns"]))
                for f in inspector.get_foreign_keys(table)
            )
            unique = sorted(
                tuple(u["column_names"]) for u in inspector.get_unique_constraints(table)
            )
            indexes = sorted(
                (i["name"], tuple(i["column_names"]), bool(i["unique"]))
                for i in inspector.get_indexes(table)
            )
            tables[table] = (columns, keys, foreign, unique, indexes)
        differences = compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)
        version = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    engine.dispose()
    return tables, differences, version


def test_the_migrations_build_exactly_the_tables_the_models_describe(tmp_path: Path) -> None:
    path = str(tmp_path / "games.db")
    migrated_from_empty(path)
    _, differences, version = schema_of(path)
    assert differences == []
    assert version == SCHEMA_VERSION


def test_the_migrations_match_the_models_on_postgresql_too() -> None:
    url = postgres_url()
    migrated_from_empty(url)
    _, differences, version = schema_of(url)
    assert differences == []
    assert version == SCHEMA_VERSION


def test_a_new_store_has_the_schema_the_migrations_build(tmp_path: Path) -> None:
    built, migrated = str(tmp_path / "new.db"), str(tmp_path / "migrated.db")
    open_store(built, create=True).close()
    migrated_from_empty(migrated)
    tables, differences, version = schema_of(built)
    assert (tables, differences, version) == schema_of(migrated)
    assert "actions" in tables and differences == [] and version == SCHEMA_VERSION


def test_a_new_store_has_the_schema_the_migrations_build_on_postgresql_too() -> None:
    url = postgres_url()
    migrated_from_empty(url)
    migrated = schema_of(url)
    url = postgres_url()  # the worker's schema, emptied again
    open_store(url, create=True).close()
    assert schema_of(url) == migrated


def test_reopening_a_store_keeps_its_games(tmp_path: Path) -> None:
    path = str(tmp_path / "games.db")
    record = bot_game()
    with open_store(path, create=True) as store:
        store.add_complete_game(new_game(record), stored_actions(record), record.result)
    with open_store(path) as store:
        assert store.load_record("g1").actions == record.actions


def test_a_missing_file_is_refused_and_not_created(tmp_path: Path) -> None:
    path = tmp_path / "none.db"
    with pytest.raises(NotAStore, match=r"none\.db: no such file$"):
        open_store(str(path))
    assert not path.exists()


def test_a_file_that_is_not_a_database_is_refused_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"shopping list: beans\n")
    for create in (False, True):
        with pytest.raises(NotAStore, match=r"notes\.db: not a database$"):
            open_store(str(path), create=create)
    assert path.read_bytes() == b"shopping list: beans\n"


def test_a_corrupt_sqlite_file_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.db"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    with pytest.raises(StoreError) as caught:
        open_store(str(path))
    assert "\n" not in str(caught.value) and str(caught.value).startswith(str(path))


def test_another_applications_database_is_refused_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE recipes (name TEXT)")
    before = path.read_bytes()
    for create in (False, True):
        with pytest.raises(NotAStore, match="not a bohnanza game store"):
            open_store(str(path), create=create)
    assert path.read_bytes() == before


def test_an_empty_file_is_no_store_to_read_but_can_become_one(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    with pytest.raises(NotAStore, match="it is empty"):
        open_store(str(path))
    with open_store(str(path), create=True) as store:
        assert store.list_games() == []


def test_a_newer_schema_is_refused_with_nothing_written(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    with open_store(str(path), create=True) as store:
        store.add_game(new_game(bot_game()))
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE alembic_version SET version_num = '0099'")
    before = path.read_bytes()
    for create in (False, True):
        with pytest.raises(SchemaTooNew) as caught:
            open_store(str(path), create=create)
        assert "schema version 0099 is newer than this bohnanza knows" in str(caught.value)
    assert path.read_bytes() == before


def test_a_folder_is_not_a_database(tmp_path: Path) -> None:
    with pytest.raises(NotAStore, match="is a directory"):
        open_store(str(tmp_path))


def test_an_unreachable_server_is_one_line_without_its_password() -> None:
    url = "postgresql+psycopg://bean:secret@127.0.0.1:1/nothing?connect_timeout=2"
    with pytest.raises(StoreError) as caught:
        open_store(url)
    message = str(caught.value)
    assert "secret" not in message and "\n" not in message
    assert message.startswith("postgresql+psycopg://bean:***@127.0.0.1:1/nothing")


def test_an_unknown_kind_of_url_is_refused() -> None:
    with pytest.raises(NotAStore, match="not a database path or a supported database URL"):
        open_store("mongodb://localhost/beans")


def test_urls_are_shown_without_passwords_and_plain_postgresql_uses_psycopg() -> None:
    assert display_name("postgresql://u:pw@h/db") == "postgresql://u:***@h/db"
    assert database_url("postgresql://u:pw@h/db") == "postgresql+psycopg://u:pw@h/db"
    assert database_url("games.db").startswith("sqlite:////")
