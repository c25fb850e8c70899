"""Stores of many open games for bench/scale.py: a few played, the rest cloned in SQL.

A few template games (3-5 people each, moves chosen by bots on each seat's own view, a deadline
per move so deadlines exist) are played through `ChatService` to 100-200 stored actions. Each
clone copies a template's rows (every table with a `game_id` column, and the game's own row)
with the game id, room and players rewritten, and its hash chain computed again from the new
header, as the store computes it, so the clone passes the audit a worker makes when it loads it.

A store is built once per size and kept in `bench/.scale/` (SQLite files) or in a schema of the
PostgreSQL database (`scale_<N>`); each measure runs on a fresh copy of it (`working_copy`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
import shutil
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import MetaData, create_engine, text
from sqlalchemy.engine import Engine, make_url

from bohnanza.adapters.store import SqlGameStore, database_url, open_store
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.lobby_commands import GAME_ID_LENGTH, GAME_ID_LETTERS
from bohnanza.core.app.ports import Capabilities
from bohnanza.core.app.service import ChatService
from bohnanza.core.audit import header_hash, link_hash
from bohnanza.core.bots import Bot, make_bot
from bohnanza.core.game import Game
from bohnanza.core.notation import action_text
from bohnanza.core.ports import NewGame, SeatIdentity
from tests.scale.sim import next_moves

PLATFORM = "scale"
CAPABILITIES = Capabilities(buttons=True, edits=True, personal_answers=True)
TEMPLATES = 10
DEADLINE = "1h"
"""The deadline per move of every game: long enough that none falls due while measuring."""
CACHE = Path(__file__).resolve().parent / ".scale"
BATCH = 100
"""Clones written per transaction."""


@dataclasses.dataclass(frozen=True)
class Built:
    """A stored set of open games: where, and the moment its last move was made."""

    url: str
    games: int
    played_until: datetime

    def rooms(self) -> list[str]:
        return [room_of(index) for index in range(self.games)]


def room_of(index: int) -> str:
    """The room of the index-th game (a template's for the first TEMPLATES)."""
    return f"t{index}z" if index < TEMPLATES else f"g{index:05d}z"


def user_of(room: str, seat: int) -> str:
    return f"{room}-p{seat}"


def clone_id(index: int) -> str:
    """A game id of the shape the application gives (six of its letters), one per index."""
    letters = "9"
    for _ in range(GAME_ID_LENGTH - 1):
        index, digit = divmod(index, len(GAME_ID_LETTERS))
        letters += GAME_ID_LETTERS[digit]
    return letters


# --- the cache -------------------------------------------------------------------------------


def cached_store(kind: str, url: str | None, games: int) -> tuple[Built, float | None]:
    """The store of `games` open games, built if not kept yet; with the seconds the build took
    (None: it was kept)."""
    CACHE.mkdir(exist_ok=True)
    (CACHE / ".gitignore").write_text("*\n")
    if kind == "sqlite":
        target = str(CACHE / f"sqlite-{games}.db")
        meta = CACHE / f"sqlite-{games}.json"
    else:
        assert url is not None
        target = _in_schema(url, f"scale_{games}")
        meta = CACHE / f"postgres-{make_url(database_url(url)).database}-{games}.json"
    if meta.exists():
        until = datetime.fromisoformat(json.loads(meta.read_text())["played_until"])
        return Built(target, games, until), None
    started = time.monotonic()
    if kind == "sqlite":
        Path(target).unlink(missing_ok=True)
    else:
        _new_schema(url or "", f"scale_{games}")
    until = build(target, games)
    meta.write_text(json.dumps({"played_until": until.isoformat()}))
    return Built(target, games, until), time.monotonic() - started


@contextlib.contextmanager
def working_copy(built: Built, kind: str, url: str | None, folder: Path) -> Iterator[Built]:
    """A copy of a kept store that a measure may change (the kept one brought to the newest
    schema first, as `bohnanza serve` would)."""
    with open_store(built.url, create=True):
        pass
    if kind == "sqlite":
        target = str(folder / "work.db")
        shutil.copyfile(built.url, target)
        yield dataclasses.replace(built, url=target)
        return
    kept, schema = f"scale_{built.games}", f"scale_{built.games}_work"
    _new_schema(url or "", schema)
    target = _in_schema(url or "", schema)
    with open_store(target, create=True):
        pass
    engine = create_engine(database_url(url or ""))
    meta = MetaData(schema=kept)
    meta.reflect(engine)
    with engine.begin() as connection:
        for table in meta.sorted_tables:
            if table.name != "alembic_version":
                columns = ", ".join(f'"{column.name}"' for column in table.columns)
                connection.execute(
                    text(
                        f'INSERT INTO "{schema}"."{table.name}" ({columns}) '
                        f'SELECT {columns} FROM "{kept}"."{table.name}"'
                    )
                )
    try:
        yield dataclasses.replace(built, url=target)
    finally:
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        engine.dispose()


def _in_schema(url: str, schema: str) -> str:
    scoped = make_url(database_url(url)).update_query_dict({"options": f"-csearch_path={schema}"})
    return scoped.render_as_string(hide_password=False)


def _new_schema(url: str, schema: str) -> None:
    engine = create_engine(database_url(url))
    with engine.begin() as connection:
        connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine.dispose()


# --- building --------------------------------------------------------------------------------


def build(target: str, games: int) -> datetime:
    """Play the templates, then clone them up to `games` open games; the moment of the last
    move made."""
    templates = min(games, TEMPLATES)
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)
    with open_store(target, create=True) as store:
        service = ChatService(PLATFORM, CAPABILITIES, store, rng=random.Random(46))
        played = [play_template(service, store, index, start) for index in range(templates)]
        until = max(moment for _, moment in played)
    engine = create_engine(database_url(target))
    for first in range(templates, games, BATCH):
        with engine.begin() as connection:
            for index in range(first, min(games, first + BATCH)):
                template_id = played[index % templates][0]
                _clone(connection, engine, template_id, room_of(index % templates), index)
    engine.dispose()
    return until


