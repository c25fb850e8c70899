"""A unit of work (`atomic`): everything an input writes is one transaction, on SQLite and
PostgreSQL: one commit, all or nothing, conflicts reported as before, unseen until the end."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from bohnanza.adapters.store import open_store
from bohnanza.adapters.store.sql_store import SqlGameStore
from bohnanza.core.app.ports import ShownView
from bohnanza.core.ports import Appended, ChatState, Delivery, DuplicateDelivery

from .games import bot_game, new_game, stored_actions
from .postgres import postgres_url

NOW = datetime(2024, 5, 1, 19, 0, tzinfo=UTC)


class Interrupted(Exception):
    """Raised by a test out of a unit of work, after its writes."""


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "unit.db")
    return postgres_url()


@pytest.fixture
def store(target: str) -> Iterator[SqlGameStore]:
    with open_store(target, create=True) as opened:
        opened.add_game(new_game(bot_game(players=4), "g1"))
        yield opened


@contextmanager
def counted_commits(store: SqlGameStore) -> Iterator[list[Any]]:
    """The COMMITs the store's engine makes inside the block, one entry each."""
    commits: list[Any] = []

    def on_commit(connection: Any) -> None:
        commits.append(connection)

    engine = store._engine
    event.listen(engine, "commit", on_commit)
    try:
        yield commits
    finally:
        event.remove(engine, "commit", on_commit)


def write_an_input(store: SqlGameStore, delivery_id: str = "d1") -> None:
    """What one input may write: actions with their delivery and chat state, a lobby, a
    player's settings, what a chat shows, a seat's claim dropped, another delivery."""
    actions = stored_actions(bot_game(players=4))[:5]
    state = ChatState({"turn": 5}, 5)
    outcome = store.append_actions("g1", actions, Delivery("sim", delivery_id), state)
    assert isinstance(outcome, Appended)
    assert store.save_lobby("sim", "room", {"seats": ["ann"]}, 0, NOW)
    store.save_player_settings("sim", "ann", {"notify": "off"}, NOW)
    store.save_view("sim", "room", "table:g1", ShownView("m7", "digest"), NOW)
    store.drop_seat_claim("g1", 0)
    assert store.record_delivery("sim", delivery_id + "-noted", NOW)


def assert_input_stored(store: SqlGameStore) -> None:
    assert store.game_progress("g1").actions == 5  # type: ignore[union-attr]
    assert store.load_chat_state("g1") == ChatState({"turn": 5}, 5)
    assert store.delivery_seen("sim", "d1")
    assert store.delivery_seen("sim", "d1-noted")
    assert store.load_lobby("sim", "room").data == {"seats": ["ann"]}  # type: ignore[union-attr]
    assert store.load_player_settings("sim", "ann") == {"notify": "off"}
    assert store.load_view("sim", "room", "table:g1") == ShownView("m7", "digest")


def assert_nothing_stored(store: SqlGameStore) -> None:
    assert store.game_progress("g1").actions == 0  # type: ignore[union-attr]
    assert store.load_chat_state("g1") is None
    assert not store.delivery_seen("sim", "d1")
    assert not store.delivery_seen("sim", "d1-noted")
    assert store.load_lobby("sim", "room") is None
    assert store.load_player_settings("sim", "ann") == {}
    assert store.load_view("sim", "room", "table:g1") is None


def test_everything_an_input_writes_is_committed_together_with_one_commit(
    store: SqlGameStore, target: str
) -> None:
    with counted_commits(store) as commits:
        with store.atomic():
            write_an_input(store)
            # Reads inside see what was written before them.
            assert store.game_progress("g1").actions == 5  # type: ignore[union-attr]
            assert store.delivery_seen("sim", "d1")
        assert len(commits) == 1
    with open_store(target) as other:
        assert_input_stored(other)


def test_writes_inside_a_unit_are_unseen_by_another_store_until_it_ends(
    store: SqlGameStore, target: str
) -> None:
    with open_store(target) as other:
        with store.atomic():
            write_an_input(store)
            assert_nothing_stored(other)
        assert_input_stored(other)


