"""Selling and the end of the game: the final harvest, most coins, the tie-break (rulings 1, 5)."""

from __future__ import annotations

import pytest

from bohnanza.core.actions import BuyField, PlantSetAside
from bohnanza.core.cards import Variety
from bohnanza.core.events import FieldHarvested, GameEnded
from bohnanza.core.scoring import GameResult, result_of, sell
from bohnanza.core.state import Field, Step
from bohnanza.core.view import view_for

from .builders import CardPool, engine_for, of_type, table

BLUE, RED, SOY, CHILI, STINK, GREEN, WAX = (
    Variety.BLUE,
    Variety.RED,
    Variety.SOY,
    Variety.CHILI,
    Variety.STINK,
    Variety.GREEN,
    Variety.WAX,
)


@pytest.mark.parametrize(
    ("variety", "planted", "coins"),
    [(STINK, 1, 0), (STINK, 3, 1), (STINK, 8, 4), (CHILI, 3, 1), (RED, 5, 4), (BLUE, 7, 2)],
)
def test_a_sale_turns_the_last_planted_beans_into_coins(
    variety: Variety, planted: int, coins: int
) -> None:
    """Ruling 1."""
    cards = CardPool().take(variety, planted)
    field = Field(list(cards))
    earned, rest = sell(field)
    assert earned == cards[planted - coins :]
    assert rest == cards[: planted - coins]
    assert field.cards == []


def test_most_coins_wins() -> None:
    """Ruling 5."""
    pool = CardPool()
    state = table(4, coins=[pool.take(BLUE, 2), pool.take(SOY, 5), pool.take(RED, 4)])
    assert result_of(state) == GameResult((2, 5, 4, 0), (0, 0, 0, 0), (1,))


def test_a_tie_on_coins_goes_to_the_most_cards_in_hand_among_the_tied() -> None:
    """Ruling 5: only the tied players' hands count."""
    pool = CardPool()
    state = table(
        4,
        coins=[pool.take(BLUE, 3), pool.take(SOY, 3), pool.take(RED, 1)],
        hands=[pool.take(GREEN, 2), pool.take(GREEN, 3), pool.take(WAX, 9)],
    )
    result = result_of(state)
    assert result.hand_sizes == (2, 3, 9, 0)
    assert result.winners == (1,)


def test_a_tie_on_coins_and_cards_in_hand_is_a_shared_win() -> None:
    """Ruling 5."""
    pool = CardPool()
    state = table(
        5,
        coins=[pool.take(BLUE, 3), pool.take(SOY, 3), [], pool.take(RED, 3)],
        hands=[pool.take(GREEN, 2), pool.take(GREEN, 1), [], pool.take(WAX, 2)],
    )
    assert result_of(state).winners == (0, 3)


def test_when_nobody_earns_a_coin_the_largest_hand_wins() -> None:
    pool = CardPool()
    state = table(3, hands=[[], pool.take(GREEN, 1), pool.take(WAX, 1)])
    assert result_of(state).winners == (1, 2)


def test_the_end_harvests_every_field_single_beans_included_and_keeps_the_hands() -> None:
    """Ruling 5: hands are set aside; every field is harvested and sold."""
    pool = CardPool()
    single_red = pool.take(RED, 1)
    soy = pool.take(SOY, 4)
    stink = pool.take(STINK, 8)
    hands = [[pool.one(BLUE)], pool.beans([GREEN, GREEN])]
    engine = engine_for(
        table(
            4,
            hands=hands,
            set_aside=[[pool.one(SOY)]],
            fields=[[single_red, soy], [stink]],
            coins=[[], pool.take(CHILI, 1)],
            deck=pool.beans([CHILI, CHILI]),
            step=Step.PLANT_SET_ASIDE,
            exhaustions=2,
        )
    )
    events = engine.apply(PlantSetAside(0, 0, 1))  # the fifth Soy; step 4 exhausts the deck
    state = engine.state
    assert state.is_over
    harvested = of_type(events, FieldHarvested)
    assert [(e.player, e.field, e.coins) for e in harvested] == [
        (0, 0, 0),
        (0, 1, 2),
        (1, 0, 4),
    ]
    assert all(not f.cards for p in state.players for f in p.fields)
    assert single_red[0] in state.discard
    assert [len(p.coins) for p in state.players] == [2, 5, 0, 0]
    assert state.players[1].hand == hands[1]
    assert events[-1] == GameEnded((2, 5, 0, 0), (1,))


def test_coins_paid_for_a_third_field_no_longer_score() -> None:
    pool = CardPool()
    coins = pool.take(BLUE, 5)
    engine = engine_for(table(4, coins=[coins, pool.take(SOY, 3)]))
    engine.apply(BuyField(0))
    assert result_of(engine.state).scores == (2, 3, 0, 0)
    assert result_of(engine.state).winners == (1,)


def test_the_final_scores_and_winners_are_shown_only_once_the_game_is_over() -> None:
    pool = CardPool()
    state = table(4, coins=[pool.take(BLUE, 2)])
    assert view_for(state, 0).scores is None and view_for(state, 0).winners is None
    state.step = Step.GAME_OVER
    view = view_for(state, 2)
    assert view.is_over
    assert (view.scores, view.winners) == ((2, 0, 0, 0), (0,))
