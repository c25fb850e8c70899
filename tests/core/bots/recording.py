"""A fake that records what a bot was handed and what it chose."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bohnanza.core.actions import Action
from bohnanza.core.bots import Bot, ExpertBot, make_bot, play_out
from bohnanza.core.game import Game
from bohnanza.core.legal import LegalActions
from bohnanza.core.view import PlayerView


@dataclass
class Watched:
    """Wraps a bot and records every call: the view, the legal actions, the choice."""

    bot: Bot
    seat: int
    calls: list[tuple[PlayerView, LegalActions, Action | None]] = field(default_factory=list)

    @property
    def strategy(self) -> str:
        return self.bot.strategy

    def choose(self, view: PlayerView, legal: LegalActions) -> Action | None:
        action = self.bot.choose(view, legal)
        listed = LegalActions(legal.player, legal.actions, legal.trade, legal.waiting)
        self.calls.append((view, listed, action))
        return action


def bot_of(strategy: str, rng: random.Random) -> Bot:
    """A bot of a strategy as `make_bot` builds it; the expert searches only a little, since
    what it may read does not depend on how long it searches."""
    if strategy == "expert":
        return ExpertBot(rng, iterations=2, horizon=3)
    return make_bot(strategy, rng)


def watched_game(players: int, strategy: str, seed: int) -> list[Watched]:
    """Bots of one strategy play a whole game, every call recorded."""
    game = Game.new(players, random.Random(seed))
    watched = [Watched(bot_of(strategy, random.Random(seed + i)), i) for i in range(players)]
    play_out(game, watched)
    return watched
