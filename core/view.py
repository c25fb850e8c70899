"""What one player may see: computed here and nowhere else.

A view shows everyone's fields, coin counts, hand sizes and set-aside cards, the face-up cards,
the discard pile (face up on the table) and the open offers; of the hidden cards it shows only the
viewer's own hand. It never holds another player's hand or the order of the deck.

This module is compiled with mypyc (setup.py); the values it makes are plain classes of their
own (`view_values.py`), imported from here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .cards import CARD_COUNT, VARIETIES, Card, Variety
from .legal import (
    LegalActions,
    legal_actions,
    offer_cards_in_place,
    partner_options,
)
from .scoring import result_of
from .state import (
    CARD_VARIETIES,
    STEP_GAME_OVER,
    STEP_TRADE,
    GameState,
    PlayerState,
    TradeOffer,
    frozen_from,
)
from .view_values import VIEW_FIELDS, MomentLegal, MomentView
from .view_values import FieldView as FieldView
from .view_values import OfferView as OfferView
from .view_values import PlayerView as PlayerView
from .view_values import SeatView as SeatView

_new_view = object.__new__
_set_fields = object.__setattr__
"""`frozen_from`, inlined where a view is made at every decision."""

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
    set_aside = player.set_aside
    shown = []
    try:
        # A field holds at most every card of its variety, which the shared views cover.
        for field in player.fields:
            cards = field.cards
            shown.append(_FIELDS_STARTED_BY[cards[0]][len(cards)] if cards else _EMPTY_FIELD)
    except IndexError:  # a table laid out by hand may hold more
        shown = [_field_view(field.cards) for field in player.fields]
    fields = tuple(shown)
    # `frozen_from`, inlined: a seat's view is made again after every change to it.
    view = _new_view(SeatView)
    _set_fields(
        view,
        "__dict__",
        {
            "seat": seat,
            "fields": fields,
            "coins": len(player.coins),
            "hand_size": len(player.hand),
            "set_aside": tuple(map(_VARIETY_OF, set_aside)) if set_aside else (),
            "bought_third_field": player.bought_third_field,
        },
    )
    return view


def _offer_view(state: GameState, offer: TradeOffer, own_hand: list[Card] | None) -> OfferView:
    """`own_hand` is the viewer's hand when he made the offer, else None."""
    positions = None
    if own_hand is not None:
        positions = tuple(own_hand.index(c) for c in offer.give if c in own_hand)
    view = _new_view(OfferView)
    _set_fields(
        view,
        "__dict__",
        {
            "id": offer.id,
            "proposer": offer.proposer,
            "receiver": offer.receiver,
            "give": tuple(map(_VARIETY_OF, offer.give)),
            "want": offer.want,
            "stale": not offer_cards_in_place(state, offer),
            "give_positions": positions,
        },
    )
    return view


def _public_part(
    state: GameState, seats: tuple[SeatView, ...], discard: tuple[Variety, ...]
) -> dict[str, Any]:
    """The fields of a view that every seat sees alike (given its seats and discard pile)."""
    result = result_of(state) if state.step is STEP_GAME_OVER else None
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


def kept(view: PlayerView) -> PlayerView:
    """A view that outlives its moment. The views of `TableViews` work out their fields when
    first read, up to the next moment; whoever keeps one for later keeps this copy instead."""
    if type(view) is PlayerView:
        return view
    return PlayerView(*[getattr(view, name) for name in VIEW_FIELDS])


