"""A worker process for the scale-out tests: one `ChatService` of platform "sim" on a shared store.

Run as `python -m tests.scale.worker URL`. It reads one command per line on stdin (JSON: id,
user, room, text) and answers each on stdout, after the command was handled to its end, with
what it acknowledged: the actions it stored (game, seq, payload) and the game it started, and
the store's round trips it took (statements and commits) and the processor time it spent. A
command is acknowledged only once its actions are durably stored, as a chat bot confirms a
move only after storing it. Commands are handled one at a time, as the runner does.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

from bohnanza.adapters.store import SqlGameStore, open_store, prepared
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Reply
from bohnanza.core.app.ports import Capabilities
from bohnanza.core.app.service import ChatService
from bohnanza.core.audit import action_payload, reshuffles_payload
from bohnanza.core.ports import (
    Appended,
    AppendResult,
    ChatState,
    Delivery,
    NewGame,
    StoredAction,
)

PLATFORM = "sim"
CAPABILITIES = Capabilities(buttons=False, edits=True, private_messages=True)


class RecordingStore:
    """The store, noting each action it stored and each game it added for this command."""

    def __init__(self, store: SqlGameStore) -> None:
        self._store = store
        self.stored: list[list[Any]] = []
        self.started: dict[str, Any] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def start_game(
        self, game: NewGame, lobby_version: int, delivery: Delivery | None = None
    ) -> bool:
        started = self._store.start_game(game, lobby_version, delivery)
        if started:
            self.started = {
                "id": game.game_id,
                "deck": list(game.deck),
                "players": len(game.seats),
            }
        return started

    def append_actions(
        self,
        game_id: str,
        actions: Sequence[StoredAction],
        delivery: Delivery | None = None,
        chat_state: ChatState | None = None,
    ) -> AppendResult:
        outcome = self._store.append_actions(game_id, actions, delivery, chat_state)
        if isinstance(outcome, Appended):
            for stored in actions:
                self.stored.append(
                    [
                        game_id,
                        stored.seq,
                        action_payload(stored.action),
                        reshuffles_payload(stored.reshuffles),
                    ]
                )
        return outcome

    def append_action(self, game_id: str, action: StoredAction) -> AppendResult:
        return self.append_actions(game_id, (action,))


class RoundTrips:
    """Statements and commits sent to any store of this process (for bench/): through
    SQLAlchemy, and those compiled once and run on the driver's cursor (`prepared.py`)."""

    def __init__(self) -> None:
        self.count = 0
        event.listen(Engine, "before_cursor_execute", self._one)
        event.listen(Engine, "commit", self._one)
        run = prepared._run

        def counted(*arguments: Any, **keywords: Any) -> Any:
            self._one()
            return run(*arguments, **keywords)

        prepared._run = counted

    def _one(self, *_: Any) -> None:
        self.count += 1


def serve(url: str, seed: int) -> None:
    trips = RoundTrips()
    store = RecordingStore(open_store(url))
    service = ChatService(PLATFORM, CAPABILITIES, store, rng=random.Random(seed))  # type: ignore[arg-type]
    service.resume(datetime.now(UTC))
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        store.stored, store.started = [], None
        before, cpu = trips.count, time.process_time()
        inbound = Inbound(
            PLATFORM,
            str(request["user"]),
            str(request["user"]),
            str(request["room"]),
            str(request["text"]),
            delivery_id=str(request["id"]),
        )
        out = service.handle(inbound, datetime.now(UTC))
        replies = [item.text for item in out if isinstance(item, Reply)]
        answer = {"id": request["id"], "acked": store.stored, "game": store.started}
        answer["replies"] = replies
        answer["trips"] = trips.count - before
        answer["cpu"] = time.process_time() - cpu
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0)
