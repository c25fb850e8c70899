"""The bean duel for two players: its four steps and its own end (rulings 1, 4, 9, 13)."""

from __future__ import annotations

import pytest

from bohnanza.core.actions import (
    Action,
    BuyField,
    DiscardFromHand,
    DiscardOffered,
    EndStep,
    Harvest,
    Plant,
    PlantFaceUp,
    PlantOffered,
)
from bohnanza.core.cards import Variety
from bohnanza.core.engine import Engine
from bohnanza.core.errors import IllegalActionError
from bohnanza.core.events import (
    BeanDiscarded,
    CardsDrawn,
    DeckExhausted,
    FaceUpDrawn,
    GameEnded,
    LeftOnOffer,
    StepBegan,
    ThirdFieldBought,
    TurnBegan,
)
from bohnanza.core.game import Game
from bohnanza.core.state import Step

from .builders import CardPool, apply_all, engine_for, new_game, of_type, table, varieties

BLUE, RED, SOY, CHILI, STINK, GREEN, WAX = (
    Variety.BLUE,
    Variety.RED,
    Variety.SOY,
    Variety.CHILI,
    Variety.STINK,
    Variety.GREEN,
    Variety.WAX,
)


def refused(target: Game | Engine, action: Action) -> str:
    """The code of the refusal; the state must not change."""
    before = target.state.copy()
    with pytest.raises(IllegalActionError) as caught:
        target.apply(action)
    assert target.state == before
    return caught.value.code


def duel() -> Game:
    """A duel whose first face-up draw is Red, Wax, Chili."""
    return new_game(
        2,
        [[RED, SOY, BLUE, STINK, GREEN], [SOY, SOY, BLUE, GREEN, GREEN]],
        then=[RED, WAX, CHILI, BLUE, STINK, RED, RED],
    )


# --- step 1 and 2 -------------------------------------------------------------------------------


def test_the_starting_players_first_turn_has_no_step_1() -> None:
    """Ruling 9."""
    game = duel()
    assert game.opening_events == [TurnBegan(0, 1), StepBegan(0, Step.DUEL_PLANT)]
    assert game.state.step is Step.DUEL_PLANT


def test_step_2_plants_one_or_two_cards_before_the_optional_discard() -> None:
    """Ruling 13: the discard comes after at least one plant."""
    game = duel()
    assert refused(game, DiscardFromHand(0, 3)) == "plant-first"
    assert refused(game, EndStep(0)) == "must-plant"
    game.apply(Plant(0, 0))
    legal = game.legal_actions(0).actions
    assert {Plant(0, 1), EndStep(0), DiscardFromHand(0, 3)} <= set(legal)
    game.apply(Plant(0, 1))
    assert game.state.step is Step.DUEL_PLANT  # two plants do not end the step: he may discard
    assert refused(game, Plant(0, 0)) == "no-more-planting"


def test_the_optional_discard_takes_any_hand_card_and_ends_step_2() -> None:
    """Ruling 13."""
    game = duel()
    hand = list(game.state.players[0].hand)
    game.apply(Plant(0, 0))
    events = game.apply(DiscardFromHand(0, 2))  # the Stink from the middle of the hand
    assert events[0] == BeanDiscarded(0, hand[3], "hand")
    assert game.state.players[0].hand == [hand[1], hand[2], hand[4]]
    assert game.state.discard == [hand[3]]
    assert game.state.step is Step.DUEL_FACE_UP
    assert refused(game, DiscardFromHand(0, 0)) == "wrong-step"


def test_ending_step_2_without_a_discard_draws_three_cards_face_up() -> None:
    """Ruling 11: the face-up cards are drawn as the duel's step 3 begins."""
    game = duel()
    coming = list(reversed(game.state.deck))[:3]
    game.apply(Plant(0, 0))
    events = game.apply(EndStep(0))
    assert game.state.face_up == coming
    assert varieties(coming) == [RED, WAX, CHILI]
    assert events == [StepBegan(0, Step.DUEL_FACE_UP), FaceUpDrawn(0, tuple(coming), ())]


