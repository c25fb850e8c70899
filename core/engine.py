"""Applying actions: the only code that changes a `GameState`.

Every action is checked first (`checks.check_action`), so a refused action changes nothing. After
each action the engine runs the steps that need no decision: drawing face-up cards, the draw
into the hand, passing the turn, reshuffling, and the end of the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

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
from .checks import accepted_cards, check_action
from .errors import IllegalActionError
from .events import (
    BeanDiscarded,
    BeanPlanted,
    CardsDrawn,
    DeckExhausted,
    DeckReshuffled,
    Event,
    FaceUpDrawn,
    FieldHarvested,
    GameEnded,
    LeftOnOffer,
    StepBegan,
    ThirdFieldBought,
    TradeAccepted,
    TradeClosed,
    TradeProposed,
    TradingEnded,
    TurnBegan,
)
from .scoring import harvest_into, result_of
from .state import (
    STEP_DUEL_FACE_UP,
    STEP_DUEL_OFFERED,
    STEP_DUEL_PLANT,
    STEP_GAME_OVER,
    STEP_PLANT,
    STEP_PLANT_SET_ASIDE,
    STEP_TRADE,
    Field,
    GameState,
    PlayerState,
    Step,
    TradeOffer,
    frozen_from,
)
from .table_setup import setup_for

Shuffler = Callable[[list[Card]], list[Card]]
"""Given the discard pile, returns the new deck, top card first."""

FACE_UP_CARDS = 2
DUEL_FACE_UP_CARDS = 3


class RandomShuffler:
    """Shuffles with a seeded generator (the core never seeds one itself)."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def __call__(self, cards: list[Card]) -> list[Card]:
        order = list(cards)
        self._rng.shuffle(order)
        return order


def deal(players: int, deck: Sequence[Card]) -> GameState:
    """Lay out a new game from a shuffled deck (top card first).

    Seat 0 starts; seats are dealt in turn, each its whole deal, from the top of the deck.
    """
    setup = setup_for(players)
    if sorted(deck) != setup.cards_in_play():
        raise ValueError(f"the deck must hold exactly the {players}-player cards, once each")
    stack = list(reversed(deck))
    seats = []
    for size in setup.deal:
        hand = [stack.pop() for _ in range(size)]
        seats.append(PlayerState(hand=hand, fields=[Field() for _ in range(setup.fields_at_start)]))
    state = GameState(setup=setup, players=seats, deck=stack, box=setup.cards_in_box())
    state.step = STEP_DUEL_OFFERED if setup.is_duel else STEP_PLANT
    return state


