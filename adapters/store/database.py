"""Opening a store's database: a path or URL, the connection settings, and the schema version.

A plain path is a SQLite file. SQLite runs in WAL mode with `synchronous=FULL`, so a commit is
on disk when it returns, and a busy timeout, so a second writer waits instead of failing. Writing
transactions (opened with `transaction`) start with `BEGIN IMMEDIATE`, which takes the write lock
before reading, so two writers queue up instead of deadlocking.

The schema version is the newest Alembic revision applied. A new database gets the models'
tables at the newest revision this code knows, an older store is migrated to it; one with an
unknown revision was made by a newer bohnanza and is refused, with nothing written.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, NoSuchModuleError
from sqlmodel import SQLModel

from bohnanza.adapters.extras import install_command
from bohnanza.core.ports import StoreError

from . import tables

assert tables  # imported for SQLModel.metadata to hold the models' tables

log = logging.getLogger(__name__)

SCHEMA_REVISIONS = ("0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008")
"""Every schema revision this code knows, oldest first; the last is the current version."""
SCHEMA_VERSION = SCHEMA_REVISIONS[-1]
_SQLITE_MAGIC = b"SQLite format 3\x00"
_MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class NotAStore(StoreError):
    """The target is missing, is not a database, or is not a game store."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of bohnanza."""


class IncompleteSchema(StoreError):
    """The database says it is at a schema version but lacks tables or columns of it."""


SUPPORTED_DRIVERS = ("sqlite", "sqlite+pysqlite", "postgresql+psycopg")
"""The SQLAlchemy drivers a store may use: SQLite, and PostgreSQL through psycopg."""
_SUPPORTED_KINDS = "a SQLite path, a sqlite:/// URL or a postgresql:// URL"


def is_url(target: str) -> bool:
    """A database URL, as opposed to a file path."""
    return "://" in target


def database_url(target: str) -> str:
    """The SQLAlchemy URL for a path or URL; `postgresql://` uses the psycopg driver."""
    if not is_url(target):
        return "sqlite:///" + str(Path(target).expanduser().resolve())
    for plain in ("postgresql://", "postgres://"):
        if target.startswith(plain):
            return "postgresql+psycopg://" + target[len(plain) :]
    return target


def display_name(target: str) -> str:
    """The target as it may be shown: a path as given, a URL without its password."""
    if not is_url(target):
        return target
    try:
        return make_url(target).render_as_string(hide_password=True)
    except ArgumentError:
        return "the database URL"


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL, or None for another database or an in-memory one."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database or "")


def check_sqlite_file(path: Path, name: str, create: bool) -> None:
    """Refuse a missing file (unless creating), a folder, or a file that is not SQLite."""
    if path.is_dir():
        raise NotAStore(f"{name}: is a directory, not a database")
    if not path.exists():
        if not create:
            raise NotAStore(f"{name}: no such file")
        if not path.parent.is_dir():
            raise NotAStore(f"{name}: the folder {path.parent} does not exist")
        return
    try:
        with path.open("rb") as file:
            head = file.read(len(_SQLITE_MAGIC))
    except OSError as error:
        raise NotAStore(f"{name}: {error.strerror}") from None
    if head and head != _SQLITE_MAGIC:
        raise NotAStore(f"{name}: not a database")


def make_engine(target: str, create: bool) -> Engine:
    """An engine for a path or URL, with SQLite set up for durable, queued writes."""
    name = display_name(target)
    unsupported = NotAStore(
        f"{name}: not a database path or a supported database URL (use {_SUPPORTED_KINDS})"
    )
    try:
        url = database_url(target)
        if make_url(url).drivername not in SUPPORTED_DRIVERS:
            raise unsupported
        path = sqlite_path(url)
        if path is not None:
            check_sqlite_file(path, name, create)
        engine = create_engine(url, pool_pre_ping=False)
    except ImportError as error:
        if (error.name or "").startswith("psycopg"):
            # Installed without the extra that brings PostgreSQL's driver.
            needed = install_command("bohnanza", ["postgres"])
            raise NotAStore(f"{name}: a PostgreSQL store needs its extra: {needed}") from None
        raise unsupported from None
    except (ArgumentError, NoSuchModuleError, ValueError):
        raise unsupported from None
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine)
    return engine


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Transactions are begun explicitly (`begin_sqlite`), not by the driver.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA busy_timeout = 30000")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.close()


