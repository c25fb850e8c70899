"""Reading stored games: a game as stored, as a record, every game in one pass, the list.

A mixin of `SqlGameStore`: each read is one snapshot (`_snapshot`), so a game being written to
is read as it was after one of its appends. What is read is checked for shape here (times,
options, deck, result): a game whose stored values cannot be read is an `UnreadableGame`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from itertools import groupby
from typing import Any

from sqlalchemy import Text, select, type_coerce
from sqlalchemy.engine import Connection
from sqlmodel import col

from bohnanza.core.ports import (
    ChainLink,
    GameSummary,
    NewGame,
    SeatIdentity,
    StoredGame,
    UnknownGame,
    UnreadableGame,
)
from bohnanza.core.record import GameRecord
from bohnanza.core.scoring import GameResult

from .appends import Head, utc
from .tables import ActionRow, GameRow, SeatRow

_GAME_COLUMNS = (
    col(GameRow.id),
    col(GameRow.players),
    col(GameRow.status),
    col(GameRow.options),
    col(GameRow.deck),
    type_coerce(col(GameRow.created_at), Text).label("created_at"),
    col(GameRow.result),
    col(GameRow.header_hash),
    col(GameRow.action_count),
    col(GameRow.head_hash),
)
_SEAT_COLUMNS = (
    col(SeatRow.game_id),
    col(SeatRow.position),
    col(SeatRow.platform),
    col(SeatRow.user_id),
    col(SeatRow.name),
    col(SeatRow.kind),
    col(SeatRow.strategy),
)
_LINK_COLUMNS = (
    col(ActionRow.game_id),
    col(ActionRow.seq),
    col(ActionRow.payload),
    col(ActionRow.reshuffles),
    col(ActionRow.hash),
)


UNKNOWN_TIME = datetime.min.replace(tzinfo=UTC)
"""The creation time listed for a game whose stored one cannot be read."""


class GameReads:
    """Stored games read back, on the store's database."""

    def _transaction(self, write: bool) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def _snapshot(self) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    # --- reading --------------------------------------------------------------------------

    def last_action_at(self, game_id: str) -> datetime | None:
        """When the game's last action was stored (None: it has none yet); UnreadableGame if
        that time is not one."""
        with self._transaction(write=False) as connection:
            at = connection.execute(
                select(type_coerce(col(ActionRow.at), Text))
                .where(col(ActionRow.game_id) == game_id)
                .order_by(col(ActionRow.seq).desc())
                .limit(1)
            ).scalar()
        if at is None:
            return None
        try:
            return stored_time(at)
        except ValueError:
            raise UnreadableGame(
                game_id, "the stored time of its last action is not a time"
            ) from None

    def load_stored(self, game_id: str) -> StoredGame:
        """The game exactly as stored."""
        for game in self.stored_games([game_id]):
            if isinstance(game, UnreadableGame):
                raise game
            if len(game.links) == game.action_count:
                # The next append of this store to the game then reads nothing first.
                self._head_read(game_id, Head(game.action_count, game.head_hash))
            return game
        raise UnknownGame(game_id)

    def _head_read(self, game_id: str, head: Head) -> None:
        raise NotImplementedError

    def load_record(self, game_id: str) -> GameRecord:
        """The game as a portable record (its actions checked for shape, not yet for rules)."""
        return self.load_stored(game_id).record()

    def stored_games(
        self, game_ids: Sequence[str] | None = None, with_actions: bool = True
    ) -> Iterator[StoredGame | UnreadableGame]:
        """Every stored game (or those named), oldest first by id, read in one pass and one
        snapshot: a game being written to is read as it was after one of its appends.

        Without actions, only what is fixed before the first action is read (for a cheap
        check of the header): each game comes with no links.
        """
        with self._snapshot() as connection:
            games_query = select(*_GAME_COLUMNS).order_by(col(GameRow.id))
            seats_query = select(*_SEAT_COLUMNS).order_by(
                col(SeatRow.game_id), col(SeatRow.position)
            )
            links_query = select(*_LINK_COLUMNS).order_by(
                col(ActionRow.game_id), col(ActionRow.seq)
            )
            if game_ids is not None:
                games_query = games_query.where(col(GameRow.id).in_(game_ids))
                seats_query = seats_query.where(col(SeatRow.game_id).in_(game_ids))
                links_query = links_query.where(col(ActionRow.game_id).in_(game_ids))
            games = connection.execute(games_query).all()
            seats = {
                game_id: list(rows)
                for game_id, rows in groupby(
                    connection.execute(seats_query).all(), key=lambda r: str(r[0])
                )
            }
            chains: Iterator[tuple[str, list[ChainLink]]] = iter(())
            if with_actions:
                # Options of this statement only: the connection may be kept for later ones.
                rows = connection.execute(links_query.execution_options(yield_per=10_000))
                chains = _chains(rows.partitions())
            for game, chain in zip(games, _matched(games, chains), strict=True):
                yield _stored_game(game, seats.get(game.id, []), chain)

    def list_games(self) -> list[GameSummary]:
        """Every stored game, oldest first (read in one snapshot)."""
        with self._snapshot() as connection:
            games = connection.execute(
                select(
                    col(GameRow.id),
                    col(GameRow.status),
                    type_coerce(col(GameRow.created_at), Text),
                    col(GameRow.action_count),
                    col(GameRow.result),
                ).order_by(col(GameRow.created_at), col(GameRow.id))
            ).all()
            names: dict[str, list[str]] = {}
            for game_id, name in connection.execute(
                select(col(SeatRow.game_id), col(SeatRow.name)).order_by(
                    col(SeatRow.game_id), col(SeatRow.position)
                )
            ):
                names.setdefault(game_id, []).append(name)
        summaries = []
        for game_id, status, created_at, count, result in games:
            try:
                parsed = _result(result, len(names.get(game_id, [])))
            except ValueError:
                parsed = None
            summaries.append(
                GameSummary(
                    game_id,
                    tuple(names.get(game_id, [])),
                    status,
                    listed_time(created_at),
                    count,
                    parsed,
                )
            )
        return summaries


