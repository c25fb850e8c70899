"""The 3-7 player turn: plant, draw face up, plant what was kept, draw (rulings 1, 3, 8, 10, 11)."""

from __future__ import annotations

import pytest

from bohnanza.core.actions import BuyField, EndStep, Harvest, Plant, PlantSetAside
from bohnanza.core.cards import Variety, variety_of
from bohnanza.core.errors import IllegalActionError
from bohnanza.core.events import (
    BeanPlanted,
    CardsDrawn,
    FaceUpDrawn,
    FieldHarvested,
    StepBegan,
    ThirdFieldBought,
    TradingEnded,
    TurnBegan,
)
from bohnanza.core.game import Game
from bohnanza.core.legal import legal_actions
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


def top_of_deck(game: Game, count: int) -> list[int]:
    """The next cards to be drawn, in drawing order."""
    return list(reversed(game.state.deck))[:count]


def play_short_turn(game: Game) -> None:
    """Plant one card, keep the face-up cards and plant them where the menu first allows."""
    seat = game.state.active
    game.apply(game.legal_actions(seat).actions[0])  # a plant of the front card
    game.apply(EndStep(seat))
    game.apply(EndStep(seat))
    while game.state.step is Step.PLANT_SET_ASIDE:
        game.apply(game.legal_actions(seat).actions[0])


# --- step 1 -------------------------------------------------------------------------------------


def test_the_front_card_of_the_hand_is_planted_first() -> None:
    """Ruling 3."""
    game = new_game(4, [[RED, SOY, BLUE, STINK, GREEN]])
    hand = list(game.state.players[0].hand)
    events = game.apply(Plant(0, 1))
    assert events == [BeanPlanted(0, hand[0], 1, "hand")]
    assert game.state.players[0].fields[1].cards == [hand[0]]
    assert game.state.players[0].hand == hand[1:]
    assert game.state.step is Step.PLANT


def test_the_second_plant_is_optional() -> None:
    game = new_game(4, [[RED, SOY, BLUE, STINK, GREEN]])
    game.apply(Plant(0, 0))
    assert EndStep(0) in game.legal_actions(0).actions
    assert Plant(0, 1) in game.legal_actions(0).actions
    game.apply(EndStep(0))
    assert game.state.step is Step.TRADE
    assert varieties(game.state.players[0].hand) == [SOY, BLUE, STINK, GREEN]


def test_after_the_second_plant_the_face_up_cards_are_drawn_at_once() -> None:
    """Ruling 11: the face-up cards are drawn as step 2 begins."""
    game = new_game(4, [[RED, RED, BLUE, STINK, GREEN]], then=[WAX, CHILI])
    coming = top_of_deck(game, 2)
    game.apply(Plant(0, 0))
    events = game.apply(Plant(0, 0))
    assert game.state.step is Step.TRADE
    assert game.state.face_up == coming
    assert varieties(coming) == [WAX, CHILI]
    assert events[1:] == [StepBegan(0, Step.TRADE), FaceUpDrawn(0, tuple(coming))]


def test_ending_planting_after_one_card_draws_the_face_up_cards_right_away() -> None:
    """Ruling 11."""
    game = new_game(5, [[RED, SOY]], then=[WAX, CHILI])
    coming = top_of_deck(game, 2)
    game.apply(Plant(0, 0))
    assert game.state.face_up == []
    events = game.apply(EndStep(0))
    assert game.state.face_up == coming
    assert FaceUpDrawn(0, tuple(coming)) in events


def test_a_player_without_cards_in_hand_skips_step_1() -> None:
    pool = CardPool()
    deck = pool.beans([WAX, CHILI, BLUE])
    engine = engine_for(table(4, deck=deck))
    events = engine.start()
    assert engine.state.step is Step.TRADE
    assert engine.state.face_up == deck[:2]
    assert FaceUpDrawn(0, tuple(deck[:2])) in events


def test_the_same_variety_may_grow_in_two_fields() -> None:
    """Ruling 10."""
    game = new_game(4, [[RED, RED, SOY]])
    apply_all(game, Plant(0, 0), Plant(0, 1))
    fields = game.state.players[0].fields
    assert [f.variety for f in fields] == [RED, RED]
    assert [len(f.cards) for f in fields] == [1, 1]


