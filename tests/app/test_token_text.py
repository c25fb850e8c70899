"""A seat's token digests the text of its hand, set-aside cards, step, turn and moves. That
text is built from kept pieces; buttons already sent carry tokens of it, so it must stay
exactly `repr` of the tuple, whatever the game shows."""

from __future__ import annotations

import random

import pytest

from bohnanza.core.actions import Plant
from bohnanza.core.app.session import token_text
from bohnanza.core.bots import make_bot
from bohnanza.core.bots.asking import next_action
from bohnanza.core.cards import Variety
from bohnanza.core.game import Game
from bohnanza.core.legal import TradingMoment
from bohnanza.core.state import Step
from bohnanza.core.view import TableViews, view_for


@pytest.mark.parametrize(("players", "strategy"), [(2, "random"), (5, "random"), (4, "heuristic")])
def test_the_token_text_is_the_repr_of_what_it_digests_at_every_moment(
    players: int, strategy: str
) -> None:
    game = Game.new(players, random.Random(players))
    bots = [make_bot(strategy, random.Random(seat)) for seat in range(players)]
    table, passed = TableViews(game.state), dict[int, TradingMoment]()
    compared = 0
    while not game.is_over:
        for seat in range(players):
            view, legal = view_for(game.state, seat), game.legal_actions(seat)
            parts = (view.hand, view.seats[seat].set_aside, view.step, view.turn, legal.actions)
            assert token_text(*parts) == repr(parts)
            compared += 1
        chosen = next_action(game.state, bots, table, passed)
        assert chosen is not None
        game.apply_listed(*chosen)
    assert compared > 200


def test_one_card_and_no_card_are_written_as_python_writes_them() -> None:
    one = ((Variety.SOY,), (), Step.PLANT, 3, (Plant(0, 1),))
    assert token_text(*one) == repr(one)
    none = ((), (Variety.RED, Variety.RED), Step.TRADE, 0, ())
    assert token_text(*none) == repr(none)
