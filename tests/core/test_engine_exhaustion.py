"""Deck exhaustion, reshuffles and the end of the game (rulings 4 and 12)."""

from __future__ import annotations

import pytest

from bohnanza.core.actions import AcceptTrade, EndStep, Harvest, Plant, PlantSetAside, ProposeTrade
from bohnanza.core.cards import Variety
from bohnanza.core.events import (
    CardsDrawn,
    DeckExhausted,
    DeckReshuffled,
    FaceUpDrawn,
    GameEnded,
    TurnBegan,
)
from bohnanza.core.legal import waiting_for
from bohnanza.core.state import Step
from bohnanza.core.table_setup import setup_for

from .builders import CardPool, FakeShuffler, apply_all, engine_for, of_type, table, varieties

BLUE, RED, SOY, CHILI, STINK, GREEN, WAX = (
    Variety.BLUE,
    Variety.RED,
    Variety.SOY,
    Variety.CHILI,
    Variety.STINK,
    Variety.GREEN,
    Variety.WAX,
)


def test_the_discard_pile_is_reshuffled_the_moment_the_last_card_is_drawn() -> None:
    """Ruling 4."""
    pool = CardPool()
    last = pool.one(WAX)
    a, b, c, d = pool.take(CHILI, 4)
    shuffler = FakeShuffler(orders=[[d, b, c, a]])
    engine = engine_for(
        table(
            4,
            hands=[[], [pool.one(RED)]],
            set_aside=[[pool.one(RED)]],
            deck=[last],
            discard=[a, b, c, d],
            step=Step.PLANT_SET_ASIDE,
        ),
        shuffler,
    )
    events = engine.apply(PlantSetAside(0, 0, 0))
    state = engine.state
    assert shuffler.received == [[a, b, c, d]]
    assert state.players[0].hand == [last, d, b]
    assert list(reversed(state.deck)) == [c, a]
    assert state.discard == []
    assert state.exhaustions == 1
    exhausted = events.index(DeckExhausted(1, False))
    assert events[exhausted + 1] == DeckReshuffled(4)
    assert CardsDrawn(0, (last, d, b)) in events
    assert not state.is_over


def test_an_empty_discard_pile_leaves_the_deck_empty_until_the_next_draw_exhausts_it_again() -> (
    None
):
    """Ruling 4: the next draw counts as the next exhaustion and reshuffles what is there now."""
    pool = CardPool()
    last_three = pool.beans([WAX, WAX, WAX])
    stink = pool.take(STINK, 5)
    shuffler = FakeShuffler()
    engine = engine_for(
        table(
            4,
            hands=[[], [pool.one(RED), pool.one(RED)]],
            set_aside=[[pool.one(RED)]],
            fields=[[], [stink]],
            deck=last_three,
            step=Step.PLANT_SET_ASIDE,
        ),
        shuffler,
    )
    events = engine.apply(PlantSetAside(0, 0, 0))
    state = engine.state
    assert of_type(events, DeckExhausted) == [DeckExhausted(1, False)]
    assert of_type(events, DeckReshuffled) == [DeckReshuffled(0)]
    assert state.deck == [] and state.active == 1
    # Seat 1 sells 5 Stink (2 coins, 3 to the discard pile), then its face-up draw exhausts again.
    events = apply_all(engine, Harvest(1, 0), Plant(1, 0), Plant(1, 0))
    assert of_type(events, DeckExhausted) == [DeckExhausted(2, False)]
    assert shuffler.received == [[], stink[:3]]
    assert of_type(events, FaceUpDrawn) == [FaceUpDrawn(1, tuple(stink[:2]))]
    assert state.exhaustions == 2 and not state.is_over


def test_a_draw_from_a_deck_left_empty_can_be_the_final_exhaustion() -> None:
    """Ruling 4, with three players: the second exhaustion is the last."""
    pool = CardPool()
    last = pool.one(WAX)
    engine = engine_for(
        table(
            3,
            set_aside=[[pool.one(RED)]],
            deck=[last],
            step=Step.PLANT_SET_ASIDE,
        )
    )
    events = engine.apply(PlantSetAside(0, 0, 0))
    assert of_type(events, DeckExhausted) == [DeckExhausted(1, False), DeckExhausted(2, True)]
    assert engine.state.players[0].hand == [last]
    assert engine.state.is_over


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_final_exhaustion_in_step_4_keeps_the_drawn_cards_and_ends_the_game_at_once(
    players: int,
) -> None:
    """Ruling 4; the set-up table's final exhaustion (3 players: 2nd; 4-7 players: 3rd)."""
    final = setup_for(players).final_exhaustion
    pool = CardPool(setup_for(players).cards_in_play())
    last_two = pool.beans([WAX, CHILI])
    engine = engine_for(
        table(
            players,
            hands=[[pool.one(BLUE)], [pool.one(SOY)]],
            set_aside=[[pool.one(RED)]],
            deck=last_two,
            discard=pool.take(GREEN, 3),
            step=Step.PLANT_SET_ASIDE,
            exhaustions=final - 1,
        )
    )
    events = engine.apply(PlantSetAside(0, 0, 0))
    state = engine.state
    assert of_type(events, DeckExhausted) == [DeckExhausted(final, True)]
    assert not of_type(events, DeckReshuffled)
    assert state.players[0].hand[1:] == last_two
    assert CardsDrawn(0, tuple(last_two)) in events
    assert not of_type(events, TurnBegan)
    assert state.is_over and state.step is Step.GAME_OVER
    assert isinstance(events[-1], GameEnded)


