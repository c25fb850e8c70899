"""Step 2, trading and donating, and step 3 (rulings 3, 6, 7; rulebook examples 2, 3, 4)."""

from __future__ import annotations

import pytest

from bohnanza.core.actions import (
    AcceptTrade,
    Action,
    CounterTrade,
    DeclineTrade,
    EndStep,
    Harvest,
    Plant,
    PlantSetAside,
    ProposeTrade,
    WithdrawTrade,
)
from bohnanza.core.cards import Variety
from bohnanza.core.errors import IllegalActionError
from bohnanza.core.events import Event, TradeAccepted, TradeClosed, TradeProposed
from bohnanza.core.game import Game
from bohnanza.core.state import Step, TradeOffer

from .builders import apply_all, new_game, of_type, varieties

BLUE, RED, SOY, CHILI, STINK, GREEN, WAX, GARDEN = (
    Variety.BLUE,
    Variety.RED,
    Variety.SOY,
    Variety.CHILI,
    Variety.STINK,
    Variety.GREEN,
    Variety.WAX,
    Variety.GARDEN,
)
STEVE, ANNA, BOB, CLARA = 0, 1, 2, 3


def refused(game: Game, action: Action) -> str:
    """The code of the refusal; the state must not change."""
    before = game.state.copy()
    with pytest.raises(IllegalActionError) as caught:
        game.apply(action)
    assert game.state == before
    return caught.value.code


def steves_trade() -> Game:
    """Four players. Steve plants a Red and draws a Garden and a Soy face up (example 2)."""
    game = new_game(
        4,
        [
            [RED, BLUE, STINK, BLUE, GREEN],  # Steve
            [WAX, RED, CHILI, GREEN, STINK],  # Anna
            [WAX, WAX, CHILI, CHILI, STINK],  # Bob: no Red
            [RED, RED, GREEN, GREEN, WAX],  # Clara
        ],
        then=[GARDEN, SOY],
    )
    apply_all(game, Plant(STEVE, 0), EndStep(STEVE))
    assert game.state.step is Step.TRADE
    assert varieties(game.state.face_up) == [GARDEN, SOY]
    return game


def offer_in(events: list[Event]) -> TradeOffer:
    """The offer the events opened."""
    proposed = [e for e in events if isinstance(e, TradeProposed)]
    assert len(proposed) == 1
    return proposed[0].offer


# --- the rulebook's examples --------------------------------------------------------------------


def test_example_2_steve_keeps_the_garden_and_offers_the_soy_to_everyone_for_a_red() -> None:
    game = steves_trade()
    soy = game.state.face_up[1]
    offers = [
        offer_in(game.apply(ProposeTrade(STEVE, seat, face_up=(1,), want=(RED,))))
        for seat in (ANNA, BOB, CLARA)
    ]
    assert [(o.receiver, o.give, o.want) for o in offers] == [
        (seat, (soy,), (RED,)) for seat in (ANNA, BOB, CLARA)
    ]
    # Anna and Clara hold a Red and may accept; Bob may only decline.
    assert AcceptTrade(ANNA, offers[0].id, hand=(1,)) in game.legal_actions(ANNA).actions
    assert AcceptTrade(CLARA, offers[2].id, hand=(0,)) in game.legal_actions(CLARA).actions
    bob = [a for a in game.legal_actions(BOB).actions if a.kind.endswith("-trade")]
    assert bob == [DeclineTrade(BOB, offers[1].id)]
    assert game.state.face_up[1] == soy  # nothing moves before an offer is accepted