@contextmanager
def transaction(connection: Connection, write: bool) -> Iterator[Connection]:
    """A transaction on a store's connection: committed at the end, rolled back on an error.

    On SQLite the driver begins none by itself: a writing one starts with `BEGIN IMMEDIATE`, a
    reading one with `BEGIN`. This is done here, where the transaction is opened, and not by an
    engine event, which would make every statement of the engine call its event hooks.
    """
    with connection.begin():
        if connection.dialect.name == "sqlite":
            begin_sqlite(connection, "BEGIN IMMEDIATE" if write else "BEGIN")
        yield connection


def begin_sqlite(connection: Connection, statement: str) -> None:
    """Begin a SQLite transaction (or set, release or roll back to a savepoint in one) on the
    driver's own connection (it returns nothing, so it needs none of SQLAlchemy's statement
    machinery); a driver error is raised as SQLAlchemy would have raised it."""
    try:
        connection.connection.driver_connection.execute(statement)  # type: ignore[union-attr]
    except sqlite3.Error as error:
        raise DBAPIError.instance(statement, None, error, sqlite3.Error) from None


@contextmanager
def translated_errors(name: str) -> Iterator[None]:
    """Turn driver errors into one-line StoreErrors naming the database.

    A broken constraint (IntegrityError) passes through: the caller knows what it means.
    """
    try:
        yield
    except IntegrityError:
        raise
    except DBAPIError as error:
        raise StoreError(f"{name}: {_reason(error)}") from None


def _reason(error: DBAPIError) -> str:
    message = str(error.orig).strip().splitlines()[0] if error.orig else str(error)
    if "file is not a database" in message:
        return "not a database"
    if error.connection_invalidated or "connection" in message.lower():
        return f"cannot connect: {message}"
    return message


def schema_revision(connection: Connection) -> str | None:
    """The applied schema revision, or None for a database without one."""
    tables = set(inspect(connection).get_table_names())
    if "alembic_version" not in tables:
        if tables:
            raise NotAStore("not a bohnanza game store (it holds other tables)")
        return None
    row = connection.execute(text("SELECT version_num FROM alembic_version")).first()
    return None if row is None else str(row[0])


def prepare_schema(engine: Engine, name: str, create: bool) -> None:
    """Check the schema version; migrate a new or older database when allowed."""
    with translated_errors(name):
        try:
            with engine.connect() as connection:
                revision = schema_revision(connection)
        except NotAStore as error:
            raise NotAStore(f"{name}: {error}") from None
    if revision is not None and revision not in SCHEMA_REVISIONS:
        raise SchemaTooNew(
            f"{name}: its schema version {revision} is newer than this bohnanza knows "
            f"({SCHEMA_VERSION}); upgrade bohnanza to read it"
        )
    if revision is None and not create:
        raise NotAStore(f"{name}: not a bohnanza game store (it is empty)")
    with translated_errors(name):
        if create and engine.dialect.name == "sqlite":
            # Persistent in the file: set once, by a writer, on a database known to be ours.
            raw = engine.raw_connection()
            try:
                raw.cursor().execute("PRAGMA journal_mode = WAL")
            finally:
                raw.close()
        if revision != SCHEMA_VERSION and migrate(engine):
            log.info("%s: a new store, at schema version %s", name, SCHEMA_VERSION)