# --- rows -> values ---------------------------------------------------------------------------


def stored_time(value: object) -> datetime:
    """A time column read as it is stored (SQLite keeps text, which anyone may overwrite):
    ValueError if it is not a time."""
    if isinstance(value, datetime):
        return utc(value)
    if isinstance(value, str):
        return utc(datetime.fromisoformat(value))
    raise ValueError("not a time")


def listed_time(value: object) -> datetime:
    """A game's creation time for a listing or an order: UNKNOWN_TIME when it cannot be read."""
    try:
        return stored_time(value)
    except ValueError:
        return UNKNOWN_TIME


def _chains(batches: Iterable[Sequence[Sequence[Any]]]) -> Iterator[tuple[str, list[ChainLink]]]:
    """Each game's stored actions from batches of rows ordered by game and sequence number.

    Rows come a batch at a time (the audit reads every action of the store), not one by one.
    """
    game_id: str | None = None
    chain: list[ChainLink] = []
    for batch in batches:
        for row_game, seq, payload, reshuffles, hash_ in batch:
            if row_game != game_id:
                if game_id is not None:
                    yield game_id, chain
                game_id, chain = str(row_game), []
            chain.append(ChainLink(seq, payload, reshuffles, hash_))
    if game_id is not None:
        yield game_id, chain


def _matched(
    games: Sequence[Any], chains: Iterator[tuple[str, list[ChainLink]]]
) -> Iterator[list[ChainLink]]:
    """Each game's chain (empty if it has no actions), from chains in the games' order.

    Both come sorted by the database, whose collation need not be Python's: a chain is matched
    by equal ids, and one of a game not in `games` (stored without its game) is passed over.
    """
    ahead = {game.id for game in games}
    pending = next(chains, None)
    for game in games:
        while pending is not None and pending[0] != game.id and pending[0] not in ahead:
            pending = next(chains, None)
        ahead.discard(game.id)
        if pending is not None and pending[0] == game.id:
            yield pending[1]
            pending = next(chains, None)
        else:
            yield []


def _stored_game(
    game: Any, seats: Sequence[Sequence[Any]], links: Sequence[ChainLink]
) -> StoredGame | UnreadableGame:
    try:
        created_at = stored_time(game.created_at)
    except ValueError:
        return UnreadableGame(game.id, "its stored creation time is not a time")
    try:
        options = json.loads(game.options)
        deck = json.loads(game.deck)
        if not isinstance(options, dict) or not isinstance(deck, list):
            raise ValueError("options or deck of the wrong shape")
        result = _result(game.result, int(game.players))
    except ValueError as error:
        return UnreadableGame(game.id, f"its stored options, deck or result: {error}")
    identities = tuple(
        SeatIdentity(platform, user_id, name, kind, strategy)
        for _, _, platform, user_id, name, kind, strategy in seats
    )
    return StoredGame(
        game=NewGame(game.id, identities, tuple(deck), created_at, options),
        header_hash=game.header_hash,
        links=tuple(links),
        action_count=game.action_count,
        head_hash=game.head_hash,
        status=game.status,
        result=result,
    )


def _result(text: str | None, players: int) -> GameResult | None:
    if text is None:
        return None
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("the result is not an object")
    lists = [data.get(key) for key in ("scores", "hand_sizes", "winners")]
    if not all(isinstance(v, list) and all(isinstance(x, int) for x in v) for v in lists):
        raise ValueError("the result's scores, hand sizes and winners must be lists of integers")
    scores, hand_sizes, winners = (tuple(v) for v in lists if isinstance(v, list))
    if len(scores) != players or len(hand_sizes) != players:
        raise ValueError("the result does not have one score per seat")
    return GameResult(scores, hand_sizes, winners)