def test_example_3_steve_trades_his_face_up_soy_and_a_hand_blue_for_annas_red() -> None:
    game = steves_trade()
    garden, soy = game.state.face_up
    steve, anna = game.state.players[STEVE], game.state.players[ANNA]
    blues = [steve.hand[0], steve.hand[2]]
    annas_red = anna.hand[1]
    offer = offer_in(game.apply(ProposeTrade(STEVE, ANNA, hand=(2,), face_up=(1,), want=(RED,))))
    assert offer.give == (soy, blues[1])
    events = game.apply(AcceptTrade(ANNA, offer.id, hand=(1,)))
    assert events == [TradeAccepted(offer, (annas_red,))]
    # Received cards are set aside, never taken into the hand (ruling 6).
    assert steve.set_aside == [annas_red]
    assert anna.set_aside == [soy, blues[1]]
    assert game.state.face_up == [garden]
    # The second Blue left Steve's hand; the rest keep their order (ruling 3).
    assert steve.hand[0] == blues[0]
    assert varieties(steve.hand) == [BLUE, STINK, GREEN]
    assert varieties(anna.hand) == [WAX, CHILI, GREEN, STINK]
    assert game.state.offers == {}


def test_example_4_after_trading_steve_plants_the_red_then_the_garden() -> None:
    game = steves_trade()
    garden, _ = game.state.face_up
    offer = offer_in(game.apply(ProposeTrade(STEVE, ANNA, hand=(2,), face_up=(1,), want=(RED,))))
    game.apply(AcceptTrade(ANNA, offer.id, hand=(1,)))
    game.apply(EndStep(STEVE))
    steve = game.state.players[STEVE]
    assert game.state.step is Step.PLANT_SET_ASIDE
    assert varieties(steve.set_aside) == [RED, GARDEN]
    red = steve.set_aside[0]
    game.apply(PlantSetAside(STEVE, 0, 0))  # the Red on his first field
    game.apply(PlantSetAside(STEVE, 0, 1))  # the Garden on his second field
    assert varieties(steve.fields[0].cards) == [RED, RED]
    assert steve.fields[0].cards[-1] == red
    assert steve.fields[1].cards == [garden]
    # Anna has not planted yet, so step 4 has not begun (ruling 7).
    assert game.state.step is Step.PLANT_SET_ASIDE
    assert game.waiting_for() == (ANNA,)


# --- proposing, countering, answering -----------------------------------------------------------


def test_a_countered_offer_closes_and_the_counter_goes_back_to_the_proposer() -> None:
    game = steves_trade()
    first = offer_in(game.apply(ProposeTrade(STEVE, ANNA, face_up=(1,), want=(RED,))))
    events = game.apply(CounterTrade(ANNA, first.id, hand=(1,), want=(SOY, BLUE)))
    counter = offer_in(events)
    assert events[0] == TradeClosed(first, "countered")
    assert events[1] == TradeProposed(counter, replaces=first.id)
    assert (counter.proposer, counter.receiver, counter.want) == (ANNA, STEVE, (SOY, BLUE))
    assert list(game.state.offers) == [counter.id]
    assert refused(game, AcceptTrade(ANNA, first.id, hand=(1,))) == "no-such-offer"
    game.apply(AcceptTrade(STEVE, counter.id, hand=(0,), face_up=(1,)))
    assert varieties(game.state.players[ANNA].set_aside) == [SOY, BLUE]
    assert varieties(game.state.players[STEVE].set_aside) == [RED]


def test_a_non_active_player_may_propose_to_the_active_player_who_pays_with_a_face_up_card() -> (
    None
):
    game = steves_trade()
    offer = offer_in(game.apply(ProposeTrade(ANNA, STEVE, hand=(1,), want=(GARDEN,))))
    assert AcceptTrade(STEVE, offer.id, face_up=(0,)) in game.legal_actions(STEVE).actions
    game.apply(AcceptTrade(STEVE, offer.id, face_up=(0,)))
    assert varieties(game.state.players[ANNA].set_aside) == [GARDEN]
    assert varieties(game.state.face_up) == [SOY]


