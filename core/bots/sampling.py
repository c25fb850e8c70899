"""Determinizations: whole game states that agree with everything one seat has seen.

A seat sees every field, the discard pile, the face-up and offered cards, the set-aside cards,
its own hand and the open offers. The rest (the other hands, the deck, the coin stacks, and in
the duel the coins paid into the box) is a known number of cards of known total composition:
each variety has a fixed number of cards (`cards.py`), less the ones in sight. A determinization
deals that remainder at random, keeping what the seat has worked out from earlier views: the
varieties that became coins when it saw a field sold, and the cards others offered from their
hands.
"""

from __future__ import annotations

import random
from collections import Counter

from ..cards import Card, Variety, cards_of
from ..state import Field, GameState, PlayerState, TradeOffer
from ..table_setup import setup_for
from ..view import FieldView, PlayerView


class Observations:
    """What one seat has worked out over the views it was shown: the varieties on each coin
    stack, from the fields it saw sold."""

    def __init__(self) -> None:
        self._fields: list[tuple[FieldView, ...]] | None = None
        self._coins: list[int] = []
        self.coin_varieties: list[list[Variety | None]] = []
        """Per seat, the varieties of its coins bottom first (None where not worked out)."""

    def observe(self, view: PlayerView) -> None:
        """Take in a new view of the same game."""
        seats = view.seats
        if self._fields is None or len(self._fields) != len(seats):
            self._fields = [s.fields for s in seats]
            self._coins = [s.coins for s in seats]
            self.coin_varieties = [[None] * s.coins for s in seats]
            return
        for i, seat in enumerate(seats):
            before, coins = self._fields[i], self._coins[i]
            stack = self.coin_varieties[i]
            if seat.coins > coins:
                stack.extend(_sold(before, seat.fields, seat.coins - coins))
            elif seat.coins < coins:
                # The 3rd field is paid with the newest coins.
                del stack[seat.coins - coins :]
            del stack[: max(0, len(stack) - seat.coins)]
            stack[:0] = [None] * (seat.coins - len(stack))
            self._fields[i], self._coins[i] = seat.fields, seat.coins


def _sold(
    before: tuple[FieldView, ...], after: tuple[FieldView, ...], earned: int
) -> list[Variety | None]:
    """The varieties of `earned` new coins, from the fields that shrank or changed variety."""
    coins: list[Variety | None] = []
    for old, new in zip(before, after, strict=False):
        if old.variety is not None and (new.variety is not old.variety or new.count < old.count):
            coins += [old.variety] * old.variety.coins_for(old.count)
    if len(coins) != earned:
        return [None] * earned
    return coins


class _Ids:
    """The card ids of each variety not yet placed."""

    def __init__(self, varieties: tuple[Variety, ...]) -> None:
        self._free = {v: list(reversed(cards_of(v))) for v in varieties}

    def take(self, variety: Variety) -> Card:
        return self._free[variety].pop()

    def has(self, variety: Variety) -> bool:
        return bool(self._free.get(variety))

    def left(self, variety: Variety) -> int:
        return len(self._free.get(variety, ()))

    def rest(self) -> list[Card]:
        return [card for cards in self._free.values() for card in cards]

    def takes(self, varieties: tuple[Variety, ...] | list[Variety]) -> list[Card]:
        return [self.take(v) for v in varieties]