def play_template(
    service: ChatService, store: SqlGameStore, index: int, start: datetime
) -> tuple[str, datetime]:
    """Gather, start and play one game to 100-200 actions; its id and last move's moment."""
    rng = random.Random(index)
    room = room_of(index)
    users = [user_of(room, seat) for seat in range(3 + index % 3)]
    now = start

    def say(user: str, command: str) -> None:
        nonlocal now
        now += timedelta(seconds=1)
        service.handle(Inbound(PLATFORM, user, user, room, command), now)

    say(users[0], "new")
    for user in users[1:]:
        say(user, "join")
    say(users[0], f"set deadline {DEADLINE}")
    say(users[0], "start")
    game_id = store.active_game_in(PLATFORM, room)
    assert game_id is not None, f"the game in {room} did not start"
    bots = [make_bot("heuristic", random.Random(rng.random())) for _ in users]
    passed: dict[int, object] = {}
    target = rng.randint(100, 200)
    while len((game := replayed(store, game_id)).actions) < target and not game.is_over:
        moves = next_move(game, bots, passed)
        assert moves is not None, f"game {game_id}: nobody can act"
        seat, command = moves
        say(users[seat], command)
    return game_id, now


def replayed(store: SqlGameStore, game_id: str) -> Game:
    """The game as stored, replayed by the engine."""
    record = store.load_record(game_id)
    orders = [list(order) for order in record.reshuffles]
    game = Game(len(record.seats), record.deck, lambda cards: orders.pop(0))
    for action in record.actions:
        game.apply(action)
    return game


def next_move(game: Game, bots: list[Bot], passed: dict[int, object]) -> tuple[int, str] | None:
    """The next person's move (seat, command), as the scale tests' people choose it."""
    moves = next_moves(game, bots, passed, race=False)
    return None if not moves else (moves[0][0], action_text(moves[0][1]))


def _clone(connection: Any, engine: Engine, template_id: str, room: str, index: int) -> None:
    """Copy one template's rows as game `index`: new id, room and players, chain recomputed."""
    new_room = room_of(index)
    new_id = clone_id(index)

    def renamed(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace(template_id, new_id).replace(room, new_room)
        return value

    rows = _rows_of(connection, engine, template_id)
    copies = {
        table: [{key: renamed(value) for key, value in row.items()} for row in found]
        for table, found in rows.items()
    }
    (game,) = copies["games"]
    seats = sorted(copies["seats"], key=lambda row: row["position"])
    header = _header(game, seats)
    prev = header
    for action in sorted(copies["actions"], key=lambda row: row["seq"]):
        prev = action["hash"] = link_hash(prev, action["payload"], action["reshuffles"])
    game.update(header_hash=header, head_hash=prev)
    for table, found in copies.items():
        if found:
            connection.execute(_table(engine, table).insert(), found)


_reflected: dict[str, Any] = {}
"""The store's tables by name, those others refer to first."""


def _table(engine: Engine, name: str) -> Any:
    if not _reflected:
        meta = MetaData()
        meta.reflect(engine)
        _reflected.update((table.name, table) for table in meta.sorted_tables)
    return _reflected[name]


_template_rows: dict[str, dict[str, list[dict[str, Any]]]] = {}


def _rows_of(connection: Any, engine: Engine, game_id: str) -> dict[str, list[dict[str, Any]]]:
    """A game's rows in every table that holds rows of games (read once per template)."""
    if game_id not in _template_rows:
        _table(engine, "games")
        found: dict[str, list[dict[str, Any]]] = {}
        for name, table in _reflected.items():
            column = "id" if name == "games" else "game_id"
            if column in table.c:
                query = table.select().where(table.c[column] == game_id)
                found[name] = [dict(row._mapping) for row in connection.execute(query)]
        _template_rows[game_id] = found
    return _template_rows[game_id]


def _header(game: dict[str, Any], seats: list[dict[str, Any]]) -> str:
    """The hash that starts a game's chain, as the store computes it from its header."""
    identities = tuple(
        SeatIdentity(s["platform"], s["user_id"], s["name"], s["kind"], s["strategy"])
        for s in seats
    )
    deck = tuple(json.loads(game["deck"]))
    header = NewGame(game["id"], identities, deck, game["created_at"], json.loads(game["options"]))
    return str(header_hash(header))