def test_a_declined_offer_moves_no_card() -> None:
    game = steves_trade()
    before = game.state.copy()
    offer = offer_in(game.apply(ProposeTrade(STEVE, CLARA, face_up=(1,), want=(RED,))))
    events = game.apply(DeclineTrade(CLARA, offer.id))
    assert events == [TradeClosed(offer, "declined")]
    assert game.state.players == before.players
    assert game.state.face_up == before.face_up
    assert game.state.offers == {}


def test_only_the_proposer_may_withdraw_an_offer() -> None:
    game = steves_trade()
    offer = offer_in(game.apply(ProposeTrade(ANNA, STEVE, hand=(0,), want=(SOY,))))
    assert refused(game, WithdrawTrade(STEVE, offer.id)) == "not-your-offer"
    assert WithdrawTrade(ANNA, offer.id) in game.legal_actions(ANNA).actions
    assert game.apply(WithdrawTrade(ANNA, offer.id)) == [TradeClosed(offer, "withdrawn")]
    assert refused(game, AcceptTrade(STEVE, offer.id, face_up=(1,))) == "no-such-offer"


def test_only_the_receiver_may_accept_decline_or_counter_an_offer() -> None:
    game = steves_trade()
    offer = offer_in(game.apply(ProposeTrade(STEVE, ANNA, face_up=(1,), want=(RED,))))
    assert refused(game, AcceptTrade(CLARA, offer.id, hand=(0,))) == "not-your-offer"
    assert refused(game, DeclineTrade(STEVE, offer.id)) == "not-your-offer"
    assert refused(game, CounterTrade(BOB, offer.id, hand=(0,))) == "not-your-offer"
    assert refused(game, DeclineTrade(ANNA, 99)) == "no-such-offer"


def test_an_accepting_player_must_give_exactly_the_varieties_asked() -> None:
    game = steves_trade()
    offer = offer_in(game.apply(ProposeTrade(STEVE, ANNA, face_up=(1,), want=(RED,))))
    assert refused(game, AcceptTrade(ANNA, offer.id, hand=(0,))) == "wrong-cards"
    assert refused(game, AcceptTrade(ANNA, offer.id)) == "wrong-cards"
    assert refused(game, AcceptTrade(ANNA, offer.id, hand=(1, 0))) == "wrong-cards"
    assert refused(game, AcceptTrade(ANNA, offer.id, hand=(1, 1))) == "card-twice"
    assert refused(game, AcceptTrade(ANNA, offer.id, hand=(5,))) == "no-such-card"
    assert refused(game, AcceptTrade(ANNA, offer.id, face_up=(0,))) == "not-your-face-up"


def test_an_offer_must_give_a_card_and_ask_no_more_than_the_partner_holds() -> None:
    game = steves_trade()
    assert refused(game, ProposeTrade(STEVE, ANNA, want=(RED,))) == "empty-offer"
    too_many = (RED,) * 6
    assert refused(game, ProposeTrade(STEVE, ANNA, face_up=(0,), want=too_many)) == "want-too-many"
    assert refused(game, ProposeTrade(STEVE, ANNA, face_up=(2,))) == "no-such-card"
    assert refused(game, ProposeTrade(STEVE, ANNA, hand=(0, 0))) == "card-twice"
    assert refused(game, ProposeTrade(ANNA, STEVE, face_up=(0,))) == "not-your-face-up"


def test_non_active_players_may_not_trade_with_each_other() -> None:
    """Ruling 6."""
    game = steves_trade()
    assert refused(game, ProposeTrade(ANNA, BOB, hand=(0,), want=(WAX,))) == "trade-with-active"
    options = game.legal_actions(ANNA).trade
    assert options is not None and options.partners == (STEVE,)


# --- stale offers and positions -----------------------------------------------------------------