def determinize(
    view: PlayerView, seen: Observations, rng: random.Random, planted: int = 0
) -> GameState:
    """A full game state that shows `view` to its seat, its hidden cards dealt by `rng`.

    `planted` is how many cards the active player has planted in this step (the seat knows it
    from its legal actions when it is the one planting).
    """
    me = view.seat
    if me is None:
        raise ValueError("a spectator's view has no seat to decide for")
    setup = setup_for(len(view.seats))
    ids = _Ids(setup.varieties)
    players = []
    for seat in view.seats:
        fields = [
            Field(ids.takes([f.variety] * f.count)) if f.variety else Field() for f in seat.fields
        ]
        players.append(
            PlayerState(
                fields=fields,
                set_aside=ids.takes(seat.set_aside),
                bought_third_field=seat.bought_third_field,
            )
        )
    discard = ids.takes(view.discard)
    face_up = ids.takes(view.face_up)
    offered = ids.takes(view.offered)
    players[me].hand = ids.takes(view.hand)

    # Cards others offered from their hands are in their hands.
    known: dict[int, list[Card]] = {}
    offers: dict[int, TradeOffer] = {}
    face_left = list(zip(view.face_up, face_up, strict=True))
    for offer in view.offers:
        if offer.stale:
            continue
        from_face, from_hand = _split_give(offer.give, face_left, offer.proposer == view.active)
        if offer.proposer == me:
            hand = players[me].hand
            positions = offer.give_positions or ()
            if len(positions) != len(from_hand):
                continue
            give = tuple(from_face) + tuple(hand[p] for p in positions)
        else:
            if any(ids.left(v) < n for v, n in Counter(from_hand).items()):
                continue
            cards = ids.takes(from_hand)
            known.setdefault(offer.proposer, []).extend(cards)
            give = tuple(from_face) + tuple(cards)
        offers[offer.id] = TradeOffer(offer.id, offer.proposer, offer.receiver, give, offer.want)

    coins: list[list[Card | None]] = []
    for stack in seen.coin_varieties[: len(players)] or [[] for _ in players]:
        coins.append([ids.take(v) if v is not None and ids.has(v) else None for v in stack])
    while len(coins) < len(players):
        coins.append([])

    pool = ids.rest()
    rng.shuffle(pool)
    for i, seat in enumerate(view.seats):
        dealt = coins[i] + [None] * (seat.coins - len(coins[i]))
        players[i].coins = [
            card if card is not None else pool.pop() for card in dealt[: seat.coins]
        ]
        if i != me:
            hand = known.get(i, [])[: seat.hand_size]
            hand += [pool.pop() for _ in range(seat.hand_size - len(hand))]
            rng.shuffle(hand)
            players[i].hand = hand
    deck = [pool.pop() for _ in range(min(view.deck_size, len(pool)))]
    box = setup.cards_in_box() + pool

    return GameState(
        setup=setup,
        players=players,
        deck=deck,
        discard=discard,
        box=box,
        face_up=face_up,
        offered=offered,
        offers=offers,
        next_offer_id=max([o.id for o in view.offers], default=0) + 1,
        active=view.active,
        step=view.step,
        turn=view.turn,
        planted_this_step=planted,
        exhaustions=view.exhaustions,
        final_turn=view.final_turn,
    )


def _split_give(
    give: tuple[Variety, ...], face_left: list[tuple[Variety, Card]], active: bool
) -> tuple[list[Card], list[Variety]]:
    """An offer names its face-up cards first, then its hand cards: the face-up cards it gives
    (taken from `face_left`) and the varieties of the hand cards."""
    from_face: list[Card] = []
    index = 0
    if active:
        for variety in give:
            match = next((pair for pair in face_left if pair[0] is variety), None)
            if match is None:
                break
            face_left.remove(match)
            from_face.append(match[1])
            index += 1
    return from_face, list(give[index:])


def clone(state: GameState) -> GameState:
    """An independent copy of a state, made faster than `GameState.copy`."""
    return GameState(
        setup=state.setup,
        players=[
            PlayerState(
                hand=list(p.hand),
                fields=[Field(list(f.cards)) for f in p.fields],
                coins=list(p.coins),
                set_aside=list(p.set_aside),
                bought_third_field=p.bought_third_field,
            )
            for p in state.players
        ],
        deck=list(state.deck),
        discard=list(state.discard),
        box=list(state.box),
        face_up=list(state.face_up),
        offered=list(state.offered),
        offers=dict(state.offers),
        next_offer_id=state.next_offer_id,
        active=state.active,
        step=state.step,
        turn=state.turn,
        planted_this_step=state.planted_this_step,
        exhaustions=state.exhaustions,
        final_turn=state.final_turn,
    )
