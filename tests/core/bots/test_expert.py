"""The expert bot: legal play at every table size, reproducible choices, and determinizations
that agree with everything its seat has seen."""

from __future__ import annotations

import random

import pytest

from bohnanza.core.actions import Action, BuyField, CounterTrade, ProposeTrade
from bohnanza.core.bots import Bot, ExpertBot, HeuristicBot, make_bot, play_out
from bohnanza.core.bots.sampling import Observations, clone, determinize
from bohnanza.core.cards import CARD_COUNT, variety_of
from bohnanza.core.game import Game
from bohnanza.core.legal import LegalActions
from bohnanza.core.view import PlayerView, view_for

from .recording import Watched
from .test_fair_play import offer_within_bounds


def small_expert(seed: int) -> ExpertBot:
    return ExpertBot(random.Random(seed), iterations=2, horizon=3)


def expert_table(players: int, seed: int, experts: int = 2) -> tuple[Game, list[Watched]]:
    """A finished game with `experts` expert bots round the table, the rest heuristic."""
    game = Game.new(players, random.Random(seed))
    bots: list[Bot] = [
        small_expert(seed + i) if i < experts else HeuristicBot(random.Random(seed + i))
        for i in range(players)
    ]
    watched = [Watched(bot, i) for i, bot in enumerate(bots)]
    play_out(game, watched)
    return game, watched


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 8))
def test_expert_bots_play_whole_games_with_legal_actions_only(players: int) -> None:
    game, watched = expert_table(players, seed=21)
    assert game.is_over
    assert sorted(game.state.all_cards()) == list(range(CARD_COUNT))
    for bot in watched[:2]:
        assert bot.calls
        for view, legal, action in bot.calls:
            if action is None:
                assert not legal.waiting
            elif isinstance(action, ProposeTrade | CounterTrade):
                assert legal.trade is not None
                assert offer_within_bounds(action, view, legal.trade)
            else:
                assert action in legal.actions


@pytest.mark.slow
def test_the_same_seed_and_iteration_count_replay_the_same_game() -> None:
    first, _ = expert_table(3, seed=5)
    second, _ = expert_table(3, seed=5)
    assert first.actions == second.actions


@pytest.mark.slow
def test_a_time_budget_does_not_change_choices_made_with_an_iteration_count() -> None:
    ticks = iter(range(1_000_000))

    def racing_clock() -> float:
        return float(next(ticks)) * 1000

    def choices(clocked: bool) -> list[Action]:
        game = Game.new(4, random.Random(13))
        bots: list[Bot] = [HeuristicBot(random.Random(i)) for i in range(4)]
        clock = racing_clock if clocked else None
        expert = ExpertBot(random.Random(1), iterations=2, horizon=3, time_budget=0.0, clock=clock)
        bots[1] = expert
        play_out(game, bots)
        return game.actions

    assert choices(clocked=True) == choices(clocked=False)


def test_a_time_budget_needs_a_clock() -> None:
    with pytest.raises(ValueError):
        ExpertBot(random.Random(1), iterations=None)


@pytest.mark.slow
def test_searching_against_the_clock_stops_when_the_budget_is_spent() -> None:
    now = [0.0]

    def clock() -> float:
        now[0] += 0.05
        return now[0]

    game = Game.new(3, random.Random(2))
    bots: list[Bot] = [HeuristicBot(random.Random(i)) for i in range(3)]
    bots[0] = ExpertBot(random.Random(1), iterations=None, time_budget=0.2, clock=clock, horizon=2)
    play_out(game, bots)
    assert game.is_over


def test_a_decision_with_one_legal_option_is_taken_at_once() -> None:
    game = Game.new(5, random.Random(4))
    legal = game.legal_actions(0)
    only = LegalActions(0, legal.actions[:1], None, True)
    bot = small_expert(1)
    before = bot._rng.getstate()
    assert bot.choose(game.view(0), only) == legal.actions[0]
    assert bot._rng.getstate() == before, "no deal was sampled"


def test_the_third_field_is_bought_when_the_heuristic_would_buy_it_without_a_search() -> None:
    game = Game.new(4, random.Random(5))
    bots = [HeuristicBot(random.Random(i)) for i in range(4)]
    while not game.is_over:
        seat = game.waiting_for()[0]
        view, legal = game.view(seat), game.legal_actions(seat)
        action = bots[seat].choose(view, legal)
        if isinstance(action, BuyField):
            expert = small_expert(2)
            before = expert._rng.getstate()
            assert expert.choose(view, legal) == action
            assert expert._rng.getstate() == before, "no deal was sampled"
            return
        assert action is not None
        game.apply(action)
    pytest.fail("nobody bought a 3rd field")


def test_make_bot_builds_the_expert_by_name() -> None:
    bot = make_bot("expert", random.Random(1))
    assert isinstance(bot, ExpertBot)
    assert bot.strategy == "expert"


# --- determinizations ---------------------------------------------------------------------


def watched_views(players: int, seed: int) -> list[tuple[Observations, PlayerView, int]]:
    """Every seat's view at every moment of a heuristic game, with what the seat had seen."""
    game = Game.new(players, random.Random(seed))
    bots = [HeuristicBot(random.Random(seed + i)) for i in range(players)]
    seen = [Observations() for _ in range(players)]
    moments = []
    while not game.is_over:
        for seat in range(players):
            view = game.view(seat)
            seen[seat].observe(view)
            if len(moments) < 4000:
                copy = Observations()
                copy.coin_varieties = [list(stack) for stack in seen[seat].coin_varieties]
                moments.append((copy, view, seat))
        seat = game.waiting_for()[0]
        action = bots[seat].choose(game.view(seat), game.legal_actions(seat))
        assert action is not None
        game.apply(action)
    return moments


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 5, 7])
def test_a_determinization_shows_its_seat_exactly_the_view_it_was_made_from(
    players: int,
) -> None:
    for number, (seen, view, seat) in enumerate(watched_views(players, seed=3)[::7]):
        state = determinize(view, seen, random.Random(number))
        assert sorted(state.all_cards()) == list(range(CARD_COUNT))
        assert view_for(state, seat) == view
        assert view_for(clone(state), seat) == view


def test_coins_seen_sold_keep_their_variety_in_every_determinization() -> None:
    moments = watched_views(4, seed=6)
    seen, view, seat = moments[-1]
    known = [v for stack in seen.coin_varieties for v in stack if v is not None]
    assert known, "some sales were seen"
    for number in range(5):
        state = determinize(view, seen, random.Random(number))
        assert view_for(state, seat) == view
        for stack, player in zip(seen.coin_varieties, state.players, strict=True):
            for variety, card in zip(stack, player.coins, strict=True):
                if variety is not None:
                    assert variety_of(card) is variety


def test_hidden_cards_are_dealt_differently_by_different_seeds() -> None:
    seen, view, _ = watched_views(5, seed=8)[40]
    hands = {tuple(determinize(view, seen, random.Random(n)).deck) for n in range(5)}
    assert len(hands) == 5
