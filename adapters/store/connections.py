"""Which connection each call of a store runs on, and in which transaction.

Four cases, for the calling thread:

- inside a unit of work (`atomic`): the unit's connection and its one write transaction; a
  writing call runs in a savepoint of it, so a call that fails (a conflict it reports, a
  broken constraint) leaves nothing of its own and the unit usable, and nothing commits
  before the unit ends;
- inside a reading (`reading`): its connection and its one read transaction, which sees one
  committed state of the store, for reads only;
- a thread that keeps a connection (the one that opened the store, or one that serves from
  it): that connection, in a transaction of the call's own;
- any other thread: a connection from the pool, for one transaction.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from .database import begin_sqlite, transaction, translated_errors

_SAVEPOINT = "bohnanza_call"


@dataclass
class _Unit:
    """A unit of work under way in one thread: its connection, and what to do once it is
    committed (never if it is rolled back)."""

    connection: Connection
    after_commit: list[Callable[[], None]] = field(default_factory=list)
    read_only: bool = False
    """A reading (`Connections.reading`): no call inside may write."""


class Connections:
    """The connections of one store, by thread: kept ones, units of work, the pool's."""

    def __init__(self, engine: Engine, name: str) -> None:
        self._engine = engine
        self._name = name
        self._keepers: dict[int, Connection | None] = {threading.get_ident(): None}
        """The threads that keep a connection between their transactions (the one that opened
        the store, and any that said it serves from there), with it (None before their first)."""
        self._units: dict[int, _Unit] = {}
        """The units of work under way, by the thread that opened each (only it uses it)."""

    def in_unit(self) -> bool:
        """Whether the calling thread is inside a unit of work."""
        return threading.get_ident() in self._units

    @contextmanager
    def transaction(self, write: bool, one_state: bool = False) -> Iterator[Connection]:
        """The connection for one call of the store, in a transaction of the call's own (a
        savepoint of the unit's transaction, for a writing call inside a unit of work); with
        `one_state`, a reading transaction whose every statement sees the same committed state
        (as a reading's does)."""
        unit = self._units.get(threading.get_ident())
        if unit is not None:
            if write and unit.read_only:
                raise RuntimeError("a store call that writes, inside a reading")
            with translated_errors(self._name):
                if not write:
                    yield unit.connection
                    return
                with _savepoint(unit.connection):
                    yield unit.connection
            return
        with translated_errors(self._name):
            held = self._held_connection()
            if held is not None:
                with _one_state(held, one_state), transaction(held, write):
                    yield held
                return
            with (
                self._engine.connect() as connection,
                _one_state(connection, one_state),
                transaction(connection, write),
            ):
                yield connection

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Everything the calling thread has the store write inside is one transaction:
        committed when the block ends, rolled back entirely if anything raises out of it.
        Reads inside see the writes made before them; a unit opened inside one joins it."""
        unit = self._units.get(threading.get_ident())
        if unit is not None:
            if unit.read_only:
                raise RuntimeError("a unit of work inside a reading")
            yield
            return
        with self._unit(write=True) as unit:
            yield
        for callback in unit.after_commit:
            callback()

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """Every read the calling thread has the store make inside is one read transaction,
        ended once, whose every statement sees the same committed state (inside a unit of
        work: the unit's, which sees its own writes too). Nothing may write inside."""
        unit = self._units.get(threading.get_ident())
        if unit is not None:
            yield unit.connection
            return
        with self._unit(write=False) as unit:
            yield unit.connection

    @contextmanager
    def _unit(self, write: bool) -> Iterator[_Unit]:
        """One transaction of the calling thread's, which its store calls join until it ends."""
        ident = threading.get_ident()
        with translated_errors(self._name):
            held = self._held_connection()
            connection = held if held is not None else self._engine.connect()
            unit = _Unit(connection, read_only=not write)
            try:
                with _one_state(connection, not write), transaction(connection, write):
                    self._units[ident] = unit
                    try:
                        yield unit
                    finally:
                        del self._units[ident]
            finally:
                if held is None:
                    connection.close()

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run `callback` once what the calling thread wrote is committed: now, or at the end
        of its unit of work (never, if the unit is rolled back)."""
        unit = self._units.get(threading.get_ident())
        if unit is None:
            callback()
        else:
            unit.after_commit.append(callback)

    def _held_connection(self) -> Connection | None:
        """The connection a keeping thread (the one that opened the store, or one that serves
        from its thread) keeps between its transactions (None in other threads, and while it is
        in a transaction of its own).

        Taking a connection from the pool and handing it back costs several times what SQLite
        takes to begin and commit a short transaction, and a chat application makes two of
        them per command, from the thread that opened the store (or, for the tables with expert
        bots, from its runner's thread). A connection whose server went away is invalidated by
        the call that met it, and SQLAlchemy connects it anew on its next use.
        """
        ident = threading.get_ident()
        keepers = self._keepers
        if ident not in keepers:
            return None
        held = keepers[ident]
        if held is None:
            held = keepers[ident] = self._engine.connect()
        elif held.in_transaction():
            return None
        return held

    def serve_from_this_thread(self) -> None:
        """The calling thread makes most of the store's calls from now on (a chat runner's
        thread): it keeps a connection between its transactions, as the opener's does, until
        `release_this_thread` or `close`."""
        self._keepers.setdefault(threading.get_ident(), None)

    def release_this_thread(self) -> None:
        """The calling thread keeps no connection any more: it goes back to the pool."""
        held = self._keepers.pop(threading.get_ident(), None)
        if held is not None:
            held.close()

    def close(self) -> None:
        """Close every kept connection (the engine is disposed of by the store)."""
        keepers = self._keepers
        self._keepers = {}
        for held in keepers.values():
            if held is not None:
                held.close()


@contextmanager
def _one_state(connection: Connection, reading: bool) -> Iterator[None]:
    """A reading's transaction on PostgreSQL sees one committed state: its default (READ
    COMMITTED) takes a new one per statement, so a game read before an append and its actions
    read after it would disagree. The driver asks for REPEATABLE READ, READ ONLY in the
    transaction's BEGIN, with no statement of its own. SQLite in WAL mode gives a read
    transaction one snapshot from its first read to its end anyway."""
    if not reading or connection.dialect.name != "postgresql":
        yield
        return
    from psycopg import IsolationLevel  # only a PostgreSQL store has its driver

    driver: Any = connection.connection.driver_connection
    before = driver.isolation_level, driver.read_only
    driver.isolation_level, driver.read_only = IsolationLevel.REPEATABLE_READ, True
    try:
        yield
    finally:
        driver.isolation_level, driver.read_only = before


@contextmanager
def _savepoint(connection: Connection) -> Iterator[None]:
    """A savepoint for one call inside a unit of work: released when the call ends, rolled
    back to (and released) if it raises, so nothing of a failed call stays in the unit.

    On SQLite the savepoint is set on the driver's connection (as its transactions are begun:
    `begin_sqlite`), which costs a fraction of SQLAlchemy's nested transaction; if SQLite
    ended the whole transaction itself (a full disk), the error raised is the call's own.
    """
    if connection.dialect.name != "sqlite":
        with connection.begin_nested():
            yield
        return
    begin_sqlite(connection, f"SAVEPOINT {_SAVEPOINT}")
    try:
        yield
    except BaseException:
        with contextlib.suppress(DBAPIError):
            begin_sqlite(connection, f"ROLLBACK TO {_SAVEPOINT}")
            begin_sqlite(connection, f"RELEASE {_SAVEPOINT}")
        raise
    begin_sqlite(connection, f"RELEASE {_SAVEPOINT}")
