"""What one player may see: computed here and nowhere else.

A view shows everyone's fields, coin counts, hand sizes and set-aside cards, the face-up cards,
the discard pile (face up on the table) and the open offers; of the hidden cards it shows only the
viewer's own hand. It never holds another player's hand or the order of the deck.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Variety, variety_of
from .legal import offer_cards_in_place
from .scoring import result_of
from .state import GameState, Step


@dataclass(frozen=True)
class FieldView:
    variety: Variety | None
    count: int


@dataclass(frozen=True)
class SeatView:
    """The public side of one seat."""

    seat: int
    fields: tuple[FieldView, ...]
    coins: int
    hand_size: int
    set_aside: tuple[Variety, ...]
    bought_third_field: bool


@dataclass(frozen=True)
class OfferView:
    id: int
    proposer: int
    receiver: int
    give: tuple[Variety, ...]
    want: tuple[Variety, ...]
    stale: bool
    """Some card it gives has left the proposer's hand (or the face-up cards)."""
    give_positions: tuple[int, ...] | None = None
    """The viewer's own hand positions of the cards he offers (his own offers only)."""


@dataclass(frozen=True)
class PlayerView:
    """The table as seen from one seat (or by a spectator, `seat` None)."""

    seat: int | None
    hand: tuple[Variety, ...]
    """The viewer's hand, front first; empty for a spectator."""
    seats: tuple[SeatView, ...]
    active: int
    step: Step
    turn: int
    deck_size: int
    discard: tuple[Variety, ...]
    """The discard pile, bottom first (its top card is last)."""
    face_up: tuple[Variety, ...]
    offered: tuple[Variety, ...]
    offers: tuple[OfferView, ...]
    exhaustions: int
    final_exhaustion: int
    final_turn: bool
    third_field_price: int | None
    scores: tuple[int, ...] | None
    winners: tuple[int, ...] | None

    @property
    def is_over(self) -> bool:
        return self.step is Step.GAME_OVER


def view_for(state: GameState, seat: int | None) -> PlayerView:
    """What the player at `seat` (None: a spectator) may see now."""
    own_hand = state.players[seat].hand if seat is not None else []
    seats = tuple(
        SeatView(
            seat=i,
            fields=tuple(FieldView(f.variety, len(f.cards)) for f in p.fields),
            coins=len(p.coins),
            hand_size=len(p.hand),
            set_aside=tuple(variety_of(c) for c in p.set_aside),
            bought_third_field=p.bought_third_field,
        )
        for i, p in enumerate(state.players)
    )
    offers = []
    for offer in state.offers.values():
        positions = None
        if offer.proposer == seat:
            positions = tuple(own_hand.index(c) for c in offer.give if c in own_hand)
        offers.append(
            OfferView(
                offer.id,
                offer.proposer,
                offer.receiver,
                tuple(variety_of(c) for c in offer.give),
                offer.want,
                not offer_cards_in_place(state, offer),
                positions,
            )
        )
    over = state.step is Step.GAME_OVER
    result = result_of(state) if over else None
    return PlayerView(
        seat=seat,
        hand=tuple(variety_of(c) for c in own_hand),
        seats=seats,
        active=state.active,
        step=state.step,
        turn=state.turn,
        deck_size=len(state.deck),
        discard=tuple(variety_of(c) for c in state.discard),
        face_up=tuple(variety_of(c) for c in state.face_up),
        offered=tuple(variety_of(c) for c in state.offered),
        offers=tuple(offers),
        exhaustions=state.exhaustions,
        final_exhaustion=state.setup.final_exhaustion,
        final_turn=state.final_turn,
        third_field_price=state.setup.third_field_price,
        scores=result.scores if result else None,
        winners=result.winners if result else None,
    )
