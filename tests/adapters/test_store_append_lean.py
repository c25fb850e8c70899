"""Appending a move and the bots' answers: the game's row is moved on by one UPDATE that names
the head the new actions chain to, so a store that remembers a game's head reads nothing back;
what another writer stored first still wins, and nothing of the loser is written."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from bohnanza.adapters.store import SqlGameStore, database_url, open_store
from bohnanza.core.audit import action_payload, audit_game, link_hash, reshuffles_payload
from bohnanza.core.ports import (
    FINISHED,
    Appended,
    AppendResult,
    ChatState,
    Delivery,
    DuplicateDelivery,
    GameFinished,
    SequenceConflict,
    StoredAction,
    UnknownGame,
)

from .games import bot_game, new_game, stored_actions
from .postgres import postgres_url

NOW = datetime(2025, 1, 1, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "games.db") if request.param == "sqlite" else postgres_url()


def run_sql(target: str, statement: str) -> None:
    """Change the database behind the store's back (as another program could)."""
    engine = create_engine(database_url(target))
    with engine.begin() as connection:
        connection.execute(text(statement))
    engine.dispose()


def batches(size_cycle: tuple[int, ...], total: int) -> Iterator[slice]:
    """Consecutive slices of 0..total, their sizes taken in turn from `size_cycle`."""
    start, turn = 0, 0
    while start < total:
        size = size_cycle[turn % len(size_cycle)]
        yield slice(start, min(total, start + size))
        start, turn = start + size, turn + 1


def test_a_whole_game_appended_move_by_move_is_stored_as_if_stored_at_once(target: str) -> None:
    record = bot_game(players=5, seed=4)
    actions = stored_actions(record)
    with open_store(target, create=True) as store:
        store.add_complete_game(new_game(record, "whole"), actions, record.result)
        store.add_game(new_game(record, "moves"))
        for number, part in enumerate(batches((1, 4, 2, 7), len(actions))):
            state = ChatState({"turn": number}, part.stop)
            delivery = Delivery("sim", f"input-{number}")
            outcome = store.append_actions("moves", actions[part], delivery, state)
            assert isinstance(outcome, Appended) and outcome.seq == part.stop - 1
        whole, moves = store.load_stored("whole"), store.load_stored("moves")
        chat_state = store.load_chat_state("moves")
    assert moves.status == FINISHED and moves.result == record.result
    assert audit_game(moves) is None
    assert [(link.payload, link.reshuffles) for link in moves.links] == [
        (link.payload, link.reshuffles) for link in whole.links
    ]
    assert moves.action_count == whole.action_count == len(actions)
    assert chat_state is not None and chat_state.action_count == len(actions)


def test_a_store_that_remembers_an_old_head_is_refused_and_writes_nothing(target: str) -> None:
    record = bot_game()
    actions = stored_actions(record)
    with open_store(target, create=True) as first, open_store(target) as second:
        first.add_game(new_game(record, "g1"))
        assert isinstance(second.append_actions("g1", actions[:2]), Appended)
        before = first.load_stored("g1")

        refused = first.append_actions(
            "g1", actions[:1], Delivery("sim", "late"), ChatState({"late": True}, 1)
        )

        assert refused == SequenceConflict("g1", 0, 2)
        assert first.load_stored("g1") == before
        assert not first.delivery_seen("sim", "late") and first.load_chat_state("g1") is None
        assert isinstance(first.append_actions("g1", actions[2:5]), Appended)
        assert isinstance(second.append_actions("g1", actions[5:6]), Appended)
        assert audit_game(first.load_stored("g1")) is None


def test_an_append_chains_to_the_stored_head_not_to_the_remembered_one(target: str) -> None:
    record = bot_game()
    actions = stored_actions(record)
    with open_store(target, create=True) as store:
        store.add_game(new_game(record, "g1"))
        assert isinstance(store.append_actions("g1", actions[:3]), Appended)
        rewritten = "f" * 64
        run_sql(target, f"UPDATE games SET head_hash = '{rewritten}' WHERE id = 'g1'")

        outcome = store.append_actions("g1", actions[3:4])

        fourth = actions[3]
        expected = link_hash(
            rewritten, action_payload(fourth.action), reshuffles_payload(fourth.reshuffles)
        )
        assert outcome == Appended(3, expected)
        stored = store.load_stored("g1")
    assert stored.head_hash == expected and stored.links[-1].hash == expected


def append_at_once(
    stores: tuple[SqlGameStore, ...], game_id: str, action: StoredAction
) -> list[AppendResult]:
    """Each store appends the same action to the game, all let go at the same moment."""
    barrier = threading.Barrier(len(stores))
    outcomes: list[AppendResult] = []

    def append(store: SqlGameStore) -> None:
        barrier.wait(timeout=30)
        outcomes.append(store.append_actions(game_id, [action]))

    writers = [threading.Thread(target=append, args=(store,)) for store in stores]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=60)
    return outcomes


def test_of_two_stores_appending_the_same_number_at_once_one_wins(target: str) -> None:
    record = bot_game(players=4)
    actions = stored_actions(record)
    rounds = 10
    with open_store(target, create=True) as first, open_store(target) as second:
        first.add_game(new_game(record, "race"))
        outcomes = [
            outcome
            for action in actions[:rounds]
            for outcome in append_at_once((first, second), "race", action)
        ]
        stored = first.load_stored("race")
    won = [o for o in outcomes if isinstance(o, Appended)]
    lost = [o for o in outcomes if isinstance(o, SequenceConflict)]
    assert sorted(o.seq for o in won) == list(range(rounds))
    assert sorted((o.seq, o.next_seq) for o in lost) == [(s, s + 1) for s in range(rounds)]
    assert [link.seq for link in stored.links] == list(range(rounds))
    assert audit_game(stored) is None


def test_a_delivery_seen_before_undoes_the_whole_append(target: str) -> None:
    record = bot_game()
    actions = stored_actions(record)
    with open_store(target, create=True) as store:
        store.add_game(new_game(record, "g1"))
        assert isinstance(store.append_actions("g1", actions[:2], Delivery("sim", "d1")), Appended)
        before = store.load_stored("g1")

        with pytest.raises(DuplicateDelivery):
            store.append_actions("g1", actions[2:4], Delivery("sim", "d1"), ChatState({}, 4))

        assert store.load_stored("g1") == before and store.load_chat_state("g1") is None
        assert isinstance(store.append_actions("g1", actions[2:4], Delivery("sim", "d2")), Appended)
        assert audit_game(store.load_stored("g1")) is None


def test_a_finished_or_unknown_game_is_refused_by_name(target: str) -> None:
    record = bot_game()
    actions = stored_actions(record)
    assert record.result is not None
    with open_store(target, create=True) as store:
        store.add_game(new_game(record, "g1"))
        assert isinstance(store.append_actions("g1", actions[:2]), Appended)
        store.finish_game("g1", record.result)
        with pytest.raises(GameFinished):
            store.append_actions("g1", actions[2:3])
        store.add_game(new_game(record, "g2"))
        assert isinstance(store.append_actions("g2", actions), Appended)
        with pytest.raises(GameFinished):
            store.append_actions("g2", actions[-1:])
        with pytest.raises(UnknownGame):
            store.append_actions("nope", actions[:1])
        assert store.load_stored("g1").action_count == 2