def test_an_exhaustion_before_the_final_one_does_not_end_the_game() -> None:
    pool = CardPool()
    engine = engine_for(
        table(
            5,
            hands=[[], [pool.one(SOY)]],
            set_aside=[[pool.one(RED)]],
            deck=pool.beans([WAX]),
            discard=pool.take(GREEN, 5),
            step=Step.PLANT_SET_ASIDE,
            exhaustions=1,
        )
    )
    events = engine.apply(PlantSetAside(0, 0, 0))
    assert of_type(events, DeckExhausted) == [DeckExhausted(2, False)]
    assert len(engine.state.players[0].hand) == 3
    assert engine.state.active == 1 and not engine.state.is_over


def test_a_final_exhaustion_in_step_2_draws_just_one_card_and_trading_goes_on() -> None:
    """Ruling 4: the active player keeps what was drawn."""
    pool = CardPool()
    last = pool.one(SOY)
    engine = engine_for(
        table(
            4,
            hands=[pool.beans([RED, BLUE]), pool.beans([RED, GREEN])],
            deck=[last],
            discard=pool.take(GREEN, 4),
            exhaustions=2,
        )
    )
    events = apply_all(engine, Plant(0, 0), EndStep(0))
    state = engine.state
    assert of_type(events, DeckExhausted) == [DeckExhausted(3, True)]
    assert of_type(events, FaceUpDrawn) == [FaceUpDrawn(0, (last,))]
    assert state.face_up == [last]
    assert state.final_turn and state.step is Step.TRADE
    assert not of_type(events, DeckReshuffled)


def test_after_a_final_exhaustion_in_step_2_the_game_ends_when_every_player_has_planted() -> None:
    """Rulings 4 and 12: step 3 is completed by everyone, then there is no step 4."""
    pool = CardPool()
    last = pool.one(SOY)
    engine = engine_for(
        table(
            4,
            hands=[pool.beans([RED, BLUE]), pool.beans([RED, GREEN])],
            deck=[last],
            discard=pool.take(GREEN, 4),
            exhaustions=2,
        )
    )
    apply_all(engine, Plant(0, 0), EndStep(0))
    engine.apply(ProposeTrade(0, 1, face_up=(0,), want=(RED,)))
    engine.apply(AcceptTrade(1, max(engine.state.offers), hand=(0,)))
    engine.apply(EndStep(0))
    state = engine.state
    assert state.step is Step.PLANT_SET_ASIDE and not state.is_over
    engine.apply(PlantSetAside(0, 0, 0))  # Steve plants the Red he received
    assert not state.is_over
    assert waiting_for(state) == (1,)
    events = engine.apply(PlantSetAside(1, 0, 0))  # Anna plants the Soy
    assert state.is_over
    assert not of_type(events, CardsDrawn)
    assert isinstance(events[-1], GameEnded)
    assert varieties(state.players[0].hand) == [BLUE]
    assert varieties(state.players[1].hand) == [GREEN]


def test_a_final_exhaustion_in_step_2_with_nothing_set_aside_ends_the_game_with_trading() -> None:
    """Ruling 12: with no set-aside cards, step 3 is complete at once."""
    pool = CardPool()
    engine = engine_for(
        table(
            4,
            hands=[pool.beans([RED, BLUE])],
            deck=[],
            discard=[],
            exhaustions=2,
        )
    )
    events = apply_all(engine, Plant(0, 0), EndStep(0))
    assert of_type(events, FaceUpDrawn) == [FaceUpDrawn(0, ())]
    assert engine.state.final_turn and not engine.state.is_over
    events = engine.apply(EndStep(0))
    assert engine.state.is_over
    assert isinstance(events[-1], GameEnded)
