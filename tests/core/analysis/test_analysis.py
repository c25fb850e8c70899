"""The expert's analysis of a game: what each decision cost, judged from the deciding seat."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bohnanza.core.actions import CounterTrade, ProposeTrade
from bohnanza.core.analysis import Analysis, SearchSize, decisions, judge, summarise
from bohnanza.core.bots.driver import make_bot, play_out
from bohnanza.core.bots.table_memory import OfferTerms, proposal_terms, terms
from bohnanza.core.cards import Card, variety_of
from bohnanza.core.game import Game
from bohnanza.core.record import GameRecord, SeatRecord, replay, replay_steps
from bohnanza.core.view import view_for

SMALL = SearchSize(seed=7, deals=6, horizon=3, horizon_again=6)


def played(strategies: list[str], seed: int, actions: int | None = None) -> GameRecord:
    """A game bots played, or its first `actions` actions."""
    game = Game.new(len(strategies), random.Random(seed))
    play_out(game, [make_bot(s, random.Random(seed * 10 + i)) for i, s in enumerate(strategies)])
    seats = tuple(SeatRecord(f"{s}-{i + 1}", "bot", s) for i, s in enumerate(strategies))
    record = GameRecord.of(game, seats)
    if actions is None:
        return record
    return GameRecord.of(replay(record, upto=actions), seats)


def analysed(
    record: GameRecord, size: SearchSize = SMALL, seats: frozenset[int] | None = None
) -> Analysis:
    return summarise(record, [judge(m, size) for m in decisions(record, seats)], seats)


@pytest.mark.slow
def test_a_random_seat_loses_more_coins_a_decision_than_heuristic_seats() -> None:
    lost = [0.0, 0.0, 0.0]
    decided = [0, 0, 0]
    for seed in (1, 2, 3):
        analysis = analysed(played(["random", "heuristic", "heuristic"], seed, actions=150))
        for player in analysis.players:
            lost[player.seat] += player.expected_loss
            decided[player.seat] += player.decisions
    per_decision = [loss / count for loss, count in zip(lost, decided, strict=True)]
    assert all(count > 50 for count in decided)
    assert per_decision[0] > 1.5 * max(per_decision[1:]), per_decision


@pytest.mark.slow
def test_a_decision_loses_nothing_unless_an_option_was_clearly_better() -> None:
    analysis = analysed(played(["heuristic", "random", "heuristic"], 4, actions=60))
    judged = [j for j in analysis.judgements if not j.forced]
    assert judged
    for judgement in judged:
        assert judgement.loss >= 0.0
        assert (judgement.loss > 0.0) == (judgement.best != judgement.chosen)
        assert judgement.error >= 0.0
        assert judgement.mistake == (judgement.loss >= analysis.threshold)
    for player in analysis.players:
        assert player.mistakes == sum(1 for j in judged if j.seat == player.seat and j.mistake)


@pytest.mark.slow
def test_the_analysis_is_the_same_for_the_same_seed_and_moves_with_another() -> None:
    record = played(["heuristic", "random", "heuristic"], 5, actions=60)
    first = analysed(record)
    assert analysed(record) == first
    other = analysed(record, replace(SMALL, seed=8))
    assert [j.margin for j in other.judgements] != [j.margin for j in first.judgements]


@pytest.mark.slow
def test_forced_decisions_are_counted_apart_and_not_searched() -> None:
    record = played(["heuristic", "heuristic", "heuristic"], 6, actions=80)
    moments = list(decisions(record))
    forced = [m for m in moments if m.forced]
    assert forced and len(forced) < len(moments)
    assert all(judge(m, SMALL).loss == 0.0 and judge(m, SMALL).forced for m in forced)
    analysis = analysed(record)
    assert sum(p.forced for p in analysis.players) == len(forced)
    assert sum(p.decisions + p.forced for p in analysis.players) == len(moments)


def test_only_the_asked_seat_is_analysed() -> None:
    record = played(["heuristic", "random", "heuristic"], 4, actions=60)
    analysis = analysed(record, seats=frozenset({1}))
    assert [p.seat for p in analysis.players] == [1]
    assert {j.seat for j in analysis.judgements} == {1}
    assert all(record.actions[j.index].player == 1 for j in analysis.judgements)


def _swapped(record: GameRecord, first: Card, second: Card) -> GameRecord:
    """The same game with two cards' places exchanged in the deck and every reshuffle."""
    swap = {first: second, second: first}
    return replace(
        record,
        deck=tuple(swap.get(c, c) for c in record.deck),
        reshuffles=tuple(tuple(swap.get(c, c) for c in order) for order in record.reshuffles),
    )


