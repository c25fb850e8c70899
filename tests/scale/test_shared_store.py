"""Two chat services on one store, as two workers: a game started on one goes on through the
other, each notices when the other moved the game on, and lobbies are shared."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bohnanza.adapters.store import SqlGameStore, open_store
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Reply
from bohnanza.core.app.service import ChatService
from bohnanza.core.audit import audit_game
from bohnanza.core.bots import make_bot
from bohnanza.core.notation import action_text
from bohnanza.core.record import replay

from .worker import CAPABILITIES, PLATFORM

pytestmark = pytest.mark.server  # worker processes on one store

NOW = datetime(2025, 1, 1, tzinfo=UTC)


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[tuple[ChatService, ChatService, SqlGameStore]]:
    db = str(tmp_path / "shared.db")
    with open_store(db, create=True) as one, open_store(db) as two, open_store(db) as reader:
        yield (
            ChatService(PLATFORM, CAPABILITIES, one, rng=random.Random(1)),
            ChatService(PLATFORM, CAPABILITIES, two, rng=random.Random(2)),
            reader,
        )


def say(service: ChatService, user: str, text: str, room: str = "room") -> list[str]:
    out = service.handle(Inbound(PLATFORM, user, user, room, text), NOW)
    return [item.text for item in out if isinstance(item, Reply)]


def test_a_lobby_opened_on_one_worker_is_joined_and_started_on_the_other(
    workers: tuple[ChatService, ChatService, SqlGameStore],
) -> None:
    one, two, store = workers
    assert say(one, "ann", "new") == []
    assert say(two, "bob", "join") == []
    assert say(two, "bob", "join") == ["You have already joined."]
    assert say(one, "ann", "start") == []
    game_id = store.active_game_in(PLATFORM, "room")
    assert game_id is not None
    assert store.load_lobby(PLATFORM, "room") is None
    assert say(two, "cat", "new") == ["A game is already being played here."]


def test_moves_alternating_between_workers_are_all_stored_once_in_order(
    workers: tuple[ChatService, ChatService, SqlGameStore],
) -> None:
    one, two, store = workers
    say(one, "ann", "new")
    say(one, "bob", "join")
    say(two, "ann", "start")
    game_id = store.active_game_in(PLATFORM, "room")
    assert game_id is not None
    users = ["ann", "bob"]
    bots = [make_bot("heuristic", random.Random(seat)) for seat in range(2)]
    for step in range(60):
        game = replay(store.load_record(game_id))
        seat = game.waiting_for()[0]
        action = bots[seat].choose(game.view(seat), game.legal_actions(seat))
        assert action is not None
        before = len(game.actions)
        worker = (one, two)[step % 2]
        replies = say(worker, users[seat], action_text(action))
        # Only the brief word that it was taken (where answers are not personal).
        assert not [r for r in replies if not r.startswith("✓")], replies
        progress = store.game_progress(game_id)
        assert progress is not None and progress.actions == before + 1
    stored = store.load_stored(game_id)
    assert [link.seq for link in stored.links] == list(range(60))
    assert audit_game(stored) is None


def test_a_worker_finds_a_players_games_by_the_seats(
    workers: tuple[ChatService, ChatService, SqlGameStore],
) -> None:
    one, two, store = workers
    say(one, "ann", "new")
    say(one, "bob", "join")
    say(one, "ann", "start")
    hands = two.hand_of("bob")
    assert len(hands) == 1 and hands[0].text.startswith("Game ")
    assert store.active_games_of(PLATFORM, "bob") == [store.active_game_in(PLATFORM, "room")]
    assert store.active_games_of(PLATFORM, "nobody") == []
