"""What one player may see: computed here and nowhere else.

A view shows everyone's fields, coin counts, hand sizes and set-aside cards, the face-up cards,
the discard pile (face up on the table) and the open offers; of the hidden cards it shows only the
viewer's own hand. It never holds another player's hand or the order of the deck.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .cards import CARD_COUNT, VARIETIES, Card, Variety
from .legal import offer_cards_in_place
from .scoring import result_of
from .state import (
    CARD_VARIETIES,
    GameState,
    PlayerState,
    Step,
    TradeOffer,
    build_frozen,
    frozen_from,
)


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


_VARIETY_OF = CARD_VARIETIES.__getitem__


def _varieties(cards: Iterable[Card]) -> tuple[Variety, ...]:
    return tuple(map(_VARIETY_OF, cards))


_EMPTY_FIELD = FieldView(None, 0)
_SHARED_FIELDS = {
    variety: tuple(FieldView(variety, count) for count in range(variety.count + 1))
    for variety in VARIETIES
}
_FIELDS_STARTED_BY = tuple(_SHARED_FIELDS[CARD_VARIETIES[card]] for card in range(CARD_COUNT))
"""Every field a game can show, by its first card and size: views share these (frozen) values
instead of building new ones."""


def _field_view(cards: list[Card]) -> FieldView:
    if not cards:
        return _EMPTY_FIELD
    shared = _FIELDS_STARTED_BY[cards[0]]
    count = len(cards)
    return shared[count] if count < len(shared) else FieldView(CARD_VARIETIES[cards[0]], count)


def _seat_view(seat: int, player: PlayerState) -> SeatView:
    return build_frozen(
        SeatView,
        seat=seat,
        fields=tuple([_field_view(f.cards) for f in player.fields]),
        coins=len(player.coins),
        hand_size=len(player.hand),
        set_aside=_varieties(player.set_aside),
        bought_third_field=player.bought_third_field,
    )


def _offer_view(state: GameState, offer: TradeOffer, own_hand: list[Card] | None) -> OfferView:
    """`own_hand` is the viewer's hand when he made the offer, else None."""
    positions = None
    if own_hand is not None:
        positions = tuple(own_hand.index(c) for c in offer.give if c in own_hand)
    return build_frozen(
        OfferView,
        id=offer.id,
        proposer=offer.proposer,
        receiver=offer.receiver,
        give=_varieties(offer.give),
        want=offer.want,
        stale=not offer_cards_in_place(state, offer),
        give_positions=positions,
    )


def _public_part(
    state: GameState, seats: tuple[SeatView, ...], discard: tuple[Variety, ...]
) -> dict[str, Any]:
    """The fields of a view that every seat sees alike (given its seats and discard pile)."""
    result = result_of(state) if state.step is Step.GAME_OVER else None
    setup = state.setup
    return {
        "seats": seats,
        "active": state.active,
        "step": state.step,
        "turn": state.turn,
        "deck_size": len(state.deck),
        "discard": discard,
        "face_up": _varieties(state.face_up),
        "offered": _varieties(state.offered),
        "exhaustions": state.exhaustions,
        "final_exhaustion": setup.final_exhaustion,
        "final_turn": state.final_turn,
        "third_field_price": setup.third_field_price,
        "scores": result.scores if result else None,
        "winners": result.winners if result else None,
    }


def _view(state: GameState, seat: int | None, public: dict[str, Any]) -> PlayerView:
    own_hand = state.players[seat].hand if seat is not None else []
    offers: tuple[OfferView, ...] = ()
    if state.offers:
        offers = tuple(
            [
                _offer_view(state, offer, own_hand if offer.proposer == seat else None)
                for offer in state.offers.values()
            ]
        )
    return _player_view(public, seat, _varieties(own_hand), offers)


def _player_view(
    public: dict[str, Any],
    seat: int | None,
    hand: tuple[Variety, ...],
    offers: tuple[OfferView, ...],
) -> PlayerView:
    """A seat's view from the part every seat sees alike, the seat's hand and the offers."""
    values = public.copy()
    values["seat"] = seat
    values["hand"] = hand
    values["offers"] = offers
    return frozen_from(PlayerView, values)


def view_for(state: GameState, seat: int | None) -> PlayerView:
    """What the player at `seat` (None: a spectator) may see now."""
    seats = tuple([_seat_view(i, p) for i, p in enumerate(state.players)])
    return _view(state, seat, _public_part(state, seats, _varieties(state.discard)))


class TableViews:
    """Views of one game for a driver that asks several seats at each moment.

    Each is equal to `view_for(state, seat)`. What every seat sees alike is built once per
    moment: call `next_moment` whenever the state may have changed. A seat's public side is
    kept until the engine changes it (`PlayerState.changes`), and the discard pile while its
    cards stay the same, since an action changes one or two seats and leaves the others as they
    were. The state must change only through the engine.
    """

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._public: dict[str, Any] | None = None
        self._seats: list[tuple[PlayerState, int, SeatView] | None] = []
        self._discard: tuple[list[Card], tuple[Variety, ...]] = ([], ())
        self._offers: dict[int, OfferView] = {}
        """The offers as seen by every seat but their proposer, this moment."""

    def next_moment(self) -> None:
        """The state may have changed since the last view."""
        self._public = None

    def __call__(self, seat: int | None) -> PlayerView:
        state = self._state
        if self._public is None:
            self._public = _public_part(state, self._seat_views(), self._discard_view())
            self._offers = {}
        if not state.offers:
            own_hand = state.players[seat].hand if seat is not None else []
            return _player_view(self._public, seat, _varieties(own_hand), ())
        return self._view_with_offers(seat)

    def _view_with_offers(self, seat: int | None) -> PlayerView:
        state = self._state
        own_hand = state.players[seat].hand if seat is not None else []
        shared = self._offers
        offers = []
        for offer in state.offers.values():
            if offer.proposer == seat:
                offers.append(_offer_view(state, offer, own_hand))
                continue
            view = shared.get(offer.id)
            if view is None:
                view = shared[offer.id] = _offer_view(state, offer, None)
            offers.append(view)
        assert self._public is not None
        return _player_view(self._public, seat, _varieties(own_hand), tuple(offers))

    def _discard_view(self) -> tuple[Variety, ...]:
        """Most actions leave the discard pile as it was: its varieties are then kept."""
        cards, shown = self._discard
        if cards != self._state.discard:
            cards = list(self._state.discard)
            shown = _varieties(cards)
            self._discard = (cards, shown)
        return shown

    def _seat_views(self) -> tuple[SeatView, ...]:
        players = self._state.players
        known = self._seats
        if len(known) != len(players):
            known[:] = [None] * len(players)
        views = []
        for seat, player in enumerate(players):
            kept = known[seat]
            if kept is not None and kept[0] is player and kept[1] == player.changes:
                views.append(kept[2])
            else:
                view = _seat_view(seat, player)
                known[seat] = (player, player.changes, view)
                views.append(view)
        return tuple(views)
