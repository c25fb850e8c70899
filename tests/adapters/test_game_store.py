"""The GameStore contract, held by the fake, the SQLite store and the PostgreSQL store alike."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from bohnanza.core.actions import EndStep
from bohnanza.core.audit import audit_game
from bohnanza.core.ports import (
    FINISHED,
    IN_PROGRESS,
    Appended,
    DuplicateGame,
    GameFinished,
    GameStore,
    SequenceConflict,
    UnknownGame,
)
from bohnanza.core.record import replay

from .games import bot_game, new_game, stored_actions


def test_a_new_game_loads_back_with_its_seats_deck_and_options(store: GameStore) -> None:
    record = bot_game()
    store.add_game(new_game(record, "g1"))
    loaded = store.load_record("g1")
    assert loaded.game_id == "g1"
    assert loaded.seats == record.seats
    assert loaded.deck == record.deck
    assert loaded.options == record.options
    assert loaded.actions == () and loaded.result is None
    stored = store.load_stored("g1")
    assert [s.platform for s in stored.game.seats] == ["telegram"] * 3
    assert [s.user_id for s in stored.game.seats] == ["1000", "1001", "1002"]
    assert stored.status == IN_PROGRESS


def test_actions_appended_one_by_one_replay_to_the_same_game(store: GameStore) -> None:
    record = bot_game()
    store.add_game(new_game(record, "g1"))
    actions = stored_actions(record)
    assert any(a.reshuffles for a in actions), "the game should reshuffle at least once"
    hashes = []
    for action in actions:
        appended = store.append_action("g1", action)
        assert isinstance(appended, Appended) and appended.seq == action.seq
        hashes.append(appended.hash)
    loaded = store.load_record("g1")
    assert loaded.actions == record.actions
    assert loaded.reshuffles == record.reshuffles
    assert loaded.result == record.result
    assert replay(loaded).result() == record.result
    stored = store.load_stored("g1")
    assert [link.hash for link in stored.links] == hashes
    assert len(set(hashes)) == len(hashes)
    assert audit_game(stored) is None


def test_the_action_that_ends_the_game_also_stores_its_result(store: GameStore) -> None:
    record = bot_game()
    store.add_game(new_game(record, "g1"))
    for action in stored_actions(record):
        store.append_action("g1", action)
    stored = store.load_stored("g1")
    assert stored.status == FINISHED and stored.result == record.result
    [summary] = store.list_games()
    assert summary.status == FINISHED and summary.result == record.result
    assert summary.actions == len(record.actions)


def test_a_taken_sequence_number_is_a_conflict_and_changes_nothing(store: GameStore) -> None:
    record = bot_game()
    store.add_game(new_game(record, "g1"))
    first, second = stored_actions(record)[:2]
    assert isinstance(store.append_action("g1", first), Appended)
    before = store.load_stored("g1")
    rival = replace(second, seq=0)
    assert store.append_action("g1", rival) == SequenceConflict("g1", 0, 1)
    assert store.load_stored("g1") == before


def test_a_sequence_number_past_the_end_is_a_conflict(store: GameStore) -> None:
    record = bot_game()
    store.add_game(new_game(record, "g1"))
    action = stored_actions(record)[3]
    conflict = store.append_action("g1", action)
    assert conflict == SequenceConflict("g1", 3, 0)
    assert "the game has 0 action(s)" in str(conflict)
    assert store.load_record("g1").actions == ()


def test_an_unknown_game_is_refused_by_name(store: GameStore) -> None:
    action = stored_actions(bot_game())[0]
    with pytest.raises(UnknownGame, match="no game with id 'nope'"):
        store.append_action("nope", action)
    with pytest.raises(UnknownGame):
        store.load_record("nope")


def test_a_finished_game_takes_no_more_actions(store: GameStore) -> None:
    record = bot_game()
    store.add_game(new_game(record, "g1"))
    actions = stored_actions(record)
    for action in actions:
        store.append_action("g1", action)
    extra = replace(actions[0], seq=len(actions), action=EndStep(0), result=None)
    with pytest.raises(GameFinished):
        store.append_action("g1", extra)
    assert len(store.load_record("g1").actions) == len(actions)


def test_a_game_id_is_stored_once(store: GameStore) -> None:
    record = bot_game()
    store.add_game(new_game(record, "g1"))
    with pytest.raises(DuplicateGame, match="already stored"):
        store.add_complete_game(new_game(bot_game(seed=2), "g1"), stored_actions(bot_game(2)), None)
    assert store.load_record("g1").deck == record.deck
    assert store.load_record("g1").actions == ()


def test_a_whole_game_is_stored_at_once_and_audits_clean(store: GameStore) -> None:
    record = bot_game(players=5, seed=4)
    store.add_complete_game(new_game(record, "g5"), stored_actions(record), record.result)
    loaded = store.load_record("g5")
    assert loaded == replace(record, game_id="g5")
    stored = store.load_stored("g5")
    assert stored.status == FINISHED
    assert audit_game(stored) is None


def test_the_list_names_the_players_oldest_game_first(store: GameStore) -> None:
    late, early = bot_game(seed=1), bot_game(seed=2)
    store.add_game(new_game(late, "late", at=new_game(late).created_at.replace(hour=20)))
    store.add_complete_game(new_game(early, "early"), stored_actions(early), early.result)
    summaries = store.list_games()
    assert [s.game_id for s in summaries] == ["early", "late"]
    assert summaries[0].players == tuple(seat.name for seat in early.seats)
    assert summaries[0].result == early.result and summaries[1].result is None
    assert summaries[1].created_at == new_game(late).created_at.replace(hour=20)


def test_stored_games_hands_out_each_game_with_its_own_chain(store: GameStore) -> None:
    for seed in (1, 2, 3):
        record = bot_game(seed=seed)
        store.add_complete_game(new_game(record, f"g{seed}"), stored_actions(record), record.result)
    games = list(store.stored_games())
    assert [g.game.game_id for g in games if not isinstance(g, Exception)] == ["g1", "g2", "g3"]
    for game in games:
        assert not isinstance(game, Exception)
        assert len(game.links) == len(bot_game(seed=int(game.game.game_id[1:])).actions)
        assert audit_game(game) is None
    [only] = store.stored_games(["g2"])
    assert not isinstance(only, Exception) and only.game.game_id == "g2"


def test_times_come_back_as_the_same_instant_in_utc(store: GameStore) -> None:
    berlin = timezone(timedelta(hours=2))
    created = datetime(2024, 5, 1, 20, 30, tzinfo=berlin)
    store.add_game(new_game(bot_game(), "g1", at=created))
    [summary] = store.list_games()
    assert summary.created_at == created
    assert summary.created_at.utcoffset() == timedelta(0)


def test_actions_appended_in_batches_chain_like_single_appends(store: GameStore) -> None:
    record = bot_game()
    store.add_game(new_game(record, "g1"))
    actions = stored_actions(record)
    for start in range(0, len(actions), 7):
        batch = actions[start : start + 7]
        appended = store.append_actions("g1", batch)
        assert isinstance(appended, Appended) and appended.seq == batch[-1].seq
    stored = store.load_stored("g1")
    assert stored.status == FINISHED and stored.result == record.result
    assert store.load_record("g1").actions == record.actions
    assert audit_game(stored) is None


def test_a_batch_that_starts_at_a_taken_number_stores_none_of_it(store: GameStore) -> None:
    record = bot_game()
    store.add_game(new_game(record, "g1"))
    actions = stored_actions(record)
    assert isinstance(store.append_actions("g1", actions[:3]), Appended)
    before = store.load_stored("g1")
    assert store.append_actions("g1", actions[2:6]) == SequenceConflict("g1", 2, 3)
    assert store.load_stored("g1") == before
