"""The random bot: any legal action, a few random offers, and mostly passing when not needed."""

from __future__ import annotations

import random
from collections import Counter

from bohnanza.core.actions import Action, CounterTrade, Harvest, ProposeTrade
from bohnanza.core.bots import RandomBot, play_out
from bohnanza.core.game import Game
from bohnanza.core.legal import LegalActions
from bohnanza.core.view import PlayerView

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


def test_a_random_bot_that_glances_plays_the_game_it_plays_when_shown_every_view() -> None:
    # `play_out` makes a random bot's view only when it offers a trade; wrapped so that it is
    # handed a view at every asking, it plays the same games, action for action.
    for players in (2, 5, 7):
        for seed in (3, 8):
            glancing = Game.new(players, random.Random(seed))
            bots = [RandomBot(random.Random(seed + seat)) for seat in range(players)]
            play_out(glancing, bots)
            shown = Game.new(players, random.Random(seed))
            play_out(shown, [Shown(RandomBot(random.Random(seed + s))) for s in range(players)])
            assert glancing.is_over
            assert glancing.actions == shown.actions


class Shown:
    """A bot handed its view at every asking: it has `choose` alone."""

    strategy = "random"

    def __init__(self, bot: RandomBot) -> None:
        self.bot = bot

    def choose(self, view: PlayerView, legal: LegalActions) -> Action | None:
        return self.bot.choose(view, legal)
