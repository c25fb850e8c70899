"""A prepared statement writes exactly what the same Core statement writes through
`Connection.execute`: the same rows, times converted the same way, fixed values bound, and
SQLAlchemy's own errors."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import (
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    create_engine,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.dml import Insert

from bohnanza.adapters.store import database_url
from bohnanza.adapters.store.prepared import Prepared

from .postgres import postgres_url

METADATA = MetaData()
MOVES = Table(
    "prepared_moves",
    METADATA,
    Column("game", String(40), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("status", String(20), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return database_url(str(tmp_path / "prepared.db"))
    return database_url(postgres_url())


def rows(at: datetime) -> list[dict[str, Any]]:
    return [
        {"game": "g", "seq": 0, "status": "running", "at": at},
        {"game": "g", "seq": 1, "status": "running", "at": at + timedelta(seconds=1)},
    ]


def stored(url: str, game: str) -> list[tuple[Any, ...]]:
    engine = create_engine(url)
    with engine.connect() as connection:
        found = connection.execute(
            select(MOVES.c.seq, MOVES.c.status, MOVES.c.at)
            .where(MOVES.c.game == game)
            .order_by(MOVES.c.seq)
        )
        result = [tuple(row) for row in found]
    engine.dispose()
    return result


def test_prepared_rows_are_the_rows_core_writes(url: str) -> None:
    engine = create_engine(url)
    METADATA.drop_all(engine)
    METADATA.create_all(engine)
    # The store hands every time over in UTC (SQLite keeps no zone).
    at = datetime(2025, 3, 1, 12, 30, 15, 123456, tzinfo=UTC)
    with engine.begin() as connection:
        connection.execute(insert(MOVES), [r | {"game": "core"} for r in rows(at)])
        Prepared(insert(MOVES)).execute_many(connection, [r | {"game": "prep"} for r in rows(at)])
    engine.dispose()

    written = stored(url, "prep")
    assert written == stored(url, "core")
    assert [row[0] for row in written] == [0, 1]
    moment = written[0][2]
    assert moment.replace(tzinfo=moment.tzinfo or UTC) == at
    METADATA.drop_all(create_engine(url))


def test_a_fixed_value_in_the_statement_is_bound_and_rowcount_says_what_matched(url: str) -> None:
    engine = create_engine(url)
    METADATA.drop_all(engine)
    METADATA.create_all(engine)
    at = datetime(2025, 3, 1, tzinfo=UTC)
    finish = Prepared(
        update(MOVES)
        .where(
            MOVES.c.game == bindparam("g"),
            MOVES.c.seq == bindparam("s"),
            MOVES.c.status != "finished",
        )
        .values(status="finished")
    )
    with engine.begin() as connection:
        connection.execute(insert(MOVES), rows(at))
        assert finish.execute(connection, {"g": "g", "s": 1}).rowcount == 1
        # Already finished: the literal in the WHERE is bound, so it matches nothing now.
        assert finish.execute(connection, {"g": "g", "s": 1}).rowcount == 0
        assert finish.execute(connection, {"g": "nobody", "s": 0}).rowcount == 0
    assert [row[1] for row in stored(url, "g")] == ["running", "finished"]
    METADATA.drop_all(engine)
    engine.dispose()


def test_a_broken_constraint_is_sqlalchemys_integrity_error_and_rolls_back(url: str) -> None:
    engine = create_engine(url)
    METADATA.drop_all(engine)
    METADATA.create_all(engine)
    at = datetime(2025, 3, 1, tzinfo=UTC)
    add = Prepared(insert(MOVES))
    with engine.begin() as connection:
        add.execute(connection, rows(at)[0])
    with pytest.raises(IntegrityError), engine.begin() as connection:
        add.execute(connection, rows(at)[1])
        add.execute(connection, rows(at)[0])
    assert [row[0] for row in stored(url, "g")] == [0]
    METADATA.drop_all(engine)
    engine.dispose()


def test_a_statement_given_by_dialect_is_asked_for_once_per_dialect(url: str) -> None:
    asked: list[str] = []

    def upsert(dialect: str) -> Insert:
        asked.append(dialect)
        made = postgresql.insert(MOVES) if dialect == "postgresql" else sqlite.insert(MOVES)
        return made.on_conflict_do_update(
            index_elements=["game", "seq"], set_={"status": made.excluded.status}
        )

    engine = create_engine(url)
    METADATA.drop_all(engine)
    METADATA.create_all(engine)
    put = Prepared(upsert)
    at = datetime(2025, 3, 1, tzinfo=UTC)
    with engine.begin() as connection:
        put.execute(connection, rows(at)[0])
        put.execute(connection, rows(at)[0] | {"status": "finished"})
    assert stored(url, "g")[0][1] == "finished"
    assert asked == [engine.dialect.name]
    METADATA.drop_all(engine)
    engine.dispose()


def test_only_a_core_statement_can_be_prepared(tmp_path: Path) -> None:
    engine = create_engine(database_url(str(tmp_path / "x.db")))
    with engine.begin() as connection, pytest.raises(TypeError):
        Prepared(lambda dialect: "SELECT 1").execute(connection, {})  # type: ignore[arg-type,return-value]
    engine.dispose()


def test_a_statement_whose_sql_depends_on_its_values_is_refused(tmp_path: Path) -> None:
    engine = create_engine(database_url(str(tmp_path / "x.db")))
    in_list = select(MOVES.c.seq).where(MOVES.c.seq.in_(bindparam("seqs", expanding=True)))
    with engine.begin() as connection, pytest.raises(TypeError, match="expanding"):
        Prepared(in_list).execute(connection, {"seqs": [1, 2]})
    engine.dispose()