def test_an_error_after_writes_leaves_none_of_them_stored(store: SqlGameStore, target: str) -> None:
    with counted_commits(store) as commits, pytest.raises(Interrupted), store.atomic():
        write_an_input(store)
        raise Interrupted
    assert commits == []
    assert_nothing_stored(store)
    with open_store(target) as other:
        assert_nothing_stored(other)


def test_the_head_of_a_game_rolled_back_is_not_remembered(store: SqlGameStore) -> None:
    actions = stored_actions(bot_game(players=4))
    with pytest.raises(Interrupted), store.atomic():
        assert isinstance(store.append_actions("g1", actions[:5]), Appended)
        raise Interrupted
    assert store._heads.get("g1") is None
    # The game goes on from where it is stored, not from where the rolled-back block left it.
    assert isinstance(store.append_actions("g1", actions[:3]), Appended)
    assert store._heads.get("g1") is not None
    assert isinstance(store.append_actions("g1", actions[3:8]), Appended)
    assert store.load_stored("g1").action_count == 8


def test_a_lobby_saved_over_a_stale_version_inside_a_unit_is_refused_and_the_unit_goes_on(
    store: SqlGameStore,
) -> None:
    assert store.save_lobby("sim", "room", {"seats": ["ann"]}, 0, NOW)
    assert store.save_lobby("sim", "room", {"seats": ["ann", "bob"]}, 1, NOW)
    with counted_commits(store) as commits, store.atomic():
        assert not store.save_lobby("sim", "room", {"seats": ["cat"]}, 1, NOW)
        # Taken: its delivery, written before the lobby was refused, goes with it.
        assert not store.save_lobby(
            "sim", "room", {"seats": ["dan"]}, 0, NOW, Delivery("sim", "d9")
        )
        assert store.save_player_settings("sim", "ann", {"notify": "off"}, NOW) is None
        assert store.save_lobby("sim", "room", {"seats": ["ann", "bob", "cat"]}, 2, NOW)
    assert len(commits) == 1
    lobby = store.load_lobby("sim", "room")
    assert lobby is not None and lobby.data == {"seats": ["ann", "bob", "cat"]}
    assert lobby.version == 3
    assert store.load_player_settings("sim", "ann") == {"notify": "off"}
    assert not store.delivery_seen("sim", "d9")


def test_an_input_applied_already_rolls_back_the_unit_it_raises_out_of(
    store: SqlGameStore,
) -> None:
    assert store.record_delivery("sim", "d1", NOW)
    actions = stored_actions(bot_game(players=4))
    with pytest.raises(DuplicateDelivery), store.atomic():
        store.save_player_settings("sim", "ann", {"notify": "off"}, NOW)
        store.append_actions("g1", actions[:5], Delivery("sim", "d1"))
    assert store.load_player_settings("sim", "ann") == {}
    assert store.game_progress("g1").actions == 0  # type: ignore[union-attr]


def test_a_unit_opened_inside_another_joins_it(store: SqlGameStore, target: str) -> None:
    with counted_commits(store) as commits, store.atomic():
        with store.atomic():
            write_an_input(store)
        with open_store(target) as other:
            assert_nothing_stored(other)
    assert len(commits) == 1
    assert_input_stored(store)
    with pytest.raises(Interrupted), store.atomic():
        with store.atomic():
            store.save_player_settings("sim", "bob", {"notify": "off"}, NOW)
        raise Interrupted
    assert store.load_player_settings("sim", "bob") == {}


def test_another_thread_does_not_use_the_units_connection(store: SqlGameStore) -> None:
    seen: list[object] = []

    def reading() -> None:
        seen.append(store.load_player_settings("sim", "ann"))
        seen.append(store.delivery_seen("sim", "d1"))

    with store.atomic():
        write_an_input(store)
        reader = threading.Thread(target=reading)
        reader.start()
        reader.join(timeout=60)
    assert seen == [{}, False]  # read on a connection of its own, before the commit
    assert_input_stored(store)
