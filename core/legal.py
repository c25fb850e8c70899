"""What a player may do now: the single source of truth for buttons, help, bots and validation.

`legal_actions` lists every concrete action open to a player, plus the bounds of the open-ended
trade actions. `check_action` (`checks.py`) refuses anything else with an `IllegalActionError`.
Both ask the small rule functions below, one per kind of action; `legal_actions`, which runs
before every decision of every bot, has a few of them written out in its loop (each marked
"inlined"), and a property test holds the two to each other both ways: every action listed
passes `check_action`, and every action of a listed kind that `check_action` takes is listed
(`tests/core/test_properties.py`).
"""

from __future__ import annotations

from functools import cache

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
from .cards import Card, Variety
from .menu import LegalActions as LegalActions
from .menu import TradeOptions as TradeOptions
from .state import (
    CARD_VARIETIES,
    STEP_DUEL_FACE_UP,
    STEP_DUEL_OFFERED,
    STEP_DUEL_PLANT,
    STEP_GAME_OVER,
    STEP_PLANT,
    STEP_PLANT_SET_ASIDE,
    STEP_TRADE,
    GameState,
    PlayerState,
    TradeOffer,
)
from .table_setup import MAX_PLAYERS

# --- the rule functions, one per kind of action ---------------------------------------------


def fields_for(player: PlayerState, card: Card) -> tuple[int, ...]:
    """The fields a card may be planted on (ruling 10)."""
    variety = CARD_VARIETIES[card]
    # Field.accepts, inlined: this runs for every card on every menu.
    return tuple(
        [
            i
            for i, f in enumerate(player.fields)
            if not f.cards or CARD_VARIETIES[f.cards[0]] is variety
        ]
    )


def harvestable_fields(state: GameState, seat: int) -> tuple[int, ...]:
    """Fields this player may harvest now, with single-card protection (ruling 2)."""
    if state.step is STEP_GAME_OVER:
        return ()
    if seat != state.active and state.setup.is_duel:
        return ()
    crowded: list[int] = []
    single: list[int] = []
    for i, f in enumerate(state.players[seat].fields):
        size = len(f.cards)
        if size > 1:
            crowded.append(i)
        elif size == 1:
            single.append(i)
    return tuple(crowded) if crowded else tuple(single)


def can_buy_field(state: GameState, seat: int) -> bool:
    """The 3rd field may be bought once, at any time, by a player with enough coins."""
    price = state.setup.third_field_price
    player = state.players[seat]
    return (
        price is not None
        and state.step is not STEP_GAME_OVER
        and not player.bought_third_field
        and len(player.coins) >= price
    )


def may_plant_from_hand(state: GameState, seat: int) -> bool:
    """Step 1 (duel step 2): the active player has a front card and plants left."""
    return (
        seat == state.active
        and state.step in (STEP_PLANT, STEP_DUEL_PLANT)
        and state.planted_this_step < 2
        and bool(state.players[seat].hand)
    )


def may_end_step(state: GameState, seat: int) -> bool:
    """The active player may finish steps that have an optional rest."""
    if seat != state.active:
        return False
    if state.step in (STEP_PLANT, STEP_DUEL_PLANT):
        return state.planted_this_step >= 1
    return state.step in (STEP_TRADE, STEP_DUEL_FACE_UP)


def may_discard_from_hand(state: GameState, seat: int) -> bool:
    """Duel step 2: after at least one plant, one card from anywhere in the hand."""
    return (
        seat == state.active
        and state.step is STEP_DUEL_PLANT
        and state.planted_this_step >= 1
        and bool(state.players[seat].hand)
    )


def trade_options(state: GameState, seat: int) -> TradeOptions | None:
    """Trades involve the active player and one other (ruling 6); only in step 2."""
    if state.step is not STEP_TRADE:
        return None
    hand_size = len(state.players[seat].hand)
    if seat == state.active:
        return _options_of_active(len(state.players), seat, hand_size, len(state.face_up))
    return partner_options(state.active, hand_size)


# Every trading menu and every trade action asks for these; they are small immutable values.
@cache
def _options_of_active(players: int, seat: int, hand_size: int, face_up: int) -> TradeOptions:
    partners = tuple(s for s in range(players) if s != seat)
    return TradeOptions(partners, hand_size, face_up)


@cache
def partner_options(active: int, hand_size: int) -> TradeOptions:
    """What a seat other than the active player's may offer while trading."""
    return TradeOptions((active,), hand_size, 0)


def offer_cards_in_place(state: GameState, offer: TradeOffer) -> bool:
    """Every card the proposer gives is still in his hand or, for the active player, face up."""
    hand = state.players[offer.proposer].hand
    # Loops rather than `all(...)`: no generator is made for the one or two cards of an offer.
    if offer.proposer == state.active:
        face_up = state.face_up
        for card in offer.give:  # noqa: SIM110
            if card not in hand and card not in face_up:
                return False
        return True
    for card in offer.give:  # noqa: SIM110
        if card not in hand:
            return False
    return True


