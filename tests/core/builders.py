"""Small helpers that lay out exact tables for the rules tests.

A scenario names beans by variety; `CardPool` hands out unused card ids of that variety, so
every card is still in exactly one place. `deck_for` builds a legal deck order (chosen hands and
draws on top, the rest after them) for `Game`; `table` builds a `GameState` directly for the
situations a deal cannot reach quickly (small decks, coins already earned, a late step).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import TypeVar

from bohnanza.core.actions import Action, CounterTrade, ProposeTrade
from bohnanza.core.cards import CARD_COUNT, Card, Variety, variety_of
from bohnanza.core.engine import Engine
from bohnanza.core.errors import IllegalActionError
from bohnanza.core.events import Event
from bohnanza.core.game import Game
from bohnanza.core.legal import TradeOptions
from bohnanza.core.state import Field, GameState, PlayerState, Step
from bohnanza.core.table_setup import setup_for

E = TypeVar("E", bound=Event)


class CardPool:
    """Hands out card ids by variety, each id at most once."""

    def __init__(self, available: Iterable[Card] = range(CARD_COUNT)) -> None:
        self._free = list(available)

    def take(self, variety: Variety, count: int = 1) -> list[Card]:
        """`count` unused cards of one variety, lowest ids first."""
        picked = [card for card in self._free if variety_of(card) is variety][:count]
        if len(picked) < count:
            raise ValueError(f"only {len(picked)} {variety.title}s left, {count} wanted")
        for card in picked:
            self._free.remove(card)
        return picked

    def one(self, variety: Variety) -> Card:
        """One unused card of a variety."""
        return self.take(variety)[0]

    def beans(self, varieties: Iterable[Variety]) -> list[Card]:
        """One unused card for each variety named, in order."""
        return [self.one(v) for v in varieties]

    def rest(self) -> list[Card]:
        """Every card not handed out yet, in id order."""
        free, self._free = self._free, []
        return free


class FakeShuffler:
    """A shuffler that records each pile it was handed and returns it in a chosen order.

    By default the new deck is the pile as it lay (bottom card on top of the new deck).
    """

    def __init__(self, orders: Sequence[Sequence[Card]] = ()) -> None:
        self.received: list[list[Card]] = []
        self._orders = [list(order) for order in orders]

    def __call__(self, cards: list[Card]) -> list[Card]:
        self.received.append(list(cards))
        if self._orders:
            return self._orders.pop(0)
        return list(cards)


def deck_for(
    players: int,
    hands: Sequence[Sequence[Variety]],
    then: Sequence[Variety] = (),
) -> list[Card]:
    """A legal deck, top card first: each seat's hand front first, then `then`, then the rest.

    Seats without a listed hand (or with a short one) get the next cards of the rest, which
    lie in id order.
    """
    setup = setup_for(players)
    pool = CardPool(setup.cards_in_play())
    chosen_hands = [pool.beans(hand) for hand in hands]
    chosen_then = pool.beans(then)
    rest = pool.rest()
    deck: list[Card] = []
    for seat, size in enumerate(setup.deal):
        hand = chosen_hands[seat] if seat < len(chosen_hands) else []
        if len(hand) > size:
            raise ValueError(f"seat {seat} is dealt {size} cards, not {len(hand)}")
        deck += hand + [rest.pop(0) for _ in range(size - len(hand))]
    return deck + chosen_then + rest


def new_game(
    players: int,
    hands: Sequence[Sequence[Variety]] = (),
    then: Sequence[Variety] = (),
    shuffler: FakeShuffler | None = None,
) -> Game:
    """A game dealt from `deck_for(players, hands, then)`."""
    return Game(players, deck_for(players, hands, then), shuffler or FakeShuffler())


def table(
    players: int,
    *,
    hands: Sequence[Sequence[Card]] = (),
    fields: Sequence[Sequence[Sequence[Card]]] = (),
    coins: Sequence[Sequence[Card]] = (),
    set_aside: Sequence[Sequence[Card]] = (),
    deck: Sequence[Card] = (),
    discard: Sequence[Card] = (),
    face_up: Sequence[Card] = (),
    offered: Sequence[Card] = (),
    active: int = 0,
    step: Step = Step.PLANT,
    exhaustions: int = 0,
) -> GameState:
    """A state laid out card by card. `deck` is given top card first, like a dealt deck.

    Seats not described have empty hands and the set-up's empty fields; a seat's `fields` may
    list a third field. Cards the scenario does not place wait in the box, so every card is
    still somewhere.
    """
    setup = setup_for(players)
    seats = []
    for seat in range(players):
        laid = list(fields[seat]) if seat < len(fields) else []
        count = max(setup.fields_at_start, len(laid))
        seats.append(
            PlayerState(
                hand=list(hands[seat]) if seat < len(hands) else [],
                fields=[Field(list(laid[i]) if i < len(laid) else []) for i in range(count)],
                coins=list(coins[seat]) if seat < len(coins) else [],
                set_aside=list(set_aside[seat]) if seat < len(set_aside) else [],
                bought_third_field=count > setup.fields_at_start,
            )
        )
    state = GameState(
        setup=setup,
        players=seats,
        deck=list(reversed(deck)),
        discard=list(discard),
        face_up=list(face_up),
        offered=list(offered),
        active=active,
        step=step,
        exhaustions=exhaustions,
    )
    placed = set(state.all_cards())
    state.box = [card for card in range(CARD_COUNT) if card not in placed]
    return state


def engine_for(state: GameState, shuffler: FakeShuffler | None = None) -> Engine:
    """An engine over a laid-out state."""
    return Engine(state, shuffler or FakeShuffler())


def apply_all(target: Game | Engine, *actions: Action) -> list[Event]:
    """Apply actions in order; every event they caused."""
    events: list[Event] = []
    for action in actions:
        events += target.apply(action)
    return events


def of_type(events: Iterable[Event], kind: type[E]) -> list[E]:
    """The events of one kind, in order."""
    return [event for event in events if isinstance(event, kind)]


def varieties(cards: Iterable[Card]) -> list[Variety]:
    """The varieties of some cards, in order."""
    return [variety_of(card) for card in cards]


# --- random play ------------------------------------------------------------------------------


_WEIGHTS = {"harvest": 0.3, "accept-trade": 4.0, "buy-field": 2.0, "counter-trade": 0.5}


def random_action(game: Game, rng: random.Random) -> Action | None:
    """A random action for a random player, mostly one the game waits on.

    In step 2 the other players act half the time. The kind of action is drawn first (selling
    less often, accepting and buying more often), so trades and purchases happen in most games.
    Trade proposals and counters are drawn within the legal bounds; they may still ask for more
    than the partner holds, which the caller skips.
    """
    state = game.state
    waiting = game.waiting_for()
    if state.step is Step.TRADE and rng.random() < 0.5:
        seat = rng.choice([s for s in range(game.players) if s != state.active])
    elif not waiting or rng.random() < 0.15:
        seat = rng.randrange(game.players)
    else:
        seat = rng.choice(waiting)
    legal = game.legal_actions(seat)
    choices = list(legal.actions)
    options = legal.trade
    if options is not None:
        answering = {o.id: o.proposer for o in state.offers.values() if o.receiver == seat}
        asks = [(rng.choice(options.partners), None), *((p, i) for i, p in answering.items())]
        for partner, offer in asks:
            proposal = _random_offer(game, rng, seat, partner, offer, options)
            if proposal is not None:
                choices.append(proposal)
    if not choices:
        return None
    kinds = sorted({c.kind for c in choices})
    kind = rng.choices(kinds, [_WEIGHTS.get(k, 1.0) for k in kinds])[0]
    return rng.choice([c for c in choices if c.kind == kind])


def _random_offer(
    game: Game,
    rng: random.Random,
    seat: int,
    partner: int,
    answering: int | None,
    options: TradeOptions,
) -> Action | None:
    hand = rng.sample(range(options.hand_size), min(options.hand_size, rng.randint(0, 2)))
    face_up = rng.sample(range(options.face_up), min(options.face_up, rng.randint(0, 2)))
    if not hand and not face_up:
        return None
    held = game.state.players[partner].hand
    # Asking for beans the partner holds (a driver may peek) gets many offers accepted.
    if held and rng.random() < 0.6:
        want = tuple(variety_of(rng.choice(held)) for _ in range(rng.randint(1, 2)))
    else:
        want = tuple(rng.choice(game.state.setup.varieties) for _ in range(rng.randint(0, 2)))
    if answering is not None:
        return CounterTrade(seat, answering, tuple(hand), tuple(face_up), want)
    return ProposeTrade(seat, partner, tuple(hand), tuple(face_up), want)


def random_playthrough(
    game: Game, rng: random.Random, limit: int = 20_000
) -> Iterator[tuple[Action, list[Event]]]:
    """Play random legal actions until the game ends, yielding each one applied and its events."""
    for _ in range(limit):
        if game.is_over:
            return
        action = random_action(game, rng)
        if action is None:
            continue
        try:
            events = game.apply(action)
        except IllegalActionError as error:
            if isinstance(action, ProposeTrade | CounterTrade) and error.code == "want-too-many":
                continue
            raise
        yield action, events
    raise AssertionError(f"the game did not end within {limit} attempts")