# --- step 3: the discard chain, planting and offering -------------------------------------------


def test_step_3_adds_the_matching_top_cards_of_the_discard_pile_to_the_face_up_cards() -> None:
    pool = CardPool()
    drawn = pool.beans([RED, WAX, CHILI])
    blue, soy, chili, red = pool.beans([BLUE, SOY, CHILI, RED])
    engine = engine_for(
        table(
            2,
            hands=[pool.beans([GREEN, GREEN])],
            deck=drawn + pool.take(STINK, 6),
            discard=[blue, soy, chili, red],
            step=Step.DUEL_PLANT,
        )
    )
    events = apply_all(engine, Plant(0, 0), EndStep(0))
    assert FaceUpDrawn(0, tuple(drawn), (red, chili)) in events
    assert engine.state.face_up == [*drawn, red, chili]
    assert engine.state.discard == [blue, soy]  # the Soy stops the chain


def test_step_3_chain_stops_at_once_when_the_top_discard_does_not_match() -> None:
    pool = CardPool()
    drawn = pool.beans([RED, WAX, CHILI])
    discard = pool.beans([RED, SOY])
    engine = engine_for(
        table(
            2,
            hands=[pool.beans([GREEN])],
            deck=drawn + pool.take(STINK, 6),
            discard=discard,
            step=Step.DUEL_PLANT,
        )
    )
    engine.apply(Plant(0, 0))  # the hand is empty: step 3 begins by itself
    assert engine.state.face_up == drawn
    assert engine.state.discard == discard


def test_step_3_plants_any_drawn_cards_and_offers_the_rest_to_the_opponent() -> None:
    """Ruling 9: cards offered in step 3 are not planted by the active player."""
    game = duel()
    apply_all(game, Plant(0, 0), Plant(0, 1))
    game.apply(EndStep(0))
    red, wax, chili = game.state.face_up
    game.apply(PlantFaceUp(0, 0, 0))  # the Red onto the Red
    assert game.state.players[0].fields[0].cards[-1] == red
    assert refused(game, PlantFaceUp(0, 1, 0)) == "field-taken"
    assert refused(game, PlantFaceUp(1, 1, 0)) == "not-your-turn"
    coming = list(reversed(game.state.deck))[:2]
    hand = list(game.state.players[0].hand)
    events = game.apply(EndStep(0))
    assert events[0] == LeftOnOffer(0, (wax, chili))
    assert game.state.offered == [wax, chili]
    assert game.state.face_up == []
    # Step 4 draws two cards into the hand, then the opponent's turn starts with the offer.
    assert CardsDrawn(0, tuple(coming)) in events
    assert game.state.players[0].hand == hand + coming
    assert (game.state.active, game.state.step) == (1, Step.DUEL_OFFERED)


def test_the_active_player_may_sell_while_planting_the_face_up_cards() -> None:
    game = duel()
    apply_all(game, Plant(0, 0), Plant(0, 1), EndStep(0), PlantFaceUp(0, 0, 0))
    assert Harvest(0, 0) in game.legal_actions(0).actions
    game.apply(Harvest(0, 0))
    assert varieties(game.state.players[0].coins) == [RED]
    game.apply(PlantFaceUp(0, 0, 0))
    assert varieties(game.state.players[0].fields[0].cards) == [WAX]


# --- step 1 of the next turn --------------------------------------------------------------------


def offered_turn() -> Game:
    """Seat 0 left a Wax and a Chili on offer; seat 1's turn begins."""
    game = duel()
    apply_all(game, Plant(0, 0), Plant(0, 1), EndStep(0), PlantFaceUp(0, 0, 0), EndStep(0))
    assert varieties(game.state.offered) == [WAX, CHILI]
    return game