# --- steps 3 and 4 ------------------------------------------------------------------------------


def test_face_up_cards_kept_when_trading_ends_are_planted_in_step_3_in_any_order() -> None:
    """Ruling 6: face-up cards not traded are the active player's to plant in step 3."""
    game = new_game(3, [[RED, BLUE]], then=[WAX, CHILI])
    apply_all(game, Plant(0, 0), EndStep(0))
    kept = list(game.state.face_up)
    events = game.apply(EndStep(0))
    assert TradingEnded(0, tuple(kept)) in events
    assert game.state.step is Step.PLANT_SET_ASIDE
    assert game.state.players[0].set_aside == kept
    assert game.state.face_up == []
    game.apply(PlantSetAside(0, 1, 1))  # the Chili first
    assert game.state.players[0].set_aside == kept[:1]
    game.apply(PlantSetAside(0, 0, 2))
    assert [f.cards for f in game.state.players[0].fields][1:] == [[kept[1]], [kept[0]]]
    assert game.state.active == 1


def test_step_4_draws_three_cards_one_at_a_time_to_the_back_of_the_hand() -> None:
    """Ruling 3: drawn cards go to the back, in the order drawn."""
    game = new_game(4, [[RED, RED, BLUE, SOY]], then=[RED, RED, WAX, CHILI, STINK])
    apply_all(game, Plant(0, 0), Plant(0, 0), EndStep(0))
    coming = top_of_deck(game, 3)
    hand = list(game.state.players[0].hand)
    events = apply_all(game, PlantSetAside(0, 0, 0), PlantSetAside(0, 0, 0))
    assert varieties(coming) == [WAX, CHILI, STINK]
    assert game.state.players[0].hand == hand + coming
    assert CardsDrawn(0, tuple(coming)) in events
    assert events[-2:] == [TurnBegan(1, 2), StepBegan(1, Step.PLANT)]


def test_six_and_seven_players_draw_four_cards_in_step_4() -> None:
    game = new_game(6, [[RED, RED, BLUE]], then=[RED, RED])
    apply_all(game, Plant(0, 0), Plant(0, 0), EndStep(0))
    coming = top_of_deck(game, 4)
    apply_all(game, PlantSetAside(0, 0, 0), PlantSetAside(0, 0, 0))
    assert game.state.players[0].hand[-4:] == coming
    assert len(game.state.players[0].hand) == 1 + 4


def test_the_turn_passes_to_the_left_and_round_the_table() -> None:
    game = new_game(3)
    seen = []
    for _ in range(4):
        seen.append((game.state.active, game.state.turn))
        play_short_turn(game)
    assert seen == [(0, 1), (1, 2), (2, 3), (0, 4)]


# --- harvesting and selling (ruling 1) ----------------------------------------------------------


def test_example_5_three_chili_beans_sell_for_one_coin_and_two_go_to_the_discard_pile() -> None:
    """Ruling 1; example 5: Mark sells 3 Chili for 1 coin, 2 go to the discard pile."""
    pool = CardPool()
    chili = pool.take(CHILI, 3)
    engine = engine_for(table(4, fields=[[chili]], hands=[[pool.one(RED)]]))
    events = engine.apply(Harvest(0, 0))
    mark = engine.state.players[0]
    assert mark.coins == [chili[2]]
    assert engine.state.discard == chili[:2]
    assert mark.fields[0].cards == []
    assert events == [FieldHarvested(0, 0, (chili[2], chili[0], chili[1]), 1)]


def test_example_6_two_chili_beans_sell_for_nothing() -> None:
    pool = CardPool()
    chili = pool.take(CHILI, 2)
    engine = engine_for(table(4, fields=[[chili]], hands=[[pool.one(RED)]]))
    engine.apply(Harvest(0, 0))
    assert engine.state.players[0].coins == []
    assert engine.state.discard == chili


def test_the_last_planted_beans_become_coins_that_keep_their_identity() -> None:
    """Ruling 1: coins are cards on an earnings stack, newest on top."""
    pool = CardPool()
    stink = pool.take(STINK, 5)
    soy = pool.take(SOY, 4)
    engine = engine_for(table(4, fields=[[stink, soy]], hands=[[pool.one(RED)]]))
    engine.apply(Harvest(0, 0))
    engine.apply(Harvest(0, 1))
    player = engine.state.players[0]
    assert player.coins == [stink[3], stink[4], soy[2], soy[3]]
    assert varieties(player.coins) == [STINK, STINK, SOY, SOY]
    assert engine.state.discard == stink[:3] + soy[:2]


