"""The search's opponents remember the turn's trading: an offer made is not made again."""

from __future__ import annotations

import random

from bohnanza.core.actions import EndStep, ProposeTrade
from bohnanza.core.bots.asking import next_action
from bohnanza.core.bots.heuristic import HeuristicBot
from bohnanza.core.bots.table_memory import (
    PROPOSALS_AS_ACTIVE,
    Remembering,
    TradingMemory,
    TradingSeen,
    TradingSoFar,
    proposal_terms,
)
from bohnanza.core.game import Game
from bohnanza.core.legal import LegalActions, TradingMoment
from bohnanza.core.view import PlayerView, TableViews


def a_first_offer(seed: int) -> tuple[Game, PlayerView, LegalActions]:
    """A game of heuristic bots at the first moment its active player makes an offer."""
    game = Game.new(4, random.Random(seed))
    bots = [HeuristicBot(random.Random(seed * 10 + i)) for i in range(4)]
    views = TableViews(game.state)
    passed: dict[int, TradingMoment] = {}
    while not game.is_over:
        chosen = next_action(game.state, bots, views, passed)
        assert chosen is not None
        action, legal = chosen
        if isinstance(action, ProposeTrade) and action.player == game.state.active:
            return game, game.view(action.player), legal
        game.apply_listed(action, legal)
    raise AssertionError("no offer made")


def offer_of(view: PlayerView, legal: LegalActions, seed: int = 7) -> ProposeTrade:
    offer = HeuristicBot(random.Random(seed)).choose(view, legal)
    assert isinstance(offer, ProposeTrade)
    return offer


def test_an_offer_the_table_saw_made_this_turn_is_not_made_again() -> None:
    _, view, legal = a_first_offer(3)
    offer = offer_of(view, legal)
    memory = TradingMemory(TradingSoFar(view.turn, (proposal_terms(view, offer),)))
    again = Remembering(HeuristicBot(random.Random(7)), memory).choose(view, legal)
    assert again is not None and again != offer
    if isinstance(again, ProposeTrade):
        assert proposal_terms(view, again) != proposal_terms(view, offer)
    fresh = Remembering(HeuristicBot(random.Random(7)), TradingMemory()).choose(view, legal)
    assert fresh == offer


def test_an_offer_of_an_earlier_turn_may_be_made_again() -> None:
    _, view, legal = a_first_offer(3)
    offer = offer_of(view, legal)
    earlier = TradingSoFar(view.turn - 1, (proposal_terms(view, offer),))
    bot = Remembering(HeuristicBot(random.Random(7)), TradingMemory(earlier))
    assert bot.choose(view, legal) == offer


def test_an_active_player_who_made_his_offers_ends_trading() -> None:
    _, view, legal = a_first_offer(3)
    partner = (view.active + 1) % 4
    made = tuple((view.active, partner, (k,), ()) for k in range(PROPOSALS_AS_ACTIVE))
    memory = TradingMemory(TradingSoFar(view.turn, made))
    chosen = Remembering(HeuristicBot(random.Random(7)), memory).choose(view, legal)
    assert chosen == EndStep(view.active)


def test_a_seat_remembers_its_own_offers_and_those_it_saw_once_each() -> None:
    game, view, legal = a_first_offer(3)
    offer = offer_of(view, legal)
    seen = TradingSeen()
    seen.propose(view, offer)
    game.apply(offer)
    seen.observe(game.view(offer.player))
    seen.observe(game.view(offer.partner))
    assert seen.so_far() == TradingSoFar(view.turn, (proposal_terms(view, offer),))