def test_each_offered_card_is_planted_or_discarded_in_any_order() -> None:
    """Ruling 9."""
    game = offered_turn()
    wax, chili = game.state.offered
    assert refused(game, EndStep(1)) == "cannot-end-step"
    assert refused(game, Plant(1, 0)) == "wrong-step"
    assert game.waiting_for() == (1,)
    game.apply(PlantOffered(1, 1, 0))  # the Chili first
    assert game.state.players[1].fields[0].cards == [chili]
    events = game.apply(DiscardOffered(1, 0))
    assert events[0] == BeanDiscarded(1, wax, "offered")
    assert game.state.discard[-1] == wax
    assert game.state.offered == []
    assert game.state.step is Step.DUEL_PLANT


def test_only_the_active_player_takes_the_offered_cards() -> None:
    game = offered_turn()
    assert refused(game, PlantOffered(0, 0, 1)) == "not-your-turn"
    assert refused(game, DiscardOffered(0, 0)) == "not-your-turn"
    assert refused(game, DiscardOffered(1, 2)) == "no-such-card"


# --- selling and buying -------------------------------------------------------------------------


def test_a_duel_player_sells_only_on_his_own_turn() -> None:
    """Ruling 13."""
    game = offered_turn()
    assert [len(f.cards) for f in game.state.players[0].fields] == [2, 1]
    assert refused(game, Harvest(0, 0)) == "duel-sell-own-turn"
    assert not [a for a in game.legal_actions(0).actions if isinstance(a, Harvest)]


def test_a_duel_player_may_buy_a_field_on_the_opponents_turn_paying_into_the_box() -> None:
    """Rulings 1 and 13."""
    pool = CardPool()
    coins = pool.take(SOY, 4)
    engine = engine_for(
        table(
            2,
            active=1,
            hands=[[], pool.beans([RED])],
            coins=[coins],
            deck=pool.take(STINK, 6),
            step=Step.DUEL_PLANT,
        )
    )
    box = list(engine.state.box)
    assert engine.apply(BuyField(0)) == [ThirdFieldBought(0, tuple(coins[1:]))]
    assert engine.state.players[0].coins == coins[:1]
    assert engine.state.box == box + coins[1:]
    assert engine.state.discard == []
    assert len(engine.state.players[0].fields) == 3


# --- the end of the duel ------------------------------------------------------------------------


def test_the_duel_ends_at_the_first_exhaustion_in_step_4_and_the_offer_scores_nothing() -> None:
    """Rulings 4 and 13."""
    pool = CardPool()
    last_two = pool.beans([GREEN, BLUE])
    offered = pool.take(CHILI, 3)
    engine = engine_for(
        table(
            2,
            hands=[pool.beans([RED])],
            fields=[[pool.take(RED, 2)], [pool.take(SOY, 3)]],
            face_up=offered,
            deck=last_two,
            step=Step.DUEL_FACE_UP,
        )
    )
    events = engine.apply(EndStep(0))
    state = engine.state
    assert of_type(events, DeckExhausted) == [DeckExhausted(1, True)]
    assert state.is_over
    assert varieties(state.players[0].hand) == [RED, GREEN, BLUE]
    assert state.offered == offered  # never planted, never sold
    assert events[-1] == GameEnded((1, 1), (0,))  # tied on coins, seat 0 holds more cards


def test_a_final_exhaustion_in_step_3_lets_the_active_player_plant_then_ends_the_duel() -> None:
    """Ruling 4: he keeps what was drawn, the turn runs to the end of that step's planting."""
    pool = CardPool()
    last_two = pool.beans([RED, WAX])
    engine = engine_for(
        table(
            2,
            hands=[pool.beans([RED, SOY])],
            fields=[[pool.take(RED, 2)]],
            deck=last_two,
            step=Step.DUEL_PLANT,
        )
    )
    events = apply_all(engine, Plant(0, 0), EndStep(0))
    state = engine.state
    assert of_type(events, FaceUpDrawn) == [FaceUpDrawn(0, tuple(last_two), ())]
    assert state.final_turn and not state.is_over
    engine.apply(PlantFaceUp(0, 0, 0))
    events = engine.apply(EndStep(0))
    assert state.is_over
    assert state.offered == last_two[1:]
    assert not of_type(events, CardsDrawn)
    assert varieties(state.players[0].hand) == [SOY]
    assert events[-1] == GameEnded((3, 0), (0,))  # four Reds