def test_buying_the_third_field_puts_the_newest_coins_on_the_discard_pile_as_beans() -> None:
    """Ruling 1: the top coins are paid, and are beans again on the discard pile."""
    pool = CardPool()
    coins = pool.take(BLUE, 2) + pool.take(SOY, 2)
    engine = engine_for(table(4, coins=[coins], hands=[[pool.one(RED)]]))
    events = engine.apply(BuyField(0))
    player = engine.state.players[0]
    assert events == [ThirdFieldBought(0, tuple(coins[1:]))]
    assert player.coins == coins[:1]
    assert engine.state.discard == coins[1:]
    assert len(player.fields) == 3 and player.bought_third_field
    assert not set(coins) & set(engine.state.box)


def test_with_six_players_the_third_field_costs_two_coins() -> None:
    pool = CardPool()
    coins = pool.take(BLUE, 3)
    engine = engine_for(table(6, coins=[coins], hands=[[pool.one(RED)]]))
    engine.apply(BuyField(0))
    assert engine.state.players[0].coins == coins[:1]
    assert engine.state.discard == coins[1:]


def test_a_bought_third_field_may_be_planted_at_once() -> None:
    pool = CardPool()
    red = pool.one(RED)
    engine = engine_for(
        table(
            4,
            hands=[[red]],
            fields=[[pool.take(SOY, 2), pool.take(BLUE, 2)]],
            coins=[pool.take(CHILI, 3)],
        )
    )
    assert Plant(0, 2) not in legal_actions(engine.state, 0).actions
    apply_all(engine, BuyField(0), Plant(0, 2))
    assert engine.state.players[0].fields[2].cards == [red]


# --- ruling 8: a card that fits nowhere ---------------------------------------------------------


def test_a_front_card_that_fits_nowhere_is_planted_after_a_forced_harvest() -> None:
    """Ruling 8."""
    pool = CardPool()
    blue = pool.one(BLUE)
    soy = pool.take(SOY, 2)
    engine = engine_for(
        table(
            4,
            hands=[[blue, pool.one(RED)]],
            fields=[[pool.take(RED, 3), soy]],
            deck=pool.take(WAX, 4),
        )
    )
    with pytest.raises(IllegalActionError):
        engine.apply(Plant(0, 1))
    apply_all(engine, Harvest(0, 1), Plant(0, 1))
    assert engine.state.players[0].fields[1].cards == [blue]
    assert engine.state.players[0].coins == [soy[1]]


def test_a_set_aside_card_that_fits_nowhere_is_planted_after_buying_the_third_field() -> None:
    """Ruling 8, step 3."""
    pool = CardPool()
    blue = pool.one(BLUE)
    engine = engine_for(
        table(
            4,
            hands=[[], [pool.one(GREEN)]],
            set_aside=[[], [blue]],
            fields=[[], [pool.take(SOY, 2), pool.take(RED, 1)]],
            coins=[[], pool.take(CHILI, 3)],
            step=Step.PLANT_SET_ASIDE,
            deck=pool.take(WAX, 8),
        )
    )
    apply_all(engine, BuyField(1), PlantSetAside(1, 0, 2))
    assert engine.state.players[1].fields[2].cards == [blue]
    assert engine.state.step is Step.PLANT  # step 4 drew for seat 0 and seat 1 began
    assert engine.state.active == 1


def test_a_refused_action_leaves_the_state_as_it_was() -> None:
    game = new_game(4, [[RED, SOY]])
    before = game.state.copy()
    with pytest.raises(IllegalActionError) as caught:
        game.apply(Plant(1, 0))
    assert caught.value.code == "not-your-turn"
    assert isinstance(caught.value, ValueError)
    assert game.state == before
    assert game.actions == []
    assert of_type(game.apply(Plant(0, 0)), BeanPlanted)
    assert variety_of(game.state.players[0].fields[0].cards[0]) is RED
