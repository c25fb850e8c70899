"""The search's opponents remember the turn's trading: an offer made is not made again."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bohnanza.core.actions import Action, DeclineTrade, EndStep, ProposeTrade
from bohnanza.core.bots import rollout
from bohnanza.core.bots.asking import next_action
from bohnanza.core.bots.base import Bot
from bohnanza.core.bots.heuristic import HeuristicBot
from bohnanza.core.bots.sampling import clone
from bohnanza.core.bots.table_memory import (
    PROPOSALS_AS_ACTIVE,
    OfferTerms,
    Remembering,
    TradingMemory,
    TradingSeen,
    TradingSoFar,
    proposal_terms,
)
from bohnanza.core.game import Game
from bohnanza.core.legal import LegalActions, TradingMoment
from bohnanza.core.state import GameState
from bohnanza.core.view import PlayerView, TableViews, view_for


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


Made = list[tuple[int, OfferTerms]]


def offers_made_in(monkeypatch: pytest.MonkeyPatch) -> Made:
    """Record the offers the rollouts' bots make from now on, each with its turn."""
    made: Made = []
    asked = rollout.next_action

    def recording(
        state: GameState,
        bots: Sequence[Bot],
        table: TableViews,
        passed: dict[int, TradingMoment],
    ) -> tuple[Action, LegalActions] | None:
        chosen = asked(state, bots, table, passed)
        if chosen is not None and isinstance(chosen[0], ProposeTrade):
            action = chosen[0]
            made.append((state.turn, proposal_terms(view_for(state, action.player), action)))
        return chosen

    monkeypatch.setattr(rollout, "next_action", recording)
    return made


def test_a_rollout_does_not_make_again_the_offer_it_started_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = offers_made_in(monkeypatch)
    for seed in (3, 4, 5, 6):
        game, view, _ = a_first_offer(seed)
        offer = offer_of(view, game.legal_actions(view.active))
        first = proposal_terms(view, offer)
        made.clear()
        for play in range(4):
            rollout.roll_out(clone(game.state), offer.player, offer, play, horizon=1)
            assert (view.turn, first) not in made, (seed, play)


def test_a_rollout_does_not_make_again_an_offer_the_table_saw_declined(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = offers_made_in(monkeypatch)
    repeated_without_memory = 0
    for seed in (3, 4, 5, 6):
        game, view, _ = a_first_offer(seed)
        offer = offer_of(view, game.legal_actions(view.active))
        first = proposal_terms(view, offer)
        game.apply(offer)
        decline = DeclineTrade(offer.partner, game.state.next_offer_id - 1)
        saw = TradingSoFar(view.turn, (first,))
        for play in range(4):
            made.clear()
            rollout.roll_out(clone(game.state), offer.partner, decline, play, 1, saw)
            assert (view.turn, first) not in made, (seed, play)
            made.clear()
            rollout.roll_out(clone(game.state), offer.partner, decline, play, 1)
            repeated_without_memory += (view.turn, first) in made
    # Told nothing of the turn's trading, the fresh bots make the declined offer again: what
    # the memory is for.
    assert repeated_without_memory > 0