def _views(record: GameRecord, seat: int) -> list[object]:
    return [game.view(seat) for game, _, _, _ in replay_steps(record)]


@pytest.mark.slow
def test_an_analysis_reads_nothing_its_seat_could_not_see() -> None:
    record = played(["heuristic", "random", "heuristic"], 8, actions=90)
    state = replay(record).state
    hidden_pairs = [
        (x, y)
        for x in state.players[1].hand
        for y in state.players[2].hand
        if variety_of(x) is not variety_of(y)
    ]
    other = None
    for x, y in hidden_pairs:
        candidate = _swapped(record, x, y)
        try:
            same_for_seat_0 = _views(candidate, 0) == _views(record, 0)
        except ValueError:  # an action no longer fits
            continue
        if same_for_seat_0 and _views(candidate, 1) != _views(record, 1):
            other = candidate
            break
    assert other is not None, "no two cards hidden from seat 1 (the first) to exchange"
    seat_0 = frozenset({0})
    assert analysed(other, seats=seat_0) == analysed(record, seats=seat_0)


def _offers_of_the_turn(record: GameRecord) -> dict[int, tuple[OfferTerms, ...]]:
    """For each action of the record, the terms of the offers made before it in its turn."""
    before: dict[int, tuple[OfferTerms, ...]] = {}
    turn, made = -1, ()
    steps = replay_steps(record)
    game = next(steps)[0]
    for index, action in enumerate(record.actions):
        state = game.state
        if state.turn != turn:
            turn, made = state.turn, ()
        before[index] = made
        view = view_for(state, action.player)
        if isinstance(action, ProposeTrade):
            made += (proposal_terms(view, action),)
        elif isinstance(action, CounterTrade):
            give = [view.face_up[i] for i in action.face_up] + [view.hand[i] for i in action.hand]
            receiver = state.offers[action.offer].proposer
            made += (terms(action.player, receiver, give, action.want),)
        next(steps)
    return before


def test_each_decision_carries_the_offers_its_turn_saw_made_before_it() -> None:
    record = played(["heuristic", "heuristic", "heuristic", "heuristic"], 9, actions=200)
    before = _offers_of_the_turn(record)
    assert sum(1 for made in before.values() if made) > 20
    moments = list(decisions(record))
    for moment in moments:
        assert moment.trading.turn == moment.view.turn
        assert moment.trading.offers == before[moment.index], moment.index
    assert any(len(m.trading.offers) > 1 for m in moments)


@pytest.mark.slow
def test_a_close_call_is_searched_further_a_clear_one_is_not() -> None:
    record = played(["heuristic", "random", "heuristic"], 4, actions=60)
    moments = [m for m in decisions(record) if not m.forced]
    fixed = replace(SMALL, deals=4, most_deals=4)
    further = replace(SMALL, deals=4, most_deals=12)
    extended = 0
    for moment in moments:
        short, long = judge(moment, fixed), judge(moment, further)
        assert short.deals <= 4 and long.deals <= 12
        if long.deals <= 4:
            assert long == short
        else:
            # Searched further only while it might have been a mistake, not yet surely one.
            assert not short.mistake, moment.index
            extended += 1
    assert 0 < extended < len(moments)
