"""What a player may do now: `legal_actions` and `check_action` (rulings 2, 6, 8, 10, 13)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bohnanza.core.actions import (
    Action,
    BuyField,
    DiscardFromHand,
    EndStep,
    Harvest,
    Plant,
    PlantSetAside,
    ProposeTrade,
)
from bohnanza.core.cards import Variety
from bohnanza.core.checks import check_action
from bohnanza.core.errors import IllegalActionError
from bohnanza.core.legal import (
    fields_for,
    harvestable_fields,
    legal_actions,
    trade_options,
    waiting_for,
)
from bohnanza.core.state import GameState, Step

from .builders import CardPool, table

BLUE, RED, SOY, CHILI, STINK = (
    Variety.BLUE,
    Variety.RED,
    Variety.SOY,
    Variety.CHILI,
    Variety.STINK,
)


def refused(state: GameState, action: Action) -> str:
    """The code of the error `check_action` raises for an action."""
    with pytest.raises(IllegalActionError) as caught:
        check_action(state, action)
    return caught.value.code


# --- ruling 2: single-card protection ---------------------------------------------------------


def test_a_single_bean_is_protected_while_another_field_holds_two() -> None:
    """Ruling 2."""
    pool = CardPool()
    state = table(4, fields=[[pool.take(RED, 1), pool.take(SOY, 2)]])
    assert harvestable_fields(state, 0) == (1,)
    assert refused(state, Harvest(0, 0)) == "single-card-protected"
    check_action(state, Harvest(0, 1))


def test_when_no_field_holds_more_than_one_bean_any_single_bean_may_be_harvested() -> None:
    """Ruling 2: with single cards only, the player chooses which to sell."""
    pool = CardPool()
    state = table(4, fields=[[pool.take(RED, 1), pool.take(SOY, 1)]])
    assert harvestable_fields(state, 0) == (0, 1)


def test_empty_fields_do_not_count_for_single_card_protection() -> None:
    """Ruling 2: an empty field neither protects nor is harvestable."""
    pool = CardPool()
    state = table(3, fields=[[pool.take(RED, 1), [], pool.take(SOY, 1)]])
    assert harvestable_fields(state, 0) == (0, 2)
    assert refused(state, Harvest(0, 1)) == "empty-field"
    state = table(3, fields=[[pool.take(RED, 1), [], pool.take(SOY, 3)]])
    assert harvestable_fields(state, 0) == (2,)


def test_every_field_holding_two_or_more_beans_may_be_harvested() -> None:
    pool = CardPool()
    state = table(3, fields=[[pool.take(RED, 2), pool.take(BLUE, 1), pool.take(SOY, 5)]])
    assert harvestable_fields(state, 0) == (0, 2)
    assert [a for a in legal_actions(state, 0).actions if isinstance(a, Harvest)] == [
        Harvest(0, 0),
        Harvest(0, 2),
    ]


def test_a_field_that_does_not_exist_cannot_be_harvested() -> None:
    state = table(4)
    assert refused(state, Harvest(0, 2)) == "no-such-field"


# --- ruling 10: planting -----------------------------------------------------------------------


def test_a_bean_may_go_onto_an_empty_field_even_when_its_variety_is_planted_elsewhere() -> None:
    """Ruling 10."""
    pool = CardPool()
    state = table(4, hands=[[pool.one(RED)]], fields=[[pool.take(RED, 2)]])
    assert fields_for(state.players[0], state.players[0].hand[0]) == (0, 1)
    assert [a for a in legal_actions(state, 0).actions if isinstance(a, Plant)] == [
        Plant(0, 0),
        Plant(0, 1),
    ]


def test_two_fields_of_the_same_variety_both_accept_that_variety() -> None:
    """Ruling 10."""
    pool = CardPool()
    state = table(4, hands=[[pool.one(RED)]], fields=[[pool.take(RED, 2), pool.take(RED, 1)]])
    assert fields_for(state.players[0], state.players[0].hand[0]) == (0, 1)


def test_a_bean_may_not_go_onto_a_field_of_another_variety() -> None:
    pool = CardPool()
    state = table(4, hands=[[pool.one(RED)]], fields=[[pool.take(SOY, 2)]])
    assert refused(state, Plant(0, 0)) == "field-taken"
    assert refused(state, Plant(0, 2)) == "no-such-field"
    check_action(state, Plant(0, 1))


# --- step 1 -------------------------------------------------------------------------------------


def test_only_the_active_player_plants_from_his_hand() -> None:
    pool = CardPool()
    state = table(4, hands=[[pool.one(RED)], [pool.one(SOY)]])
    assert refused(state, Plant(1, 0)) == "not-your-turn"
    assert not [a for a in legal_actions(state, 1).actions if isinstance(a, Plant)]


def test_the_front_card_must_be_planted_before_step_1_may_end() -> None:
    pool = CardPool()
    state = table(4, hands=[pool.beans([RED, SOY])])
    assert EndStep(0) not in legal_actions(state, 0).actions
    assert refused(state, EndStep(0)) == "must-plant"
    state.players[0].fields[0].cards.append(state.players[0].hand.pop(0))
    state.planted_this_step = 1
    assert EndStep(0) in legal_actions(state, 0).actions


def test_no_third_card_is_planted_in_step_1() -> None:
    pool = CardPool()
    state = table(4, hands=[pool.beans([RED, RED, RED])], fields=[[pool.take(RED, 2)]])
    state.planted_this_step = 2
    assert refused(state, Plant(0, 0)) == "no-more-planting"


def test_a_card_that_fits_nowhere_forces_a_harvest_or_the_purchase_of_a_third_field() -> None:
    """Ruling 8: no plant is open, but harvests and the purchase are, and the game waits."""
    pool = CardPool()
    state = table(
        4,
        hands=[[pool.one(BLUE)]],
        fields=[[pool.take(RED, 2), pool.take(SOY, 1)]],
        coins=[pool.take(CHILI, 3)],
    )
    legal = legal_actions(state, 0)
    assert legal.waiting
    assert legal.actions == (Harvest(0, 0), BuyField(0))
    assert refused(state, Plant(0, 0)) == "field-taken"


def test_in_step_3_a_set_aside_card_that_fits_nowhere_forces_a_harvest() -> None:
    """Ruling 8, step 3: a player without coins must harvest."""
    pool = CardPool()
    state = table(
        4,
        set_aside=[[], [pool.one(BLUE)]],
        fields=[[], [pool.take(RED, 2), pool.take(SOY, 3)]],
        step=Step.PLANT_SET_ASIDE,
    )
    legal = legal_actions(state, 1)
    assert legal.waiting
    assert legal.actions == (Harvest(1, 0), Harvest(1, 1))
    assert refused(state, PlantSetAside(1, 0, 0)) == "field-taken"
    assert refused(state, PlantSetAside(1, 1, 0)) == "no-such-card"


# --- harvesting and buying at any time ----------------------------------------------------------


def test_a_player_may_harvest_and_buy_a_field_when_it_is_not_his_turn() -> None:
    """Ruling 8: outside the duel, harvesting and buying are allowed at any time."""
    pool = CardPool()
    state = table(
        5, hands=[[pool.one(RED)]], fields=[[], [pool.take(SOY, 2)]], coins=[[], pool.take(BLUE, 3)]
    )
    legal = legal_actions(state, 1)
    assert not legal.waiting
    assert legal.actions == (Harvest(1, 0), BuyField(1))


def test_the_third_field_needs_the_price_in_coins() -> None:
    pool = CardPool()
    state = table(4, coins=[pool.take(BLUE, 2)])
    assert refused(state, BuyField(0)) == "not-enough-coins"
    state = table(6, coins=[pool.take(SOY, 2)])
    check_action(state, BuyField(0))


def test_the_third_field_is_bought_only_once() -> None:
    pool = CardPool()
    state = table(4, fields=[[[], [], []]], coins=[pool.take(BLUE, 3)])
    assert state.players[0].bought_third_field
    assert refused(state, BuyField(0)) == "third-field-owned"
    assert BuyField(0) not in legal_actions(state, 0).actions


def test_with_three_players_no_third_field_can_be_bought() -> None:
    pool = CardPool()
    state = table(3, coins=[pool.take(BLUE, 5)])
    assert refused(state, BuyField(0)) == "no-third-field"
    assert BuyField(0) not in legal_actions(state, 0).actions


def test_in_the_duel_only_the_active_player_sells_but_either_may_buy() -> None:
    """Ruling 13."""
    pool = CardPool()
    state = table(
        2,
        fields=[[pool.take(RED, 2)], [pool.take(SOY, 2)]],
        coins=[[], pool.take(BLUE, 3)],
        step=Step.DUEL_PLANT,
        hands=[[pool.one(RED)]],
    )
    assert harvestable_fields(state, 1) == ()
    assert refused(state, Harvest(1, 0)) == "duel-sell-own-turn"
    assert legal_actions(state, 1).actions == (BuyField(1),)
    assert Harvest(0, 0) in legal_actions(state, 0).actions


# --- the duel's optional discard ------------------------------------------------------------------


def test_in_the_duel_the_discard_comes_only_after_a_plant() -> None:
    """Ruling 13."""
    pool = CardPool()
    state = table(2, hands=[pool.beans([RED, SOY, BLUE])], step=Step.DUEL_PLANT)
    assert refused(state, DiscardFromHand(0, 1)) == "plant-first"
    state.players[0].fields[0].cards.append(state.players[0].hand.pop(0))
    state.planted_this_step = 1
    legal = legal_actions(state, 0).actions
    assert DiscardFromHand(0, 0) in legal and DiscardFromHand(0, 1) in legal
    assert refused(state, DiscardFromHand(0, 2)) == "no-such-card"
    assert refused(state, DiscardFromHand(1, 0)) == "not-your-turn"


# --- trading bounds ------------------------------------------------------------------------------


def test_the_active_player_may_trade_with_anyone_and_offer_the_face_up_cards() -> None:
    """Ruling 6."""
    pool = CardPool()
    state = table(
        4,
        hands=[pool.beans([RED, SOY]), pool.beans([BLUE])],
        face_up=pool.beans([STINK, CHILI]),
        step=Step.TRADE,
    )
    active = trade_options(state, 0)
    assert active is not None
    assert (active.partners, active.hand_size, active.face_up) == ((1, 2, 3), 2, 2)
    other = trade_options(state, 1)
    assert other is not None
    assert (other.partners, other.hand_size, other.face_up) == ((0,), 1, 0)


def test_non_active_players_may_not_trade_with_each_other() -> None:
    """Ruling 6."""
    pool = CardPool()
    state = table(4, hands=[[], [pool.one(BLUE)], [pool.one(RED)]], step=Step.TRADE)
    assert refused(state, ProposeTrade(1, 2, hand=(0,), want=(RED,))) == "trade-with-active"
    assert refused(state, ProposeTrade(1, 1, hand=(0,))) == "trade-with-active"
    assert refused(state, ProposeTrade(1, 9, hand=(0,))) == "no-such-partner"


def test_trading_happens_only_in_step_2() -> None:
    pool = CardPool()
    state = table(4, hands=[pool.beans([RED, SOY]), [pool.one(BLUE)]])
    assert trade_options(state, 0) is None and trade_options(state, 1) is None
    assert refused(state, ProposeTrade(0, 1, hand=(1,), want=(BLUE,))) == "not-trading"


@dataclass(frozen=True)
class Unknown(Action):
    """An action the rules know nothing about."""


def test_an_unknown_action_or_seat_is_refused() -> None:
    state = table(4)
    assert refused(state, Unknown(0)) == "unknown-action"
    assert refused(state, Plant(4, 0)) == "no-such-player"
    assert refused(state, Plant(-1, 0)) == "no-such-player"


def test_after_the_game_nobody_may_do_anything() -> None:
    pool = CardPool()
    state = table(4, hands=[[pool.one(RED)]], fields=[[pool.take(SOY, 2)]], step=Step.GAME_OVER)
    assert refused(state, Plant(0, 1)) == "game-over"
    assert refused(state, Harvest(0, 0)) == "game-over"
    for seat in range(4):
        legal = legal_actions(state, seat)
        assert not legal and not legal.waiting
    assert waiting_for(state) == ()


def test_step_3_waits_on_every_player_with_set_aside_cards() -> None:
    """Ruling 7."""
    pool = CardPool()
    state = table(
        5,
        set_aside=[[pool.one(RED)], [], [pool.one(SOY)], [pool.one(BLUE)]],
        step=Step.PLANT_SET_ASIDE,
    )
    assert waiting_for(state) == (0, 2, 3)
    assert [legal_actions(state, seat).waiting for seat in range(5)] == [
        True,
        False,
        True,
        True,
        False,
    ]
