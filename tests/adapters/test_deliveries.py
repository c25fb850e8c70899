"""An input's delivery id is stored in the transaction of what it changed, so an input that
is delivered again (after a crash, or to a second worker) is applied once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bohnanza.adapters.store import open_store
from bohnanza.core.actions import EndStep
from bohnanza.core.app.ports import GameProgress, ShownView
from bohnanza.core.ports import (
    IN_PROGRESS,
    Appended,
    ChatState,
    ChatStateMoved,
    Delivery,
    DuplicateDelivery,
    SequenceConflict,
    StoredAction,
)

from .postgres import postgres_url
from .test_chat_queries import chat_game

NOW = datetime(2025, 1, 1, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "games.db") if request.param == "sqlite" else postgres_url()


def first_move(seq: int = 0) -> StoredAction:
    # The opening player ends his planting step: legal or not, the store keeps what it is given.
    return StoredAction(seq, EndStep(0), NOW)


def test_a_move_and_its_delivery_are_stored_together_and_a_second_delivery_writes_nothing(
    target: str,
) -> None:
    with open_store(target, create=True) as store:
        store.add_game(chat_game("G1", "r1", ("ann", "bob")))
        state = ChatState({"seats": [], "note": "after move 1"}, 1)
        delivered = Delivery("sim", "update-7")

        assert isinstance(store.append_actions("G1", [first_move()], delivered, state), Appended)
        assert store.delivery_seen("sim", "update-7")
        assert not store.delivery_seen("other", "update-7")

        with pytest.raises(DuplicateDelivery):
            store.append_actions("G1", [first_move(1)], delivered, ChatState({"x": 1}, 2))
        progress = store.game_progress("G1")
        assert progress is not None and progress.actions == 1
        kept = store.load_chat_state("G1")
        assert kept is not None and kept.data["note"] == "after move 1" and kept.action_count == 1


def test_the_delivery_and_the_games_progress_are_read_in_one_look_up(target: str) -> None:
    with open_store(target, create=True) as store:
        store.add_game(chat_game("G1", "r1", ("ann", "bob")))
        assert store.delivery_seen_and_progress("sim", "update-8", "G1") == (
            False,
            GameProgress(IN_PROGRESS, 0),
        )
        store.append_actions("G1", [first_move()], Delivery("sim", "update-8"), None)
        assert store.delivery_seen_and_progress("sim", "update-8", "G1") == (
            True,
            GameProgress(IN_PROGRESS, 1),
        )
        assert store.delivery_seen_and_progress("sim", "update-9", "nope") == (False, None)


def test_the_delivery_and_the_game_in_progress_in_a_room_are_read_in_one_look_up(
    target: str,
) -> None:
    with open_store(target, create=True) as store:
        store.add_game(chat_game("G1", "r1", ("ann", "bob")))
        assert store.delivery_seen_and_room_game("sim", "update-8", "r1") == (False, "G1")
        store.append_actions("G1", [first_move()], Delivery("sim", "update-8"), None)
        assert store.delivery_seen_and_room_game("sim", "update-8", "r1") == (True, "G1")
        assert store.delivery_seen_and_room_game("sim", "update-8", "r2") == (True, None)
        assert store.delivery_seen_and_room_game("other", "update-8", "r1") == (False, None)


def test_a_refused_append_stores_neither_its_delivery_nor_its_chat_state(target: str) -> None:
    with open_store(target, create=True) as store:
        store.add_game(chat_game("G1", "r1", ("ann", "bob")))
        outcome = store.append_actions(
            "G1", [first_move(3)], Delivery("sim", "u1"), ChatState({"a": 1}, 4)
        )
        assert isinstance(outcome, SequenceConflict)
        assert not store.delivery_seen("sim", "u1")
        assert store.load_chat_state("G1") is None


def test_an_input_that_changed_nothing_is_noted_once_and_old_ids_expire(target: str) -> None:
    with open_store(target, create=True) as store:
        assert store.record_delivery("sim", "d1", NOW)
        assert not store.record_delivery("sim", "d1", NOW)
        assert store.record_delivery("sim", "d2", NOW + timedelta(days=3))
        assert store.forget_deliveries(NOW + timedelta(days=1)) == 1
        assert not store.delivery_seen("sim", "d1")
        assert store.delivery_seen("sim", "d2")


def test_a_lobby_change_and_its_delivery_are_one_write(target: str) -> None:
    with open_store(target, create=True) as store:
        assert store.save_lobby("sim", "r", {"seats": ["ann"]}, 0, NOW, Delivery("sim", "j1"))
        with pytest.raises(DuplicateDelivery):
            store.save_lobby("sim", "r", {"seats": ["ann", "x"]}, 1, NOW, Delivery("sim", "j1"))
        lobby = store.load_lobby("sim", "r")
        assert lobby is not None and lobby.data == {"seats": ["ann"]} and lobby.version == 1


def test_a_started_game_takes_its_lobby_in_the_same_transaction(target: str) -> None:
    with open_store(target, create=True) as store:
        game = chat_game("G1", "r1", ("ann", "bob"))
        assert store.save_lobby("sim", "r1", {"seats": ["ann", "bob"]}, 0, NOW)
        assert not store.start_game(game, 7)  # a lobby version that is not the stored one
        assert store.load_lobby("sim", "r1") is not None
        assert store.game_progress("G1") is None

        assert store.start_game(game, 1, Delivery("sim", "start-1"))
        assert store.load_lobby("sim", "r1") is None
        assert store.active_game_in("sim", "r1") == "G1"
        assert store.delivery_seen("sim", "start-1")


def test_what_a_chat_shows_is_kept_per_slot(target: str) -> None:
    with open_store(target, create=True) as store:
        assert store.load_view("sim", "r:1", "table:G1") is None
        store.save_view("sim", "r:1", "table:G1", ShownView("m1", "aaa"), NOW)
        store.save_view("sim", "r:1", "table:G1", ShownView("m2", "bbb"), NOW)
        store.save_view("sim", "u:ann", "hand:G1", ShownView("m3", "ccc"), NOW)
        assert store.load_view("sim", "r:1", "table:G1") == ShownView("m2", "bbb")
        assert store.load_view("sim", "u:ann", "hand:G1") == ShownView("m3", "ccc")
        assert store.load_view("other", "r:1", "table:G1") is None


def test_a_chat_state_written_over_a_version_another_replaced_is_refused_and_writes_nothing(
    target: str,
) -> None:
    with open_store(target, create=True) as store:
        store.add_game(chat_game("G1", "r1", ("ann", "bob")))
        # Two workers read the game with no chat state (version 0); the first one writes.
        store.append_actions("G1", [first_move()], None, ChatState({"shown": "one"}, 1, 0))
        progress = store.game_progress("G1")
        assert progress is not None and progress.chat_version == 1
        # The second, behind, writes what it showed over the version it read: refused.
        with pytest.raises(ChatStateMoved):
            store.save_chat_state("G1", ChatState({"shown": "two"}, 1, 0), NOW)
        with pytest.raises(ChatStateMoved):
            store.append_actions("G1", [first_move(1)], None, ChatState({"shown": "two"}, 2, 0))
        kept = store.load_chat_state("G1")
        assert kept is not None and kept.data == {"shown": "one"} and kept.version == 1
        assert store.delivery_seen_and_progress("sim", "d", "G1")[1] == GameProgress(
            IN_PROGRESS, 1, 1
        )
        # Over the version it read again, it is written.
        store.save_chat_state("G1", ChatState({"shown": "two"}, 1, 1), NOW)
        kept = store.load_chat_state("G1")
        assert kept is not None and kept.data == {"shown": "two"} and kept.version == 2
        # A write naming no version replaces whatever is stored.
        store.save_chat_state("G1", ChatState({"shown": "three"}, 1), NOW)
        kept = store.load_chat_state("G1")
        assert kept is not None and kept.version == 3