class TableViews:
    """Views of one game for a driver that asks several seats at each moment.

    Each is equal to `view_for(state, seat)`, but works out its fields only when they are first
    read, in parts: the seats' public sides, the viewer's hand, the face-up cards, the offers,
    and the rest together (the turn, the step, the active seat and the 3rd field's price come
    with the view). Most decisions read a few: a bot that passes on trading reads the turn and
    little else, one that plants a set-aside card the seats' public sides. Such a view belongs
    to its moment: call `next_moment` whenever the state may have changed, after which a field
    of an earlier view not read yet can no longer be worked out (reading it raises
    RuntimeError).
    What every seat sees alike is worked out once per moment, a seat's public side and hand are
    kept until the engine changes the seat (`PlayerState.changes`), and the discard pile while
    its cards stay the same, since an action changes one or two seats and leaves the others as
    they were. The state must change only through the engine.
    """

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._price = state.setup.third_field_price
        self._moment: dict[str, Any] = {}
        """What the views of this moment have worked out so far ("seats": every seat's public
        side; "public": the fields every seat sees alike; "offers": the offers as seen by all
        but their proposer); a new dict each moment, which also tells a view whether its moment
        has passed."""
        self._changes = [player.changes for player in state.players]
        """Each seat's `PlayerState.changes` when its view below was made."""
        self._seat_list = [_seat_view(seat, player) for seat, player in enumerate(state.players)]
        self._seat_tuple: tuple[SeatView, ...] | None = tuple(self._seat_list)
        self._hands: list[tuple[int, tuple[Variety, ...]]] = [
            (player.changes, _varieties(player.hand)) for player in state.players
        ]
        """Each seat's hand with its `PlayerState.changes` when it was shown."""
        self._discard: tuple[list[Card], tuple[Variety, ...]] = ([], ())

    def next_moment(self) -> None:
        """The state may have changed since the last view."""
        self._moment = {}

    def __call__(self, seat: int | None) -> PlayerView:
        state = self._state
        view = _new_view(MomentView)
        values: dict[str, Any] = {
            "seat": seat,
            "turn": state.turn,
            "step": state.step,
            "active": state.active,
            "third_field_price": self._price,
            "_table": self,
            "_moment": self._moment,
        }
        if not state.offers:
            values["offers"] = ()
        _set_fields(view, "__dict__", values)
        return view

    def whole(self, seat: int | None) -> PlayerView:
        """`view_for(state, seat)`, every field worked out now: a view that outlasts its moment,
        made from what this moment's other views share."""
        return _player_view(self._public(), seat, self._hand(seat), self._offers(seat))

    def legal(self, seat: int) -> LegalActions:
        """`legal_actions(state, seat)`, except that while trading, the actions of a seat the
        game does not wait on are listed when first read: most such seats pass, reading only
        `trade` and `waiting`. Like the views, it belongs to its moment."""
        state = self._state
        if state.step is not STEP_TRADE or seat == state.active:
            return legal_actions(state, seat)
        return self.bystander_legal(seat)

    def bystander_legal(self, seat: int) -> LegalActions:
        """`legal(seat)` for a seat other than the active player's while trading."""
        state = self._state
        legal = _new_view(MomentLegal)
        _set_fields(
            legal,
            "__dict__",
            {
                "player": seat,
                "trade": partner_options(state.active, len(state.players[seat].hand)),
                "waiting": False,
                "_table": self,
                "_moment": self._moment,
            },
        )
        return legal

    def _offers(self, seat: int | None) -> tuple[OfferView, ...]:
        state = self._state
        if not state.offers:
            return ()
        shared = self._moment.setdefault("offers", {})
        offers = []
        for offer in state.offers.values():
            if offer.proposer == seat:
                assert seat is not None
                offers.append(_offer_view(state, offer, state.players[seat].hand))
                continue
            view = shared.get(offer.id)
            if view is None:
                view = shared[offer.id] = _offer_view(state, offer, None)
            offers.append(view)
        return tuple(offers)

    def _public(self) -> dict[str, Any]:
        """The fields every seat sees alike, worked out once per moment."""
        moment = self._moment
        public: dict[str, Any] | None = moment.get("public")
        if public is None:
            public = _public_part(self._state, self._seats(), self._discard_view())
            moment["public"] = public
        return public

    def _hand(self, seat: int | None) -> tuple[Variety, ...]:
        """A seat's hand (a spectator's: none), kept like its public side until the engine
        changes the seat."""
        if seat is None:
            return ()
        player = self._state.players[seat]
        changes, hand = self._hands[seat]
        if changes != player.changes:
            hand = _varieties(player.hand)
            self._hands[seat] = (player.changes, hand)
        return hand

    def _seats(self) -> tuple[SeatView, ...]:
        """Every seat's public side, worked out once per moment: the seats the engine changed
        since are shown anew."""
        moment = self._moment
        seats: tuple[SeatView, ...] | None = moment.get("seats")
        if seats is not None:
            return seats
        changes = self._changes
        views = self._seat_list
        seats = self._seat_tuple
        for seat, player in enumerate(self._state.players):
            if player.changes != changes[seat]:
                changes[seat] = player.changes
                views[seat] = _seat_view(seat, player)
                seats = None
        if seats is None:
            seats = self._seat_tuple = tuple(views)
        moment["seats"] = seats
        return seats

    def _face_up(self) -> tuple[Variety, ...]:
        return _varieties(self._state.face_up)

    def _discard_view(self) -> tuple[Variety, ...]:
        """Most actions leave the discard pile as it was: its varieties are then kept."""
        cards, shown = self._discard
        if cards != self._state.discard:
            cards = list(self._state.discard)
            shown = _varieties(cards)
            self._discard = (cards, shown)
        return shown
