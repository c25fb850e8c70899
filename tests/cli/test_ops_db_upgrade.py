"""`bohnanza db upgrade` on a path that does not exist yet, through the real typer application."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bohnanza.adapters.store import database, open_store
from bohnanza.cli.app import build_app
from bohnanza.core.ports import StoreError

runner = CliRunner()


@pytest.fixture(autouse=True)
def no_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No BOHNANZA_ setting of the machine running the tests, and a private data folder."""
    for name in [n for n in os.environ if n.startswith("BOHNANZA_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(build_app(), list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_new_file_becomes_a_store_at_the_current_version(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    code, out, err = run("db", "upgrade", str(db))
    assert (code, err) == (0, "")
    assert out == f"{db}: created the store at schema version {database.SCHEMA_VERSION}\n"
    with open_store(str(db)) as store:
        assert store.list_games() == []
    code, out, _ = run("db", "upgrade", str(db))
    assert code == 0
    assert out == f"{db}: the schema is current (version {database.SCHEMA_VERSION})\n"


def test_the_new_store_is_in_wal_mode(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    assert run("db", "upgrade", str(db))[0] == 0
    engine = database.make_engine(str(db), create=False)
    try:
        with engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        engine.dispose()


def test_a_folder_that_does_not_exist_is_one_line_and_nothing_is_made(tmp_path: Path) -> None:
    db = tmp_path / "no" / "such" / "folder" / "games.db"
    code, out, err = run("db", "upgrade", str(db))
    assert code == 1 and out == ""
    assert err == f"error: {db}: the folder {db.parent} does not exist\n"
    assert not (tmp_path / "no").exists()


def test_a_directory_is_refused_in_one_line(tmp_path: Path) -> None:
    code, _, err = run("db", "upgrade", str(tmp_path))
    assert code == 1
    assert err == f"error: {tmp_path}: is a directory, not a database\n"


def test_without_a_path_the_default_store_is_created_with_its_folder(tmp_path: Path) -> None:
    default = tmp_path / "data" / "bohnanza" / "games.db"
    code, out, err = run("db", "upgrade")
    assert (code, err) == (0, "")
    assert out == f"{default}: created the store at schema version {database.SCHEMA_VERSION}\n"
    assert default.is_file()


def test_a_failed_migration_leaves_no_new_file_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(engine: object) -> None:
        raise StoreError("new.db: the disk is full")

    monkeypatch.setattr(database, "migrate", broken)
    db = tmp_path / "new.db"
    code, _, err = run("db", "upgrade", str(db))
    assert code == 1
    assert err == "error: new.db: the disk is full\n"
    assert list(tmp_path.iterdir()) == []


def test_a_failed_migration_keeps_a_file_that_was_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "empty.db"
    db.touch()

    def broken(engine: object) -> None:
        raise StoreError("empty.db: the disk is full")

    monkeypatch.setattr(database, "migrate", broken)
    assert run("db", "upgrade", str(db))[0] == 1
    assert db.exists()
