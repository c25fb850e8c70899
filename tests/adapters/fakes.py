"""An in-memory `GameStore` for unit tests: it keeps what it is given, chained the same way."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import UTC

from bohnanza.core.audit import action_payload, header_hash, link_hash, reshuffles_payload
from bohnanza.core.ports import (
    FINISHED,
    IN_PROGRESS,
    Appended,
    AppendResult,
    ChainLink,
    DuplicateGame,
    GameFinished,
    GameSummary,
    NewGame,
    SequenceConflict,
    StoredAction,
    StoredGame,
    UnknownGame,
    UnreadableGame,
)
from bohnanza.core.record import GameRecord
from bohnanza.core.scoring import GameResult


class FakeGameStore:
    """Keeps games in a dict; `appended` lists every action it accepted, in order."""

    def __init__(self) -> None:
        self.games: dict[str, StoredGame] = {}
        self.appended: list[tuple[str, StoredAction]] = []

    def add_game(self, game: NewGame) -> None:
        self.add_complete_game(game, (), None)

    def add_complete_game(
        self, game: NewGame, actions: Sequence[StoredAction], result: GameResult | None
    ) -> None:
        if game.game_id in self.games:
            raise DuplicateGame(game.game_id)
        game = replace(game, created_at=game.created_at.astimezone(UTC))
        head = header_hash(game)
        stored = StoredGame(game, head, (), 0, head, IN_PROGRESS, None)
        for action in actions:
            stored = _appended(stored, action)
        if result is not None:
            stored = replace(stored, status=FINISHED, result=result)
        self.games[game.game_id] = stored

    def append_action(self, game_id: str, action: StoredAction) -> AppendResult:
        stored = self.load_stored(game_id)
        if stored.status == FINISHED:
            raise GameFinished(game_id)
        if action.seq != stored.action_count:
            return SequenceConflict(game_id, action.seq, stored.action_count)
        stored = _appended(stored, action)
        if action.result is not None:
            stored = replace(stored, status=FINISHED, result=action.result)
        self.games[game_id] = stored
        self.appended.append((game_id, action))
        return Appended(action.seq, stored.head_hash)

    def append_actions(self, game_id: str, actions: Sequence[StoredAction]) -> AppendResult:
        before = self.games.get(game_id)
        outcome: AppendResult = SequenceConflict(game_id, actions[0].seq, 0)
        for action in actions:
            outcome = self.append_action(game_id, action)
            if isinstance(outcome, SequenceConflict):
                if before is not None:
                    self.games[game_id] = before
                return SequenceConflict(game_id, actions[0].seq, outcome.next_seq)
        return outcome

    def finish_game(self, game_id: str, result: GameResult) -> None:
        self.games[game_id] = replace(self.load_stored(game_id), status=FINISHED, result=result)

    def load_stored(self, game_id: str) -> StoredGame:
        if game_id not in self.games:
            raise UnknownGame(game_id)
        return self.games[game_id]

    def load_record(self, game_id: str) -> GameRecord:
        return self.load_stored(game_id).record()

    def stored_games(
        self, game_ids: Sequence[str] | None = None
    ) -> Iterator[StoredGame | UnreadableGame]:
        for game_id in sorted(self.games):
            if game_ids is None or game_id in game_ids:
                yield self.games[game_id]

    def list_games(self) -> list[GameSummary]:
        return [
            GameSummary(
                g.game.game_id,
                tuple(s.name for s in g.game.seats),
                g.status,
                g.game.created_at,
                g.action_count,
                g.result,
            )
            for g in sorted(self.games.values(), key=lambda g: (g.game.created_at, g.game.game_id))
        ]


def _appended(stored: StoredGame, action: StoredAction) -> StoredGame:
    payload = action_payload(action.action)
    reshuffles = reshuffles_payload(action.reshuffles)
    new_hash = link_hash(stored.head_hash, payload, reshuffles)
    link = ChainLink(action.seq, payload, reshuffles, new_hash)
    return replace(
        stored,
        links=(*stored.links, link),
        action_count=stored.action_count + 1,
        head_hash=new_hash,
    )