def migrate(engine: Engine) -> bool:
    """Bring the schema to the newest revision, in one transaction: a new database gets the
    models' tables at the newest revision at once (`create_schema`), an older store is migrated
    by Alembic. True if the database was new."""
    with engine.connect() as connection, transaction(connection, write=True):
        if engine.dialect.name == "postgresql":
            # Several workers may start at once: one migrates, the others wait here and
            # then find the schema current (Alembic reads the version after the lock).
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
        if inspect(connection).get_table_names():
            run_migrations(connection)
            return False
        create_schema(connection)
        return True


def run_migrations(connection: Connection) -> None:
    """Alembic's upgrade to the newest revision, on `connection`, in its transaction."""
    # Imported here: Alembic is a third of the time a command takes to start, and only a
    # store older than this code needs it.
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def create_schema(connection: Connection) -> None:
    """A new store: the models' tables, and the newest revision recorded as Alembic records
    it. The schema is the one the migrations build, table for table and column for column
    (tests/adapters/test_sql_database.py compares both); a new store costs a fifth of the
    time the eight migrations take, and no import of Alembic."""
    SQLModel.metadata.create_all(connection)
    connection.execute(
        text(
            "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, "
            "CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))"
        )
    )
    connection.execute(
        text("INSERT INTO alembic_version (version_num) VALUES (:version)"),
        {"version": SCHEMA_VERSION},
    )


_LOCK = 0x42_6F_68_6E
"""The advisory lock migrations take on PostgreSQL ('Bohn')."""


def upgrade(target: str) -> tuple[str | None, str]:
    """`bohnanza db upgrade`: migrate the store at a path or URL to the newest revision.

    An empty database becomes a store, and so does a SQLite file that does not exist yet (its
    folder must); a file created here is removed again if the migration fails. Then every table
    and column of the schema must be there: IncompleteSchema names what is not. Returns the
    revision before (None for a new store) and after.
    """
    name = display_name(target)
    engine = make_engine(target, create=True)
    created = _new_sqlite_file(engine)
    try:
        before = _revision(engine, name)
        prepare_schema(engine, name, create=True)
        check_schema_complete(engine, name)
    except BaseException:
        engine.dispose()
        if created is not None:
            _remove_sqlite_file(created)
        raise
    engine.dispose()
    return before, SCHEMA_VERSION


def check_schema_complete(engine: Engine, name: str) -> None:
    """Raise IncompleteSchema naming every table and column of the models the database lacks
    (a store at the current version whose `actions` table was dropped, say)."""
    with translated_errors(name), engine.connect() as connection:
        missing = missing_from_schema(connection)
    if missing:
        raise IncompleteSchema(
            f"{name}: the schema (version {SCHEMA_VERSION}) is incomplete: it lacks "
            + ", ".join(missing)
        )


def missing_from_schema(connection: Connection) -> list[str]:
    """The tables ('table actions') and columns ('column games.room') of the models that the
    database does not have."""
    inspector = inspect(connection)
    present = set(inspector.get_table_names())
    missing = []
    for table in SQLModel.metadata.sorted_tables:
        if table.name not in present:
            missing.append(f"table {table.name}")
            continue
        columns = {column["name"] for column in inspector.get_columns(table.name)}
        missing += [f"column {table.name}.{c.name}" for c in table.columns if c.name not in columns]
    return missing


def _revision(engine: Engine, name: str) -> str | None:
    with translated_errors(name):
        try:
            with engine.connect() as connection:
                return schema_revision(connection)
        except NotAStore as error:
            raise NotAStore(f"{name}: {error}") from None


def _new_sqlite_file(engine: Engine) -> Path | None:
    """The engine's SQLite file if it does not exist yet (connecting will create it)."""
    path = sqlite_path(str(engine.url))
    return path if path is not None and not path.exists() else None


def _remove_sqlite_file(path: Path) -> None:
    """A store file this process created, with its WAL and shared-memory files."""
    for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        leftover.unlink(missing_ok=True)
