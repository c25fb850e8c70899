"""Set-up by player count (rules/README.md, set-up table) and the deal."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from bohnanza.core.actions import BuyField, EndStep, Plant, PlantSetAside
from bohnanza.core.cards import Variety, cards_of, variety_of
from bohnanza.core.engine import deal
from bohnanza.core.game import Game
from bohnanza.core.legal import legal_actions
from bohnanza.core.state import Step
from bohnanza.core.table_setup import setup_for

from .builders import CardPool, apply_all, new_game, table


@dataclass(frozen=True)
class Row:
    players: int
    removed: set[Variety]
    cards: int
    fields: int
    third_field_price: int | None
    deal: tuple[int, ...]
    draw_in_step_4: int
    final_exhaustion: int


SETUP_TABLE = [
    Row(2, {Variety.GARDEN, Variety.COCOA}, 144, 2, 3, (5, 5), 2, 1),
    Row(3, {Variety.COCOA}, 150, 3, None, (5, 5, 5), 3, 2),
    Row(4, {Variety.COFFEE}, 130, 2, 3, (5, 5, 5, 5), 3, 3),
    Row(5, {Variety.COFFEE}, 130, 2, 3, (5, 5, 5, 5, 5), 3, 3),
    Row(6, {Variety.COCOA, Variety.GARDEN}, 144, 2, 2, (3, 4, 5, 6, 6, 6), 4, 3),
    Row(7, {Variety.COCOA, Variety.GARDEN}, 144, 2, 2, (3, 4, 5, 6, 6, 6, 6), 4, 3),
]


def by_count(row: Row) -> str:
    return f"{row.players}-players"


@pytest.mark.parametrize("row", SETUP_TABLE, ids=by_count)
def test_each_player_count_removes_its_varieties_and_plays_with_its_card_count(row: Row) -> None:
    setup = setup_for(row.players)
    assert set(setup.removed) == row.removed
    assert len(setup.cards_in_play()) == row.cards
    assert {variety_of(card) for card in setup.cards_in_play()}.isdisjoint(row.removed)
    assert sorted(setup.cards_in_play() + setup.cards_in_box()) == list(range(154))


@pytest.mark.parametrize("row", SETUP_TABLE, ids=by_count)
def test_each_player_count_has_its_fields_price_deal_draw_and_end(row: Row) -> None:
    setup = setup_for(row.players)
    assert setup.fields_at_start == row.fields
    assert setup.third_field_price == row.third_field_price
    assert setup.deal == row.deal
    assert setup.draw_in_step_4 == row.draw_in_step_4
    assert setup.final_exhaustion == row.final_exhaustion
    assert setup.is_duel == (row.players == 2)


@pytest.mark.parametrize("players", [0, 1, 8, 12])
def test_bohnanza_is_for_two_to_seven_players(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 7 players"):
        setup_for(players)


@pytest.mark.parametrize("row", SETUP_TABLE, ids=by_count)
def test_the_deal_gives_each_seat_its_whole_deal_in_turn_from_the_top(row: Row) -> None:
    deck = setup_for(row.players).cards_in_play()
    random.Random(row.players).shuffle(deck)
    state = deal(row.players, deck)
    start = 0
    for seat, size in enumerate(row.deal):
        assert state.players[seat].hand == deck[start : start + size]
        start += size
    assert list(reversed(state.deck)) == deck[start:]
    assert len(state.deck) == row.cards - sum(row.deal)


@pytest.mark.parametrize("row", SETUP_TABLE, ids=by_count)
def test_every_player_starts_with_empty_fields_no_coins_and_the_removed_beans_boxed(
    row: Row,
) -> None:
    game = Game.new(row.players, random.Random(1))
    for player in game.state.players:
        assert len(player.fields) == row.fields
        assert all(not field.cards for field in player.fields)
        assert player.coins == []
        assert not player.bought_third_field
    assert {variety_of(card) for card in game.state.box} == row.removed
    assert sorted(game.state.all_cards()) == list(range(154))


@pytest.mark.parametrize("row", SETUP_TABLE, ids=by_count)
def test_seat_0_starts_by_planting_its_front_card_on_any_empty_field(row: Row) -> None:
    game = Game.new(row.players, random.Random(2))
    state = game.state
    assert (state.active, state.turn) == (0, 1)
    assert state.step is (Step.DUEL_PLANT if row.players == 2 else Step.PLANT)
    assert game.legal_actions(0).actions[: row.fields] == tuple(
        Plant(0, field) for field in range(row.fields)
    )
    assert game.waiting_for() == (0,)


@pytest.mark.parametrize("row", SETUP_TABLE, ids=by_count)
def test_the_active_player_draws_the_step_4_count_to_the_back_of_his_hand(row: Row) -> None:
    blue = Variety.BLUE
    game = new_game(row.players, [[blue, blue, Variety.SOY]], then=[blue, blue, blue])
    state = game.state
    apply_all(game, Plant(0, 0), Plant(0, 0))
    if row.players == 2:
        game.apply(EndStep(0))  # no discard: the three face-up cards are drawn
    coming = list(reversed(state.deck))[: row.draw_in_step_4]
    rest_of_hand = list(state.players[0].hand)
    game.apply(EndStep(0))  # duel: leave the face-up cards on offer; else: end trading
    if row.players > 2:
        apply_all(game, PlantSetAside(0, 0, 0), PlantSetAside(0, 0, 0))
    assert state.players[0].hand == rest_of_hand + coming
    assert state.active == 1


@pytest.mark.parametrize("row", SETUP_TABLE, ids=by_count)
def test_the_third_field_costs_the_set_up_price_or_cannot_be_bought(row: Row) -> None:
    for coins in range(5):
        cards = CardPool(setup_for(row.players).cards_in_play()).take(Variety.BLUE, coins)
        state = table(row.players, coins=[cards])
        may_buy = row.third_field_price is not None and coins >= row.third_field_price
        assert (BuyField(0) in legal_actions(state, 0).actions) is may_buy, coins


def test_no_card_is_dealt_twice() -> None:
    game = Game.new(7, random.Random(3))
    hands = [card for player in game.state.players for card in player.hand]
    assert len(hands) == len(set(hands)) == 3 + 4 + 5 + 6 + 6 + 6 + 6


def test_a_deck_that_is_not_the_player_counts_cards_is_refused() -> None:
    deck = setup_for(4).cards_in_play()
    with pytest.raises(ValueError, match="exactly the 4-player cards"):
        deal(4, deck[:-1])
    with pytest.raises(ValueError, match="exactly the 4-player cards"):
        deal(4, [*deck[:-1], deck[0]])
    with pytest.raises(ValueError, match="exactly the 5-player cards"):
        deal(5, [*deck[:-1], cards_of(Variety.COFFEE)[0]])
