"""Which connection each call of a store runs on, and in which transaction.

Three cases, for the calling thread:

- inside a unit of work (`atomic`): the unit's connection and its one write transaction; a
  writing call runs in a savepoint of it, so a call that fails (a conflict it reports, a
  broken constraint) leaves nothing of its own and the unit usable, and nothing commits
  before the unit ends;
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
    def transaction(self, write: bool) -> Iterator[Connection]:
        """The connection for one call of the store, in a transaction of the call's own (a
        savepoint of the unit's transaction, for a writing call inside a unit of work)."""
        unit = self._units.get(threading.get_ident())
        if unit is not None:
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
                with transaction(held, write):
                    yield held
                return
            with self._engine.connect() as connection, transaction(connection, write):
                yield connection

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Everything the calling thread has the store write inside is one transaction:
        committed when the block ends, rolled back entirely if anything raises out of it.
        Reads inside see the writes made before them; a unit opened inside one joins it."""
        ident = threading.get_ident()
        if ident in self._units:
            yield
            return
        with translated_errors(self._name):
            held = self._held_connection()
            connection = held if held is not None else self._engine.connect()
            unit = _Unit(connection)
            try:
                with transaction(connection, write=True):
                    self._units[ident] = unit
                    try:
                        yield
                    finally:
                        del self._units[ident]
            finally:
                if held is None:
                    connection.close()
        for callback in unit.after_commit:
            callback()

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
