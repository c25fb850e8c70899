"""Why an action is refused: `check_action` takes an action only if it is legal now, and
raises an `IllegalActionError` with a code and a message saying why otherwise; it never changes
the state. Each kind of action has its check, asking the rule functions of `legal` that list the
actions too, so what is listed and what is taken agree (`tests/core/test_properties.py`).
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import (
    AcceptTrade,
    Action,
    BuyField,
    CounterTrade,
    DeclineTrade,
    DiscardFromHand,
    DiscardOffered,
    EndStep,
    Harvest,
    Plant,
    PlantFaceUp,
    PlantOffered,
    PlantSetAside,
    ProposeTrade,
    WithdrawTrade,
)
from .cards import Card, variety_of
from .errors import IllegalActionError
from .legal import (
    harvestable_fields,
    may_discard_from_hand,
    may_end_step,
    may_plant_from_hand,
    offer_cards_in_place,
    same_varieties,
    trade_options,
)
from .menu import TradeOptions
from .state import (
    CARD_VARIETIES,
    STEP_DUEL_FACE_UP,
    STEP_DUEL_OFFERED,
    STEP_DUEL_PLANT,
    STEP_GAME_OVER,
    STEP_PLANT,
    STEP_PLANT_SET_ASIDE,
    GameState,
    PlayerState,
    Step,
    TradeOffer,
)


def _fail(code: str, message: str) -> IllegalActionError:
    return IllegalActionError(code, message)


def check_action(state: GameState, action: Action) -> None:
    """Raise IllegalActionError unless `action` is legal now. Never changes the state."""
    if state.step is STEP_GAME_OVER:
        raise _fail("game-over", "The game is over.")
    if not 0 <= action.player < len(state.players):
        raise _fail("no-such-player", f"There is no seat {action.player + 1}.")
    checker = _CHECKERS.get(type(action))
    if checker is None:
        raise _fail("unknown-action", f"Unknown action {type(action).__name__}.")
    checker(state, action)


def _field_index(player: PlayerState, field: int) -> None:
    if not 0 <= field < len(player.fields):
        raise _fail("no-such-field", f"You have no field {field + 1}.")


def _check_planting(player: PlayerState, card: Card, field: int) -> None:
    _field_index(player, field)
    # `field in fields_for(player, card)`, asked of the one field named.
    planted_cards = player.fields[field].cards
    if planted_cards and CARD_VARIETIES[planted_cards[0]] is not CARD_VARIETIES[card]:
        planted = player.fields[field].variety
        assert planted is not None
        raise _fail(
            "field-taken",
            f"Field {field + 1} holds {planted.title}s; a {variety_of(card).title} "
            "needs an empty field or one of its own variety.",
        )


def _own_turn(state: GameState, action: Action, steps: tuple[Step, ...], what: str) -> None:
    if action.player != state.active:
        raise _fail("not-your-turn", "It is not your turn.")
    if state.step not in steps:
        raise _fail("wrong-step", f"You cannot {what} now.")


def _check_plant(state: GameState, action: Action) -> None:
    assert isinstance(action, Plant)
    _own_turn(state, action, (STEP_PLANT, STEP_DUEL_PLANT), "plant from your hand")
    player = state.players[action.player]
    if not may_plant_from_hand(state, action.player):
        raise _fail("no-more-planting", "You have planted all you may from your hand.")
    _check_planting(player, player.hand[0], action.field)


def _check_plant_set_aside(state: GameState, action: Action) -> None:
    assert isinstance(action, PlantSetAside)
    if state.step is not STEP_PLANT_SET_ASIDE:
        raise _fail("wrong-step", "Cards set aside are planted in step 3.")
    player = state.players[action.player]
    if not 0 <= action.index < len(player.set_aside):
        raise _fail("no-such-card", f"You have no set-aside card {action.index + 1}.")
    _check_planting(player, player.set_aside[action.index], action.field)


def _check_area_card(state: GameState, action: Action, step: Step, area: list[Card]) -> Card:
    assert isinstance(action, PlantFaceUp | PlantOffered | DiscardOffered)
    _own_turn(state, action, (step,), "do that")
    if not 0 <= action.index < len(area):
        raise _fail("no-such-card", f"There is no card {action.index + 1} there.")
    return area[action.index]


def _check_plant_face_up(state: GameState, action: Action) -> None:
    assert isinstance(action, PlantFaceUp)
    card = _check_area_card(state, action, STEP_DUEL_FACE_UP, state.face_up)
    _check_planting(state.players[action.player], card, action.field)


def _check_plant_offered(state: GameState, action: Action) -> None:
    assert isinstance(action, PlantOffered)
    card = _check_area_card(state, action, STEP_DUEL_OFFERED, state.offered)
    _check_planting(state.players[action.player], card, action.field)


def _check_discard_offered(state: GameState, action: Action) -> None:
    _check_area_card(state, action, STEP_DUEL_OFFERED, state.offered)


def _check_discard_from_hand(state: GameState, action: Action) -> None:
    assert isinstance(action, DiscardFromHand)
    _own_turn(state, action, (STEP_DUEL_PLANT,), "discard from your hand")
    if not may_discard_from_hand(state, action.player):
        raise _fail("plant-first", "Plant at least one card before you discard.")
    if not 0 <= action.position < len(state.players[action.player].hand):
        raise _fail("no-such-card", f"You have no hand card {action.position + 1}.")


def _check_end_step(state: GameState, action: Action) -> None:
    if action.player != state.active:
        raise _fail("not-your-turn", "It is not your turn.")
    if not may_end_step(state, action.player):
        if state.step in (STEP_PLANT, STEP_DUEL_PLANT):
            raise _fail("must-plant", "You must plant the first card of your hand.")
        raise _fail("cannot-end-step", "This step ends when its cards are planted.")


def _check_harvest(state: GameState, action: Action) -> None:
    assert isinstance(action, Harvest)
    player = state.players[action.player]
    _field_index(player, action.field)
    if state.setup.is_duel and action.player != state.active:
        raise _fail("duel-sell-own-turn", "In the bean duel you may sell only on your turn.")
    if not player.fields[action.field].cards:
        raise _fail("empty-field", f"Field {action.field + 1} is empty.")
    if action.field not in harvestable_fields(state, action.player):
        raise _fail(
            "single-card-protected",
            f"Field {action.field + 1} holds a single bean; it may be harvested only "
            "when none of your fields holds more than one.",
        )


def _check_buy_field(state: GameState, action: Action) -> None:
    price = state.setup.third_field_price
    player = state.players[action.player]
    if price is None:
        raise _fail("no-third-field", "No 3rd field can be bought in this game.")
    if player.bought_third_field:
        raise _fail("third-field-owned", "You have already bought your 3rd field.")
    if len(player.coins) < price:
        raise _fail("not-enough-coins", f"The 3rd field costs {price} coins.")


def _check_trade_step(state: GameState, action: Action) -> TradeOptions:
    options = trade_options(state, action.player)
    if options is None:
        raise _fail("not-trading", "Trading happens only in step 2 of a turn.")
    return options


def _check_gift(
    state: GameState,
    seat: int,
    options: TradeOptions,
    hand: tuple[int, ...],
    face_up: tuple[int, ...],
) -> None:
    """The cards a player names are distinct and his to give."""
    if len(set(hand)) != len(hand) or len(set(face_up)) != len(face_up):
        raise _fail("card-twice", "A card is named twice.")
    # Positions are in range when the lowest and the highest are.
    if hand and (min(hand) < 0 or max(hand) >= options.hand_size):
        raise _fail("no-such-card", "You do not have a card at that hand position.")
    if face_up and seat != state.active:
        raise _fail("not-your-face-up", "Only the active player trades the face-up cards.")
    if face_up and (min(face_up) < 0 or max(face_up) >= options.face_up):
        raise _fail("no-such-card", "There is no such face-up card.")


def _check_offer_terms(
    state: GameState,
    action: ProposeTrade | CounterTrade,
    partner: int,
    options: TradeOptions,
) -> None:
    _check_gift(state, action.player, options, action.hand, action.face_up)
    if not action.hand and not action.face_up:
        raise _fail("empty-offer", "An offer must give at least one card.")
    partner_cards = len(state.players[partner].hand)
    if partner == state.active:
        partner_cards += len(state.face_up)
    if len(action.want) > partner_cards:
        raise _fail("want-too-many", "You ask for more cards than your partner can give.")


def _check_propose(state: GameState, action: Action) -> None:
    assert isinstance(action, ProposeTrade)
    check_proposal(state, action, _check_trade_step(state, action))


def check_proposal(state: GameState, action: ProposeTrade, options: TradeOptions) -> None:
    """Raise IllegalActionError unless the proposal keeps to `options`, what its proposer may
    offer now (`trade_options`, or the `trade` of his legal actions listed for this state)."""
    if action.partner not in options.partners:
        if action.player != state.active and 0 <= action.partner < len(state.players):
            raise _fail("trade-with-active", "Trades must involve the active player.")
        raise _fail("no-such-partner", "You cannot trade with that player.")
    _check_offer_terms(state, action, action.partner, options)


def _open_offer(state: GameState, offer_id: int) -> TradeOffer:
    offer = state.offers.get(offer_id)
    if offer is None:
        raise _fail("no-such-offer", f"There is no open offer {offer_id}.")
    return offer


def _offer_to_me(state: GameState, action: CounterTrade | AcceptTrade | DeclineTrade) -> TradeOffer:
    offer = _open_offer(state, action.offer)
    if offer.receiver != action.player:
        raise _fail("not-your-offer", f"Offer {offer.id} is not made to you.")
    return offer


def _check_counter(state: GameState, action: Action) -> None:
    assert isinstance(action, CounterTrade)
    options = _check_trade_step(state, action)
    offer = _offer_to_me(state, action)
    _check_offer_terms(state, action, offer.proposer, options)


def _check_accept(state: GameState, action: Action) -> None:
    assert isinstance(action, AcceptTrade)
    options = _check_trade_step(state, action)
    offer = _offer_to_me(state, action)
    if not offer_cards_in_place(state, offer):
        raise _fail("stale-offer", f"Offer {offer.id} is stale: its cards are gone.")
    _check_gift(state, action.player, options, action.hand, action.face_up)
    given = accepted_cards(state, action)
    if not same_varieties(given, offer.want):
        asked = ", ".join(v.title for v in offer.want) or "nothing"
        raise _fail("wrong-cards", f"Offer {offer.id} asks for: {asked}.")


def accepted_cards(state: GameState, action: AcceptTrade) -> list[Card]:
    """The cards an accepting player names, face-up first."""
    hand = state.players[action.player].hand
    return [state.face_up[i] for i in action.face_up] + [hand[i] for i in action.hand]


def _check_decline(state: GameState, action: Action) -> None:
    assert isinstance(action, DeclineTrade)
    _check_trade_step(state, action)
    _offer_to_me(state, action)


def _check_withdraw(state: GameState, action: Action) -> None:
    assert isinstance(action, WithdrawTrade)
    _check_trade_step(state, action)
    offer = _open_offer(state, action.offer)
    if offer.proposer != action.player:
        raise _fail("not-your-offer", f"Offer {offer.id} is not yours to withdraw.")


_CHECKERS: dict[type[Action], Callable[[GameState, Action], None]] = {
    Plant: _check_plant,
    PlantSetAside: _check_plant_set_aside,
    PlantFaceUp: _check_plant_face_up,
    PlantOffered: _check_plant_offered,
    DiscardOffered: _check_discard_offered,
    DiscardFromHand: _check_discard_from_hand,
    EndStep: _check_end_step,
    Harvest: _check_harvest,
    BuyField: _check_buy_field,
    ProposeTrade: _check_propose,
    CounterTrade: _check_counter,
    AcceptTrade: _check_accept,
    DeclineTrade: _check_decline,
    WithdrawTrade: _check_withdraw,
}