def test_an_offer_whose_cards_are_gone_is_stale_and_cannot_be_accepted() -> None:
    """Ruling 6: an offer binds only if every card in it is still where it said."""
    game = steves_trade()
    to_anna = offer_in(game.apply(ProposeTrade(STEVE, ANNA, face_up=(1,), want=(RED,))))
    to_clara = offer_in(game.apply(ProposeTrade(STEVE, CLARA, face_up=(1,), want=(RED,))))
    game.apply(AcceptTrade(CLARA, to_clara.id, hand=(0,)))
    assert refused(game, AcceptTrade(ANNA, to_anna.id, hand=(1,))) == "stale-offer"
    answers = [a for a in game.legal_actions(ANNA).actions if a.kind.endswith("-trade")]
    assert answers == [DeclineTrade(ANNA, to_anna.id)]


def test_a_hand_card_offered_twice_leaves_the_second_offer_stale() -> None:
    game = steves_trade()
    gift = offer_in(game.apply(ProposeTrade(ANNA, STEVE, hand=(1,))))
    trade = offer_in(game.apply(ProposeTrade(ANNA, STEVE, hand=(1,), want=(SOY,))))
    game.apply(AcceptTrade(STEVE, gift.id))
    assert refused(game, AcceptTrade(STEVE, trade.id, face_up=(1,))) == "stale-offer"


def test_an_offer_fixes_its_cards_when_made_though_hand_positions_shift() -> None:
    """Ruling 3: trades name hand cards by position; the offer keeps the cards named then."""
    game = steves_trade()
    anna = game.state.players[ANNA]
    wax, red, chili, green, stink = anna.hand
    later = offer_in(game.apply(ProposeTrade(ANNA, STEVE, hand=(4,))))
    first = offer_in(game.apply(ProposeTrade(ANNA, STEVE, hand=(0, 1))))
    game.apply(AcceptTrade(STEVE, first.id))
    assert anna.hand == [chili, green, stink]
    game.apply(AcceptTrade(STEVE, later.id))
    assert anna.hand == [chili, green]
    assert game.state.players[STEVE].set_aside == [wax, red, stink]


def test_which_of_two_equal_beans_leaves_the_hand_changes_the_order_of_the_rest() -> None:
    """Ruling 3."""
    results = []
    for position in (0, 3):
        game = new_game(4, [[RED], [BLUE, RED, SOY, BLUE, GREEN]], then=[WAX, CHILI])
        apply_all(game, Plant(STEVE, 0), EndStep(STEVE))
        game.apply(ProposeTrade(ANNA, STEVE, hand=(position,)))
        game.apply(AcceptTrade(STEVE, max(game.state.offers)))
        results.append(varieties(game.state.players[ANNA].hand))
    assert results == [[RED, SOY, BLUE, GREEN], [BLUE, RED, SOY, GREEN]]


# --- donations and what is received -------------------------------------------------------------


def test_a_donation_asks_nothing_and_need_not_be_accepted() -> None:
    """Ruling 6: a donation is an offer with nothing in return."""
    game = steves_trade()
    gift = offer_in(game.apply(ProposeTrade(STEVE, BOB, face_up=(0,))))
    assert gift.is_donation
    game.apply(DeclineTrade(BOB, gift.id))
    assert varieties(game.state.face_up) == [GARDEN, SOY]
    gift = offer_in(game.apply(ProposeTrade(STEVE, BOB, face_up=(0,))))
    assert AcceptTrade(BOB, gift.id) in game.legal_actions(BOB).actions
    game.apply(AcceptTrade(BOB, gift.id))
    assert varieties(game.state.players[BOB].set_aside) == [GARDEN]
    assert game.state.players[STEVE].set_aside == []


def test_a_non_active_player_may_donate_hand_cards_to_the_active_player() -> None:
    game = steves_trade()
    stink = game.state.players[ANNA].hand[4]
    gift = offer_in(game.apply(ProposeTrade(ANNA, STEVE, hand=(4,))))
    game.apply(AcceptTrade(STEVE, gift.id))
    assert game.state.players[STEVE].set_aside == [stink]
    assert len(game.state.players[ANNA].hand) == 4