class Engine:
    """Applies actions to one game's state."""

    def __init__(self, state: GameState, shuffler: Shuffler, *, events: bool = True) -> None:
        self.state = state
        self._shuffle = shuffler
        self._events: list[Event] = []
        self.events = events
        """False: actions return no events (replays and audits that only need the state)."""

    def start(self) -> list[Event]:
        """Run the opening turn up to its first decision."""
        self._events = [TurnBegan(self.state.active, self.state.turn)] if self.events else []
        self._advance()
        return self._take_events()

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action, or raise IllegalActionError and change nothing."""
        check_action(self.state, action)
        return self.apply_legal(action)

    def apply_legal(self, action: Action) -> list[Event]:
        """Apply an action already found legal in the state as it is now, without a second check.

        Only for an action just taken from `legal_actions` of this very state: anything else
        goes through `apply`.
        """
        if not self.events:
            _HANDLERS[type(action)](self, action)
            if self.state.step is not STEP_TRADE:  # trading goes on until its end: no advance
                self._advance()
            return []
        self._events = []
        _HANDLERS[type(action)](self, action)
        self._advance()
        return self._take_events()

    def play_through(self, actions: Iterable[Action], done: list[Action], checked: bool) -> None:
        """Apply actions one after another without gathering events, adding each to `done`.

        Checked, the first illegal one raises IllegalActionError and changes nothing; unchecked,
        the actions must already have passed the rules (see `Game.play_through`).
        """
        state = self.state
        handlers = _HANDLERS
        events, self.events = self.events, False
        try:
            for action in actions:
                if checked:
                    check_action(state, action)
                elif state.step is STEP_GAME_OVER:
                    raise IllegalActionError("game-over", "The game is over.")
                handlers[type(action)](self, action)
                if state.step is not STEP_TRADE:  # trading goes on until its end: no advance
                    self._advance()
                done.append(action)
        finally:
            self.events = events

    def _take_events(self) -> list[Event]:
        events, self._events = self._events, []
        return events

    # --- planting and selling -----------------------------------------------------------

    def _plant(self, seat: int, card: Card, field: int, source: str) -> None:
        player = self.state.players[seat]
        player.fields[field].cards.append(card)
        player.changes += 1
        if self.events:
            self._events.append(BeanPlanted(seat, card, field, source))

    def _on_plant(self, action: Action) -> None:
        assert isinstance(action, Plant)
        card = self.state.players[action.player].hand.pop(0)
        self._plant(action.player, card, action.field, "hand")
        self.state.planted_this_step += 1

    def _on_plant_set_aside(self, action: Action) -> None:
        assert isinstance(action, PlantSetAside)
        card = self.state.players[action.player].set_aside.pop(action.index)
        self._plant(action.player, card, action.field, "set-aside")

    def _on_plant_face_up(self, action: Action) -> None:
        assert isinstance(action, PlantFaceUp)
        card = self.state.face_up.pop(action.index)
        self._plant(action.player, card, action.field, "face-up")

    def _on_plant_offered(self, action: Action) -> None:
        assert isinstance(action, PlantOffered)
        card = self.state.offered.pop(action.index)
        self._plant(action.player, card, action.field, "offered")

    def _on_discard_offered(self, action: Action) -> None:
        assert isinstance(action, DiscardOffered)
        card = self.state.offered.pop(action.index)
        self.state.discard.append(card)
        if self.events:
            self._events.append(BeanDiscarded(action.player, card, "offered"))

    def _on_discard_from_hand(self, action: Action) -> None:
        assert isinstance(action, DiscardFromHand)
        player = self.state.players[action.player]
        card = player.hand.pop(action.position)
        player.changes += 1
        self.state.discard.append(card)
        if self.events:
            self._events.append(BeanDiscarded(action.player, card, "hand"))
        self._begin_duel_face_up()

    def _on_harvest(self, action: Action) -> None:
        assert isinstance(action, Harvest)
        player = self.state.players[action.player]
        cards, coins = harvest_into(self.state, player, action.field)
        player.changes += 1
        if self.events:
            self._events.append(FieldHarvested(action.player, action.field, tuple(cards), coins))

    def _on_buy_field(self, action: Action) -> None:
        player = self.state.players[action.player]
        price = self.state.setup.third_field_price
        assert price is not None
        paid = player.coins[-price:]
        del player.coins[-price:]
        # The duel's coins leave the game; otherwise they are beans again on the discard pile.
        (self.state.box if self.state.setup.is_duel else self.state.discard).extend(paid)
        player.fields.append(Field())
        player.bought_third_field = True
        player.changes += 1
        if self.events:
            self._events.append(ThirdFieldBought(action.player, tuple(paid)))

    def _on_end_step(self, action: Action) -> None:
        state = self.state
        if state.step is STEP_PLANT:
            self._begin_trade()
        elif state.step is STEP_DUEL_PLANT:
            self._begin_duel_face_up()
        elif state.step is STEP_TRADE:
            self._end_trading()
        elif state.step is STEP_DUEL_FACE_UP:
            left = tuple(state.face_up)
            state.offered.extend(state.face_up)
            state.face_up.clear()
            if self.events:
                self._events.append(LeftOnOffer(state.active, left))
            if state.final_turn:
                self._end_game()
            else:
                self._draw_into_hand()

    # --- trading ------------------------------------------------------------------------

    def _offered_cards(
        self, seat: int, hand: tuple[int, ...], face_up: tuple[int, ...]
    ) -> tuple[Card, ...]:
        held = self.state.players[seat].hand
        shown = self.state.face_up
        return tuple([shown[i] for i in face_up] + [held[i] for i in hand])

    def _open(
        self,
        proposer: int,
        receiver: int,
        give: tuple[Card, ...],
        action: ProposeTrade | CounterTrade,
    ) -> TradeOffer:
        state = self.state
        # `TradeOffer(...)`, without a frozen dataclass's `__init__`: every offer makes one.
        offer = frozen_from(
            TradeOffer,
            {
                "id": state.next_offer_id,
                "proposer": proposer,
                "receiver": receiver,
                "give": give,
                "want": action.want,
            },
        )
        state.offers[offer.id] = offer
        state.next_offer_id += 1
        return offer

    def _on_propose(self, action: Action) -> None:
        assert isinstance(action, ProposeTrade)
        give = self._offered_cards(action.player, action.hand, action.face_up)
        offer = self._open(action.player, action.partner, give, action)
        if self.events:
            self._events.append(TradeProposed(offer))

    def _on_counter(self, action: Action) -> None:
        assert isinstance(action, CounterTrade)
        old = self.state.offers.pop(action.offer)
        give = self._offered_cards(action.player, action.hand, action.face_up)
        offer = self._open(action.player, old.proposer, give, action)
        if self.events:
            self._events.append(TradeClosed(old, "countered"))
            self._events.append(TradeProposed(offer, replaces=old.id))

    def _take_from(self, seat: int, card: Card) -> None:
        hand = self.state.players[seat].hand
        if card in hand:
            hand.remove(card)
        else:
            self.state.face_up.remove(card)

    def _on_accept(self, action: Action) -> None:
        assert isinstance(action, AcceptTrade)
        state = self.state
        offer = state.offers.pop(action.offer)
        given = accepted_cards(state, action)
        for card in offer.give:
            self._take_from(offer.proposer, card)
        for card in given:
            self._take_from(offer.receiver, card)
        # Cards received are set aside, never taken into the hand (ruling 6).
        receiver = state.players[offer.receiver]
        proposer = state.players[offer.proposer]
        receiver.set_aside.extend(offer.give)
        proposer.set_aside.extend(given)
        receiver.changes += 1
        proposer.changes += 1
        if self.events:
            self._events.append(TradeAccepted(offer, tuple(given)))

    def _on_decline(self, action: Action) -> None:
        assert isinstance(action, DeclineTrade)
        offer = self.state.offers.pop(action.offer)
        if self.events:
            self._events.append(TradeClosed(offer, "declined"))

    def _on_withdraw(self, action: Action) -> None:
        assert isinstance(action, WithdrawTrade)
        offer = self.state.offers.pop(action.offer)
        if self.events:
            self._events.append(TradeClosed(offer, "withdrawn"))

    def _end_trading(self) -> None:
        state = self.state
        if self.events:
            for offer in state.offers.values():
                self._events.append(TradeClosed(offer, "trading-ended"))
        state.offers.clear()
        kept = tuple(state.face_up)
        active = state.players[state.active]
        active.set_aside.extend(state.face_up)
        active.changes += 1
        state.face_up.clear()
        if self.events:
            self._events.append(TradingEnded(state.active, kept))
        self._begin(STEP_PLANT_SET_ASIDE)

    # --- the steps that need no decision ------------------------------------------------

    def _begin(self, step: Step) -> None:
        self.state.step = step
        self.state.planted_this_step = 0
        if self.events:
            self._events.append(StepBegan(self.state.active, step))

    def _advance(self) -> None:
        """Move on through every step that waits on nobody."""
        state = self.state
        while True:
            step = state.step
            # Trading waits on the active player until he ends it: the commonest case first.
            if step is STEP_TRADE or step is STEP_GAME_OVER:
                return
            if step is STEP_PLANT_SET_ASIDE:
                for player in state.players:
                    if player.set_aside:
                        return
                if state.final_turn:
                    self._end_game()
                else:
                    self._draw_into_hand()
            elif step is STEP_PLANT:
                if state.planted_this_step < 2 and state.players[state.active].hand:
                    return
                self._begin_trade()
            elif step is STEP_DUEL_OFFERED:
                if state.offered:
                    return
                self._begin(STEP_DUEL_PLANT)
            elif step is STEP_DUEL_PLANT:
                if state.players[state.active].hand:
                    return
                self._begin_duel_face_up()
            else:
                return

    def _begin_trade(self) -> None:
        self._begin(STEP_TRADE)
        cards = self._draw_face_up(FACE_UP_CARDS)
        if self.events:
            self._events.append(FaceUpDrawn(self.state.active, tuple(cards)))

    def _begin_duel_face_up(self) -> None:
        state = self.state
        self._begin(STEP_DUEL_FACE_UP)
        cards = self._draw_face_up(DUEL_FACE_UP_CARDS)
        wanted = {variety_of(card) for card in cards}
        chain = []
        while state.discard and variety_of(state.discard[-1]) in wanted:
            chain.append(state.discard.pop())
        state.face_up.extend(chain)
        if self.events:
            self._events.append(FaceUpDrawn(state.active, tuple(cards), tuple(chain)))

    def _draw_face_up(self, count: int) -> list[Card]:
        state = self.state
        final = state.setup.final_exhaustion
        drawn = []
        for _ in range(count):
            card = self._draw()
            if card is not None:
                drawn.append(card)
            if state.exhaustions >= final:  # `_finally_exhausted()`
                # Ruling 4: keep what was drawn, finish this step's planting, then the game ends.
                state.final_turn = True
                break
        state.face_up.extend(drawn)
        return drawn

    def _draw_into_hand(self) -> None:
        state = self.state
        player = state.players[state.active]
        hand = player.hand
        player.changes += 1
        drawn = []
        final = state.setup.final_exhaustion
        for _ in range(state.setup.draw_in_step_4):
            card = self._draw()
            if card is not None:
                hand.append(card)
                drawn.append(card)
            if state.exhaustions >= final:  # `_finally_exhausted()`
                break
        if self.events:
            self._events.append(CardsDrawn(state.active, tuple(drawn)))
        if state.exhaustions >= final:
            self._end_game()  # ruling 4: the cards drawn stay in hand; the game ends at once
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        state = self.state
        state.active = (state.active + 1) % len(state.players)
        state.turn += 1
        if self.events:
            self._events.append(TurnBegan(state.active, state.turn))
        self._begin(STEP_DUEL_OFFERED if state.setup.is_duel else STEP_PLANT)

    def _finally_exhausted(self) -> bool:
        return self.state.exhaustions >= self.state.setup.final_exhaustion

    def _draw(self) -> Card | None:
        """Draw the top card; an exhausted deck is replaced at once unless it was the last time."""
        state = self.state
        if not state.deck:
            # Left empty by a reshuffle of an empty discard pile: this draw is the next exhaustion.
            self._exhaust()
            if not state.deck:
                return None
        card = state.deck.pop()
        if not state.deck:
            self._exhaust()
        return card

    def _exhaust(self) -> None:
        state = self.state
        state.exhaustions += 1
        final = self._finally_exhausted()
        if self.events:
            self._events.append(DeckExhausted(state.exhaustions, final))
        if final:
            return
        order = self._shuffle(list(state.discard))
        state.discard.clear()
        state.deck = list(reversed(order))
        if self.events:
            self._events.append(DeckReshuffled(len(order)))

    def _end_game(self) -> None:
        state = self.state
        state.step = STEP_GAME_OVER
        for seat, player in enumerate(state.players):
            player.changes += 1
            for index, field in enumerate(player.fields):
                if field.cards:
                    cards, coins = harvest_into(state, player, index)
                    if self.events:
                        self._events.append(FieldHarvested(seat, index, tuple(cards), coins))
        if self.events:
            result = result_of(state)
            self._events.append(GameEnded(result.scores, result.winners))


_HANDLERS: dict[type[Action], Callable[[Engine, Action], None]] = {
    Plant: Engine._on_plant,
    PlantSetAside: Engine._on_plant_set_aside,
    PlantFaceUp: Engine._on_plant_face_up,
    PlantOffered: Engine._on_plant_offered,
    DiscardOffered: Engine._on_discard_offered,
    DiscardFromHand: Engine._on_discard_from_hand,
    EndStep: Engine._on_end_step,
    Harvest: Engine._on_harvest,
    BuyField: Engine._on_buy_field,
    ProposeTrade: Engine._on_propose,
    CounterTrade: Engine._on_counter,
    AcceptTrade: Engine._on_accept,
    DeclineTrade: Engine._on_decline,
    WithdrawTrade: Engine._on_withdraw,
}