def fulfilment(
    state: GameState, seat: int, want: tuple[Variety, ...], offer: int = 0
) -> AcceptTrade | None:
    """The first cards (face-up, then hand from the front) that give what an offer asks: the
    accept of offer `offer` that names them."""
    # A list, not a Counter: hashing an Enum member runs Python code, and offers are small.
    needed = list(want)
    face_up: list[int] = []
    hand: list[int] = []
    if seat == state.active:
        for i, card in enumerate(state.face_up):
            variety = CARD_VARIETIES[card]
            if variety in needed:
                needed.remove(variety)
                face_up.append(i)
    for i, card in enumerate(state.players[seat].hand):
        if not needed:
            break
        variety = CARD_VARIETIES[card]
        if variety in needed:
            needed.remove(variety)
            hand.append(i)
    if needed:
        return None
    return AcceptTrade(seat, offer, tuple(hand), tuple(face_up))


def same_varieties(cards: list[Card], want: tuple[Variety, ...]) -> bool:
    """The cards are exactly the varieties asked, in any order (a multiset comparison)."""
    if len(cards) != len(want):
        return False
    needed = list(want)
    for card in cards:
        variety = CARD_VARIETIES[card]
        if variety not in needed:
            return False
        needed.remove(variety)
    return True


# --- the menu -------------------------------------------------------------------------------

# The menu is rebuilt before every decision, and most of its actions recur all game long: the
# immutable ones whose numbers are bounded (seats, fields, card positions) are made once each.
_plant_face_up = cache(PlantFaceUp)
_plant_offered = cache(PlantOffered)
_discard_offered = cache(DiscardOffered)
_discard_from_hand = cache(DiscardFromHand)
_MAX_FIELDS = 3
"""The most fields a player holds: two or three at the start, one more bought where two."""
# The commonest of them, looked up by seat (and field) in a table rather than a cache.
_PLANT = tuple(tuple(Plant(s, f) for f in range(_MAX_FIELDS)) for s in range(MAX_PLAYERS))
_HARVEST = tuple(tuple(Harvest(s, f) for f in range(_MAX_FIELDS)) for s in range(MAX_PLAYERS))
END_STEP = tuple(EndStep(s) for s in range(MAX_PLAYERS))
"""`END_STEP[seat]` is the `EndStep(seat)` menus list: a bot that returns this one has it
applied without a search of its legal actions."""
BUY_FIELD = tuple(BuyField(s) for s in range(MAX_PLAYERS))
"""`BUY_FIELD[seat]`, likewise."""


def legal_actions(state: GameState, seat: int) -> LegalActions:
    """Everything the player at `seat` may do now.

    The rule functions above, asked in one pass in menu order: the active player's plantings,
    discards and end of step (anyone's plantings in step 3), trade answers, harvests, the 3rd
    field. This runs before every decision of every bot, so it asks each rule only where it can
    hold.
    """
    step = state.step
    if step is STEP_GAME_OVER:
        return _NOTHING[seat]
    player = state.players[seat]
    active = seat == state.active
    trade = None
    if step is STEP_TRADE:
        # trade_options, inlined.
        hand_size = len(player.hand)
        if active:
            actions: list[Action] = [END_STEP[seat]]
            waiting = True
            trade = _options_of_active(len(state.players), seat, hand_size, len(state.face_up))
        else:
            actions = []
            waiting = False
            trade = partner_options(state.active, hand_size)
        if state.offers:
            _add_trade_answers(state, seat, actions)
    elif step is STEP_PLANT_SET_ASIDE:
        actions = []
        waiting = False
        if player.set_aside:
            plant = _PLANT_SET_ASIDE_ACTIONS[seat]
            fields = player.fields
            for i, card in enumerate(player.set_aside):
                # fields_for, inlined.
                variety = CARD_VARIETIES[card]
                for f, field in enumerate(fields):
                    cards = field.cards
                    if not cards or CARD_VARIETIES[cards[0]] is variety:
                        actions.append(plant[i][f] if i < _MANY else PlantSetAside(seat, i, f))
            waiting = True
    elif active:
        actions = []
        waiting = _add_active_moves(state, seat, player, actions)
    else:
        actions = []
        waiting = False
    if active or state.setup.players != 2:
        # harvestable_fields, inlined: fields of two or more beans, else those of one.
        single = crowded = False
        for field in player.fields:
            size = len(field.cards)
            if size > 1:
                crowded = True
                break
            if size:
                single = True
        if crowded or single:
            harvest = _HARVEST[seat]
            for i, field in enumerate(player.fields):
                size = len(field.cards)
                if size > 1 or (size and not crowded):
                    actions.append(harvest[i])
    if not player.bought_third_field:
        price = state.setup.third_field_price
        if price is not None and len(player.coins) >= price:
            actions.append(BUY_FIELD[seat])
    # `frozen_from`, inlined: this runs before every decision.
    legal = _new(LegalActions)
    _set_fields(
        legal,
        "__dict__",
        {"player": seat, "actions": tuple(actions), "trade": trade, "waiting": waiting},
    )
    return legal


_new = object.__new__
_set_fields = object.__setattr__