def test_received_cards_are_set_aside_and_cannot_be_traded_again() -> None:
    """Ruling 6."""
    game = steves_trade()
    anna = game.state.players[ANNA]
    offer = offer_in(game.apply(ProposeTrade(STEVE, ANNA, face_up=(1,), want=(RED,))))
    game.apply(AcceptTrade(ANNA, offer.id, hand=(1,)))
    assert len(anna.hand) == 4 and varieties(anna.set_aside) == [SOY]
    options = game.legal_actions(ANNA).trade
    assert options is not None and options.hand_size == 4
    assert refused(game, ProposeTrade(ANNA, STEVE, hand=(4,))) == "no-such-card"
    assert refused(game, ProposeTrade(STEVE, ANNA, hand=(4,))) == "no-such-card"


def test_the_active_player_may_trade_hand_cards_after_the_face_up_cards_are_gone() -> None:
    game = steves_trade()
    apply_all(game, ProposeTrade(STEVE, BOB, face_up=(0, 1)))
    game.apply(AcceptTrade(BOB, max(game.state.offers)))
    assert game.state.face_up == []
    offer = offer_in(game.apply(ProposeTrade(STEVE, CLARA, hand=(0,), want=(GREEN,))))
    game.apply(AcceptTrade(CLARA, offer.id, hand=(2,)))
    assert varieties(game.state.players[STEVE].set_aside) == [GREEN]


def test_ending_trading_closes_every_open_offer() -> None:
    game = steves_trade()
    a = offer_in(game.apply(ProposeTrade(STEVE, ANNA, face_up=(1,), want=(RED,))))
    b = offer_in(game.apply(ProposeTrade(CLARA, STEVE, hand=(0,))))
    events = game.apply(EndStep(STEVE))
    assert of_type(events, TradeClosed) == [
        TradeClosed(a, "trading-ended"),
        TradeClosed(b, "trading-ended"),
    ]
    assert game.state.offers == {}
    assert refused(game, AcceptTrade(ANNA, a.id, hand=(1,))) == "not-trading"


def test_only_the_active_player_ends_trading() -> None:
    game = steves_trade()
    assert refused(game, EndStep(ANNA)) == "not-your-turn"


# --- step 3 is simultaneous (ruling 7) ----------------------------------------------------------


def test_step_3_lets_every_player_plant_in_any_order_and_step_4_waits_for_all() -> None:
    """Ruling 7."""
    game = steves_trade()
    offer = offer_in(game.apply(ProposeTrade(STEVE, ANNA, face_up=(1,), want=(RED,))))
    game.apply(AcceptTrade(ANNA, offer.id, hand=(1,)))
    gift = offer_in(game.apply(ProposeTrade(CLARA, STEVE, hand=(4,))))
    game.apply(AcceptTrade(STEVE, gift.id))
    game.apply(EndStep(STEVE))
    steve = game.state.players[STEVE]
    assert varieties(steve.set_aside) == [RED, WAX, GARDEN]
    assert game.waiting_for() == (STEVE, ANNA)
    assert not game.legal_actions(BOB).waiting
    hand = list(steve.hand)
    game.apply(PlantSetAside(ANNA, 0, 0))  # Anna plants before Steve
    game.apply(PlantSetAside(STEVE, 1, 1))  # the Wax first
    game.apply(PlantSetAside(STEVE, 0, 0))
    assert game.waiting_for() == (STEVE,)
    assert game.state.step is Step.PLANT_SET_ASIDE
    # The Garden fits nowhere; the single Wax is protected, so the Reds are sold (ruling 8).
    assert [a for a in game.legal_actions(STEVE).actions if a.kind == "harvest"] == [
        Harvest(STEVE, 0)
    ]
    coming = list(reversed(game.state.deck))[:3]
    apply_all(game, Harvest(STEVE, 0), PlantSetAside(STEVE, 0, 0))
    assert varieties(steve.coins) == [RED]
    assert steve.hand == hand + coming
    assert (game.state.active, game.state.step) == (ANNA, Step.PLANT)
