"""The hash chain and the audit of stored games: every kind of change is found and named."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace

import pytest

from bohnanza.core import engine as engine_module
from bohnanza.core.actions import Action, BuyField, Harvest
from bohnanza.core.app.resuming import RecordedShuffles, resume_game
from bohnanza.core.app.story import StoryKeeper
from bohnanza.core.audit import (
    AuditFailure,
    action_payload,
    audit_game,
    audited_game,
    canonical_json,
    cards_conserved,
    check_record,
    link_hash,
)
from bohnanza.core.bots import make_bot, play_out
from bohnanza.core.errors import RecordError
from bohnanza.core.ports import FINISHED, IN_PROGRESS, ChainLink, StoredGame
from bohnanza.core.record import replay_steps
from bohnanza.core.scoring import GameResult
from tests.adapters.fakes import FakeGameStore
from tests.adapters.games import bot_game, new_game, stored_actions


def stored_game(players: int = 3, seed: int = 1) -> StoredGame:
    record = bot_game(players, seed)
    store = FakeGameStore()
    store.add_complete_game(new_game(record), stored_actions(record), record.result)
    return store.load_stored("g1")


def rechained(game: StoredGame, links: list[ChainLink]) -> StoredGame:
    """The game with its chain recomputed over `links`, as a forger with write access would."""
    prev, out = game.header_hash, []
    for seq, link in enumerate(links):
        prev = link_hash(prev, link.payload, link.reshuffles)
        out.append(ChainLink(seq, link.payload, link.reshuffles, prev))
    return replace(game, links=tuple(out), action_count=len(out), head_hash=prev)


def test_a_stored_bot_game_passes_the_audit() -> None:
    for players in (2, 3, 5, 7):
        assert audit_game(stored_game(players)) is None


def test_the_chain_hash_is_sha256_of_the_documented_canonical_json() -> None:
    payload = action_payload(BuyField(1))
    text = canonical_json(
        {"action": {"type": "buy-field", "player": 1}, "prev": "ab" * 32, "reshuffles": [[3, 1]]}
    )
    assert link_hash("ab" * 32, payload, "[[3,1]]") == hashlib.sha256(text.encode()).hexdigest()


def test_a_changed_payload_breaks_the_chain_at_that_action() -> None:
    game = stored_game()
    links = list(game.links)
    links[7] = links[7]._replace(payload=links[7].payload.replace('"player":', '"player": '))
    failure = audit_game(replace(game, links=tuple(links)))
    assert failure is not None and failure.action == 7
    assert "hash does not match" in failure.reason
    assert str(failure).startswith("game g1: action 7: ")


def test_a_changed_action_with_a_forged_chain_is_caught_by_the_rules() -> None:
    game = stored_game()
    links = list(game.links)
    links[5] = links[5]._replace(payload=action_payload(BuyField(0)))
    failure = audit_game(rechained(game, links))
    assert failure is not None and failure.action == 5
    assert failure.reason.startswith("illegal buy-field by seat 0")


def test_a_deleted_action_is_named_as_missing() -> None:
    game = stored_game()
    links = game.links[:10] + game.links[11:]
    failure = audit_game(replace(game, links=links))
    assert failure is not None and failure.action == 10
    assert failure.reason == "missing: the next stored action is number 11"


def test_deleting_the_last_actions_of_a_running_game_is_found() -> None:
    game = replace(stored_game(), status=IN_PROGRESS, result=None)
    failure = audit_game(replace(game, links=game.links[:-3]))
    assert failure is not None and failure.action == len(game.links) - 3
    assert f"records {len(game.links)} action(s)" in failure.reason


def test_reordered_actions_break_the_chain_at_the_first_moved_one() -> None:
    game = stored_game()
    links = list(game.links)
    links[20], links[21] = links[21]._replace(seq=20), links[20]._replace(seq=21)
    failure = audit_game(replace(game, links=tuple(links)))
    assert failure is not None and failure.action == 20
    assert "hash does not match" in failure.reason


def test_a_changed_result_is_found() -> None:
    game = stored_game()
    assert game.result is not None
    fake = GameResult(tuple(s + 1 for s in game.result.scores), game.result.hand_sizes, (0,))
    failure = audit_game(replace(game, result=fake))
    assert failure is not None and failure.action is None
    assert failure.reason.startswith("the stored result (scores")
    assert "differs from the replayed one" in failure.reason


def test_an_ended_game_without_a_result_is_found() -> None:
    failure = audit_game(replace(stored_game(), status=IN_PROGRESS, result=None))
    assert failure is not None and failure.reason == "the game has ended but no result is stored"


def test_a_result_for_a_game_that_has_not_ended_is_found() -> None:
    game = stored_game()
    failure = audit_game(rechained(game, list(game.links[:30])))
    assert failure is not None and failure.reason == "a result is stored but the game has not ended"


def test_a_changed_deck_is_found_before_any_action() -> None:
    game = stored_game()
    deck = (game.game.deck[1], game.game.deck[0], *game.game.deck[2:])
    failure = audit_game(replace(game, game=replace(game.game, deck=deck)))
    assert failure is not None and failure.action is None
    assert "seating, options or deck differ" in failure.reason


def test_a_removed_reshuffle_is_found_at_the_action_that_needed_it() -> None:
    game = stored_game()
    index = next(i for i, link in enumerate(game.links) if link.reshuffles != "[]")
    links = list(game.links)
    links[index] = links[index]._replace(reshuffles="[]")
    failure = audit_game(rechained(game, links))
    assert failure is not None and failure.action == index
    assert "no new deck is stored" in failure.reason


def test_a_reshuffle_that_is_not_the_discard_pile_is_found() -> None:
    game = stored_game()
    index = next(i for i, link in enumerate(game.links) if link.reshuffles != "[]")
    links = list(game.links)
    orders = json.loads(links[index].reshuffles)
    orders[0][0] = (orders[0][0] + 1) % 154
    links[index] = links[index]._replace(reshuffles=canonical_json(orders))
    failure = audit_game(rechained(game, links))
    assert failure is not None and failure.action == index
    assert "not the discard pile reordered" in failure.reason


def test_an_unreadable_action_is_named() -> None:
    game = stored_game()
    links = list(game.links)
    links[2] = links[2]._replace(payload='{"type": "dance", "player": 0}')
    failure = audit_game(rechained(game, links))
    assert failure is not None and failure.action == 2
    assert failure.reason.startswith("not readable: unknown action type 'dance'")


def test_a_finished_mark_without_a_result_is_found() -> None:
    game = stored_game()
    failure = audit_game(
        rechained(replace(game, status=FINISHED, result=None), list(game.links[:30]))
    )
    assert failure is not None and failure.reason == "the game is marked finished but has no result"


def test_conservation_agrees_with_every_place_the_state_knows() -> None:
    for game, _, _, _ in replay_steps(bot_game(4, 3)):
        assert cards_conserved(game.state)
        assert sorted(game.state.all_cards()) == list(range(154))
    game.state.players[0].hand.append(
        game.state.players[1].coins[0] if game.state.players[1].coins else 0
    )
    assert not cards_conserved(game.state)


def test_a_card_lost_by_an_action_is_found_at_the_end_of_its_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = stored_game(4, 3)
    harvest, turn_ends, turn = None, None, 0
    for state_now, index, action, _ in replay_steps(game.record()):
        if harvest is None and isinstance(action, Harvest):
            harvest, turn = index, state_now.state.turn
        elif harvest is not None and (state_now.state.turn > turn or state_now.is_over):
            turn_ends = index
            break
    assert harvest is not None and turn_ends is not None and turn_ends > harvest
    losing = dict(engine_module._HANDLERS)
    original = losing[Harvest]
    lost: list[int] = []

    def harvest_losing_a_card(engine: engine_module.Engine, action: Action) -> None:
        original(engine, action)
        if not lost:  # the first harvest loses a card
            player = engine.state.players[action.player]
            lost.append((player.coins or engine.state.discard).pop())

    losing[Harvest] = harvest_losing_a_card
    monkeypatch.setattr(engine_module, "_HANDLERS", losing)
    failure = audit_game(game)
    assert failure is not None and failure.reason == "cards are not conserved after it"
    assert failure.action == turn_ends


def test_check_record_splits_the_reshuffles_among_the_actions_that_caused_them() -> None:
    record = bot_game()
    checked = check_record(record)
    assert len(checked.reshuffles) == len(record.actions)
    assert tuple(order for orders in checked.reshuffles for order in orders) == record.reshuffles
    assert checked.result == record.result


def test_check_record_refuses_an_illegal_record_naming_the_action() -> None:
    record = bot_game()
    actions = list(record.actions)
    actions[4] = BuyField(2)
    with pytest.raises(RecordError, match=r"^action 4: illegal buy-field by seat 2"):
        check_record(replace(record, actions=tuple(actions), result=None))


def test_the_audited_game_is_the_game_a_replay_of_its_record_goes_on_with() -> None:
    stored = stored_game(players=4, seed=3)
    # Half-way, so that the game goes on (and reshuffles anew) after it is taken up.
    half = len(stored.links) // 2
    stored = replace(
        stored,
        links=stored.links[:half],
        action_count=half,
        head_hash=stored.links[half - 1].hash,
        status=IN_PROGRESS,
        result=None,
    )
    audited_story, replayed_story = StoryKeeper(), StoryKeeper()
    audited = audited_game(stored, audited_story.seen)
    assert not isinstance(audited, AuditFailure)
    audited.shuffle_with(RecordedShuffles((), random.Random(7)))
    replayed = resume_game(stored.record(), random.Random(7), replayed_story.seen)

    assert audited.state == replayed.state
    assert audited.actions == replayed.actions
    assert audited.reshuffles == replayed.reshuffles
    assert audited_story.recent == replayed_story.recent
    assert audited_story.table_story == replayed_story.table_story
    # Played on to the end alike, reshuffling anew from the shuffler it was given.
    for game in (audited, replayed):
        play_out(game, [make_bot("heuristic", random.Random(seat)) for seat in range(4)])
    assert audited.state == replayed.state and audited.reshuffles == replayed.reshuffles
    assert audited.is_over and len(audited.reshuffles) > len(stored.record().reshuffles)
