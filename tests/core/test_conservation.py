"""Every kind of action keeps each of the 154 cards in exactly one place.

The audit leans on this: it checks card conservation once per turn instead of after every action
(docs/game-store.md, "The audit"). Here every action of random and bot games, for every player
count, is followed by the full check, and every kind of action is seen doing so.
"""

from __future__ import annotations

import random

import pytest

from bohnanza.core.actions import ACTION_TYPES
from bohnanza.core.audit import cards_conserved
from bohnanza.core.bots import make_bot
from bohnanza.core.game import Game
from bohnanza.core.legal import asking_order, legal_actions, waiting_for
from bohnanza.core.table_setup import MAX_PLAYERS, MIN_PLAYERS

from .builders import random_playthrough

SEEDS = range(4)


def bot_game_actions(players: int, strategy: str, seed: int) -> Game:
    """A bot game applied one action at a time, each checked for conservation."""
    game = Game.new(players, random.Random(seed))
    bots = [make_bot(strategy, random.Random(seed * 10 + s)) for s in range(players)]
    passes = 0
    while not game.is_over and passes < 50:
        for seat in asking_order(game.state):
            legal = legal_actions(game.state, seat)
            action = bots[seat].choose(game.view(seat), legal) if legal else None
            if action is not None:
                game.apply(action)
                assert cards_conserved(game.state), (type(action).__name__, len(game.actions))
                passes = 0
                break
        else:
            # Nobody outside the waiting seats acted: ask only those the game waits on.
            passes += 1
            assert waiting_for(game.state)
    return game


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_every_action_of_random_games_keeps_every_card_in_one_place(players: int) -> None:
    for seed in SEEDS:
        game = Game.new(players, random.Random(seed))
        for action, _ in random_playthrough(game, random.Random(seed)):
            assert cards_conserved(game.state), (type(action).__name__, len(game.actions))
        assert game.is_over


@pytest.mark.slow
def test_every_kind_of_action_is_seen_keeping_every_card_in_one_place() -> None:
    seen: set[str] = set()
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for seed in SEEDS:
            game = Game.new(players, random.Random(seed))
            for action, _ in random_playthrough(game, random.Random(seed)):
                assert cards_conserved(game.state)
                seen.add(action.kind)
            for strategy in ("random", "heuristic"):
                played = bot_game_actions(players, strategy, seed)
                seen.update(action.kind for action in played.actions)
    assert seen == set(ACTION_TYPES)
