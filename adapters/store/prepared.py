"""Statements run on every command, compiled once per database and run as the driver's SQL.

`Connection.execute` of a Core statement works out its cache key, finds its compiled form and
binds its parameters by name on every call; for the two or three small statements of an
append that costs about as much as SQLite takes to run them. A `Prepared` statement is the same
Core statement compiled once per dialect: its SQL, the order of its parameters and their type
conversions (a time stored as text on SQLite) are kept, and each call hands the driver's SQL and
the converted values to `Connection.exec_driver_sql`. The result, the errors (wrapped as
SQLAlchemy's) and the transaction are SQLAlchemy's as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection, CursorResult, Dialect
from sqlalchemy.sql.base import Executable
from sqlalchemy.sql.elements import ClauseElement


@dataclass(frozen=True)
class _Compiled:
    sql: str
    names: tuple[str, ...]
    positional: bool
    fixed: Mapping[str, Any]
    convert: Mapping[str, Callable[[Any], Any]]

    def bind(self, values: Mapping[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        """The driver's parameters for `values` (by bind name), in the driver's style."""
        fixed, convert = self.fixed, self.convert
        bound = []
        for name in self.names:
            value = values[name] if name in values else fixed[name]
            change = convert.get(name)
            bound.append(value if change is None else change(value))
        if self.positional:
            return tuple(bound)
        return dict(zip(self.names, bound, strict=True))


class Prepared:
    """A Core statement, compiled once per dialect and run with `exec_driver_sql`.

    Given a function instead, it is asked for the statement by dialect name (for statements
    written in a dialect's own terms, such as an upsert).
    """

    def __init__(self, statement: Executable | Callable[[str], Executable]) -> None:
        self._statement = statement
        self._compiled: dict[str, _Compiled] = {}

    def execute(
        self, connection: Connection, values: Mapping[str, Any]
    ) -> CursorResult[*tuple[Any, ...]]:
        """Run the statement once with `values` (keyed by bind or column name)."""
        compiled = self._for(connection.dialect)
        return connection.exec_driver_sql(compiled.sql, compiled.bind(values))

    def execute_many(
        self, connection: Connection, rows: Sequence[Mapping[str, Any]]
    ) -> CursorResult[*tuple[Any, ...]]:
        """Run the statement once per row, as one executemany."""
        compiled = self._for(connection.dialect)
        bound = [compiled.bind(row) for row in rows]
        return connection.exec_driver_sql(compiled.sql, bound)

    def _for(self, dialect: Dialect) -> _Compiled:
        compiled = self._compiled.get(dialect.name)
        if compiled is None:
            statement = self._statement
            if not isinstance(statement, Executable):
                statement = statement(dialect.name)
            compiled = self._compiled[dialect.name] = _compile(statement, dialect)
        return compiled


def _compile(statement: Executable, dialect: Dialect) -> _Compiled:
    if not isinstance(statement, ClauseElement):
        raise TypeError("only a Core statement can be prepared")
    compiled = statement.compile(dialect=dialect)
    by_name = {name: bind for bind, name in compiled.bind_names.items()}  # type: ignore[attr-defined]
    positional = bool(compiled.positional)  # type: ignore[attr-defined]
    names = tuple(compiled.positiontup if positional else by_name)  # type: ignore[attr-defined]
    fixed: dict[str, Any] = {}
    convert: dict[str, Callable[[Any], Any]] = {}
    for name in names:
        bind = by_name[name]
        if bind.expanding or bind.literal_execute:
            # Their SQL depends on the values (an IN list): it cannot be compiled once.
            raise TypeError(f"a statement with an expanding parameter ({name}) cannot be prepared")
        if bind.value is not None and not bind.required:
            fixed[name] = bind.value
        process = bind.type._cached_bind_processor(dialect)
        if process is not None:
            convert[name] = process
    return _Compiled(compiled.string, names, positional, fixed, convert)