_MANY = 12
"""Set-aside cards up to this many have their plantings made once, in a table."""
_PLANT_SET_ASIDE_ACTIONS = tuple(
    tuple(tuple(PlantSetAside(s, i, f) for f in range(_MAX_FIELDS)) for i in range(_MANY))
    for s in range(MAX_PLAYERS)
)
_NOTHING = tuple(LegalActions(s, (), None, False) for s in range(MAX_PLAYERS))
"""What every seat may do once the game is over."""


def _add_active_moves(
    state: GameState, seat: int, player: PlayerState, actions: list[Action]
) -> bool:
    """The active player's plantings, discards and end of step, in menu order (steps other
    than 2 and 3). Returns whether the game waits on him."""
    step = state.step
    waiting = False
    if step is STEP_PLANT or step is STEP_DUEL_PLANT:
        # may_plant_from_hand, may_discard_from_hand and may_end_step for the active player.
        planted = state.planted_this_step
        hand = player.hand
        if planted < 2 and hand:
            plant = _PLANT[seat]
            # fields_for, inlined.
            variety = CARD_VARIETIES[hand[0]]
            for f, field in enumerate(player.fields):
                cards = field.cards
                if not cards or CARD_VARIETIES[cards[0]] is variety:
                    actions.append(plant[f])
            waiting = True
        if planted >= 1:
            if step is STEP_DUEL_PLANT and hand:
                actions += [_discard_from_hand(seat, i) for i in range(len(hand))]
            actions.append(END_STEP[seat])
            waiting = True
    elif step is STEP_DUEL_OFFERED:
        for i, card in enumerate(state.offered):
            actions += [_plant_offered(seat, i, f) for f in fields_for(player, card)]
            actions.append(_discard_offered(seat, i))
        waiting = True
    elif step is STEP_DUEL_FACE_UP:
        for i, card in enumerate(state.face_up):
            actions += [_plant_face_up(seat, i, f) for f in fields_for(player, card)]
        actions.append(END_STEP[seat])
        waiting = True
    return waiting


def _add_trade_answers(state: GameState, seat: int, actions: list[Action]) -> None:
    """Accepting or declining offers made to this seat, withdrawing its own."""
    for offer in state.offers.values():
        if offer.receiver == seat:
            accept = fulfilment(state, seat, offer.want, offer.id)
            if accept is not None and offer_cards_in_place(state, offer):
                actions.append(accept)
            actions.append(DeclineTrade(seat, offer.id))
        elif offer.proposer == seat:
            actions.append(WithdrawTrade(seat, offer.id))


def is_listed(legal: LegalActions, action: Action) -> bool:
    """`action in legal.actions`, comparing only actions of the same kind; offers are never
    listed (`legal.trade` bounds them), so they are not looked for."""
    kind = type(action)
    if kind is ProposeTrade or kind is CounterTrade:
        return False
    actions = legal.actions
    for listed in actions:
        if listed is action:
            return True
    for listed in actions:  # noqa: SIM110 (a loop makes no generator)
        if type(listed) is kind and listed == action:
            return True
    return False


def waiting_for(state: GameState) -> tuple[int, ...]:
    """The seats the game is waiting on."""
    step = state.step
    if step is STEP_PLANT_SET_ASIDE:
        # Loops rather than list comprehensions in this and the next two: they run for every
        # action of every bot game, over a handful of seats or offers.
        waiting = []
        for seat, player in enumerate(state.players):
            if player.set_aside:
                waiting.append(seat)
        return tuple(waiting)
    if step is STEP_GAME_OVER:
        return ()
    return _SEATS[state.active]


_SEATS = tuple((seat,) for seat in range(MAX_PLAYERS))
"""`(seat,)` for each seat, made once."""


TradingMoment = tuple[int, tuple[int, ...]]
"""A seat's trading situation: the turn and the open offers it is part of."""


def asking_order(state: GameState) -> tuple[int, ...]:
    """The seats that may act now, in the order to ask them: while trading, receivers of open
    offers first, then every other seat not waited on; then the seats the game waits on."""
    if state.step is not STEP_TRADE:
        return waiting_for(state)
    # While trading the game waits on the active player alone: the others, then him.
    order = TRADING_ORDER[len(state.players)][state.active]
    if not state.offers:
        return order
    first = []
    for offer in state.offers.values():
        if offer.receiver not in first:
            first.append(offer.receiver)
    for seat in order:
        if seat not in first:
            first.append(seat)
    return tuple(first)


TRADING_ORDER = tuple(
    tuple((*(s for s in range(players) if s != active), active) for active in range(players))
    for players in range(MAX_PLAYERS + 1)
)
"""`TRADING_ORDER[players][active]`: every seat but the active one in order, then his."""


def trading_moment(state: GameState, seat: int) -> TradingMoment:
    """Changes with a new turn or when an offer the seat is part of opens or closes, so a seat
    that passed on trading is asked again only then."""
    if not state.offers:
        return (state.turn, ())
    offers = []
    for offer in state.offers.values():
        if offer.proposer == seat or offer.receiver == seat:
            offers.append(offer.id)
    return (state.turn, tuple(offers))
