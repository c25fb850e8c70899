"""Statements run on every command, compiled once per database and run on the driver's cursor.

`Connection.execute` of a Core statement works out its cache key, finds its compiled form and
binds its parameters by name on every call, and `Connection.exec_driver_sql` still builds an
execution context and a result around the driver's cursor; for the few small statements of an
append that costs several times what SQLite takes to run them. A `Prepared` statement is the
same Core statement compiled once per dialect: its SQL, the order of its parameters and their
type conversions (a time stored as text on SQLite) are kept, and each call hands the converted
values straight to a cursor of the connection's driver. The transaction stays SQLAlchemy's (the
statement runs inside the connection's, begun if none is), errors are raised as SQLAlchemy's
(a broken constraint is its `IntegrityError`; a lost connection is invalidated), and the result
is the driver's: `rowcount`, and rows as plain tuples, with no conversion of the values read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError, MultipleResultsFound, NoResultFound
from sqlalchemy.sql.base import Executable
from sqlalchemy.sql.elements import ClauseElement

_FROM_VALUES = object()
"""In a parameter plan: the value is the caller's, not fixed in the statement."""


class _Compiled:
    """A statement's SQL for one dialect, and how its parameters are bound."""

    __slots__ = ("_converted", "_pick", "names", "plan", "positional", "sql")

    def __init__(
        self,
        sql: str,
        names: tuple[str, ...],
        positional: bool,
        plan: tuple[tuple[str, Any, Callable[[Any], Any] | None], ...],
    ) -> None:
        self.sql = sql
        self.names = names
        self.positional = positional
        self.plan = plan
        """Per parameter, in order: its name, its fixed value (or `_FROM_VALUES`), its
        conversion."""
        self._pick = itemgetter(*names) if len(names) > 1 else None
        self._converted = tuple(
            (index, change) for index, (_, _, change) in enumerate(plan) if change is not None
        )

    def bind(self, values: Mapping[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        """The driver's parameters for `values` (by bind name), in the driver's style."""
        bound: list[Any] | None = None
        if self._pick is not None:
            try:
                # Every value given (an insert's row): picked at once, then converted.
                bound = list(self._pick(values))
            except KeyError:
                pass
            else:
                for index, convert in self._converted:
                    bound[index] = convert(bound[index])
        if bound is None:
            bound = []
            for name, fixed, change in self.plan:
                value = values[name] if fixed is _FROM_VALUES or name in values else fixed
                bound.append(value if change is None else change(value))
        if self.positional:
            return tuple(bound)
        return dict(zip(self.names, bound, strict=True))


class DriverResult:
    """What a prepared statement answers: the rows it read, as the driver's tuples, and the
    number of rows it changed."""

    __slots__ = ("_rows", "rowcount")

    def __init__(self, rowcount: int, rows: list[tuple[Any, ...]]) -> None:
        self.rowcount = rowcount
        self._rows = rows

    def all(self) -> list[tuple[Any, ...]]:
        """Every row read."""
        return self._rows

    def first(self) -> tuple[Any, ...] | None:
        """The first row read, or None."""
        return self._rows[0] if self._rows else None

    def one(self) -> tuple[Any, ...]:
        """The one row read; SQLAlchemy's NoResultFound or MultipleResultsFound otherwise."""
        if not self._rows:
            raise NoResultFound("no row was found when one was required")
        if len(self._rows) > 1:
            raise MultipleResultsFound("multiple rows were found when exactly one was required")
        return self._rows[0]


class Prepared:
    """A Core statement, compiled once per dialect and run on the driver's cursor.

    Given a function instead, it is asked for the statement by dialect name (for statements
    written in a dialect's own terms, such as an upsert).
    """

    def __init__(self, statement: Executable | Callable[[str], Executable]) -> None:
        self._statement = statement
        self._compiled: dict[str, _Compiled] = {}

    def execute(self, connection: Connection, values: Mapping[str, Any]) -> DriverResult:
        """Run the statement once with `values` (keyed by bind or column name)."""
        compiled = self._for(connection.dialect)
        return _run(connection, compiled.sql, compiled.bind(values), many=False)

    def execute_many(
        self, connection: Connection, rows: Sequence[Mapping[str, Any]]
    ) -> DriverResult:
        """Run the statement once per row, as one executemany."""
        compiled = self._for(connection.dialect)
        bound = [compiled.bind(row) for row in rows]
        return _run(connection, compiled.sql, bound, many=True)

    def _for(self, dialect: Dialect) -> _Compiled:
        compiled = self._compiled.get(dialect.name)
        if compiled is None:
            statement = self._statement
            if not isinstance(statement, Executable):
                statement = statement(dialect.name)
            compiled = self._compiled[dialect.name] = _compile(statement, dialect)
        return compiled


def _run(connection: Connection, sql: str, parameters: Any, many: bool) -> DriverResult:
    """Run `sql` on a cursor of the connection's driver, inside the connection's transaction."""
    if not connection.in_transaction():
        connection.begin()
    dialect = connection.dialect
    driver = connection.connection.dbapi_connection
    dbapi: Any = dialect.loaded_dbapi
    cursor = driver.cursor()  # type: ignore[union-attr]
    try:
        if many:
            cursor.executemany(sql, parameters)
        else:
            cursor.execute(sql, parameters)
        rows = [tuple(row) for row in cursor.fetchall()] if cursor.description else []
        return DriverResult(cursor.rowcount, rows)
    except dbapi.Error as error:
        lost = dialect.is_disconnect(error, driver, cursor)
        if lost:
            connection.invalidate(error)
        raise DBAPIError.instance(
            sql, parameters, error, dbapi.Error, connection_invalidated=lost, dialect=dialect
        ) from error
    finally:
        cursor.close()


def _compile(statement: Executable, dialect: Dialect) -> _Compiled:
    if not isinstance(statement, ClauseElement):
        raise TypeError("only a Core statement can be prepared")
    compiled = statement.compile(dialect=dialect)
    by_name = {name: bind for bind, name in compiled.bind_names.items()}  # type: ignore[attr-defined]
    positional = bool(compiled.positional)  # type: ignore[attr-defined]
    names = tuple(compiled.positiontup if positional else by_name)  # type: ignore[attr-defined]
    plan = []
    for name in names:
        bind = by_name[name]
        if bind.expanding or bind.literal_execute:
            # Their SQL depends on the values (an IN list): it cannot be compiled once.
            raise TypeError(f"a statement with an expanding parameter ({name}) cannot be prepared")
        fixed = bind.value if bind.value is not None and not bind.required else _FROM_VALUES
        plan.append((name, fixed, bind.type._cached_bind_processor(dialect)))
    return _Compiled(compiled.string, names, positional, tuple(plan))
