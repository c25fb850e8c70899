"""The random bot: any legal action, a few random offers, and mostly passing when not needed."""

from __future__ import annotations

import random
from collections import Counter

from bohnanza.core.actions import CounterTrade, Harvest, ProposeTrade
from bohnanza.core.bots import RandomBot
from bohnanza.core.game import Game
from bohnanza.core.legal import LegalActions

from .recording import watched_game


def test_the_random_bot_always_acts_when_the_game_waits_on_it() -> None:
    for bot in watched_game(5, "random", seed=2):
        assert all(action is not None for _, legal, action in bot.calls if legal.waiting)


def test_the_random_bot_mostly_passes_when_the_game_does_not_wait_on_it() -> None:
    unasked = [
        action
        for bot in watched_game(5, "random", seed=2)
        for _, legal, action in bot.calls
        if not legal.waiting
    ]
    assert unasked
    assert sum(action is None for action in unasked) > len(unasked) / 2


def test_the_random_bot_offers_trades_but_only_a_few_per_turn() -> None:
    offers: Counter[tuple[int, int]] = Counter()
    for bot in watched_game(4, "random", seed=6):
        for view, _, action in bot.calls:
            if isinstance(action, ProposeTrade | CounterTrade):
                offers[bot.seat, view.turn] += 1
    assert offers
    assert max(offers.values()) <= 2


def test_the_random_bot_picks_what_rng_choice_would_pick_from_the_same_draws() -> None:
    # Its pick is drawn as `random.Random.choice` draws it: recorded games stay the same.
    game = Game.new(3, random.Random(1))
    view = game.view(0)
    for size in range(1, 40):
        actions = tuple(Harvest(0, f) for f in range(size))
        legal = LegalActions(0, actions, None, True)
        for seed in range(25):
            picked = RandomBot(random.Random(seed)).choose(view, legal)
            assert picked == random.Random(seed).choice(actions)
