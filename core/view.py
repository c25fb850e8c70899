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

from .actions import Action
from .cards import CARD_COUNT, VARIETIES, Card, Variety
from .legal import LegalActions, legal_actions, offer_cards_in_place, partner_options
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
from .view_values import VIEW_FIELDS as VIEW_FIELDS
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


class TableViews:
    """Views of one game for a driver that asks several seats at each moment.

    Each is equal to `view_for(state, seat)`, and like it holds values only: the seats' public
    sides, the viewer's hand, the cards on the table and the offers as frozen values and tuples
    of varieties, never a part of the state, so nothing a bot is handed leads to another hand,
    the deck or the state itself. What every seat sees alike is worked out once per moment (call
    `next_moment` whenever the state may have changed) and shared by the moment's views; a
    seat's public side is kept until the engine changes the seat (`PlayerState.changes`), and
    its hand and the cards on the table while they stay the same, since an action changes one
    or two seats and leaves the others as they were: a bot may tell by `is` that a seat's side
    or hand is the one it saw. The state must change only through the engine.
    """

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._public_now: dict[str, Any] | None = None
        """`_shown` once brought up to this moment."""
        self._shown: dict[str, Any] = {
            "seats": (),
            "final_exhaustion": state.setup.final_exhaustion,
            "third_field_price": state.setup.third_field_price,
            "face_up": (),
            "scores": None,
            "winners": None,
        }
        """The fields every seat sees alike, as last brought up to a moment."""
        self._face_up: list[Card] = []
        self._shared_offers: dict[int, OfferView] = {}
        """The offers as seen by all but their proposer, by id: an offer's terms never change,
        so its view is made again only when its cards leave or come back into place."""
        self._changes = [player.changes for player in state.players]
        """Each seat's `PlayerState.changes` when its view below was made."""
        self._seat_list = [_seat_view(seat, player) for seat, player in enumerate(state.players)]
        self._shown["seats"] = tuple(self._seat_list)
        self._hands: list[tuple[list[Card], tuple[Variety, ...]]] = [
            (list(player.hand), _varieties(player.hand)) for player in state.players
        ]
        """Each seat's hand as it was last shown: its cards, and their varieties."""
        self._discard: tuple[list[Card], tuple[Variety, ...]] = ([], ())
        self._bystanders: list[tuple[int, tuple[Action, ...]] | None] = [None] * len(state.players)
        """Each seat's actions as a bystander while trading with no offer of his open, with
        its `PlayerState.changes` when they were listed (`bystander_legal`)."""

    def next_moment(self) -> None:
        """The state may have changed since the last view."""
        self._public_now = None

    def __call__(self, seat: int | None) -> PlayerView:
        """`view_for(state, seat)`, made from what this moment's views share."""
        public = self._public_now
        if public is None:
            public = self._public()
        values = public.copy()
        values["seat"] = seat
        if seat is None:
            values["hand"] = ()
        else:
            # The hand as shown before while its cards are the same (most actions of a seat
            # plant or harvest, or trade set-aside cards, and leave the hand as it was).
            cards, hand = self._hands[seat]
            now = self._state.players[seat].hand
            if cards != now:
                hand = _varieties(now)
                self._hands[seat] = (list(now), hand)
            values["hand"] = hand
        values["offers"] = self._offers(seat) if self._state.offers else ()
        # `frozen_from`, inlined.
        view = _new_view(PlayerView)
        _set_fields(view, "__dict__", values)
        return view

    def legal(self, seat: int) -> LegalActions:
        """`legal_actions(state, seat)`: plain values, like the views."""
        state = self._state
        if state.step is STEP_TRADE and seat != state.active:
            return self.bystander_legal(seat)
        return legal_actions(state, seat)

    def bystander_legal(self, seat: int) -> LegalActions:
        """`legal(seat)` for a seat other than the active player's while trading. Until an
        offer he is part of opens, such a seat may propose to the active player, harvest and
        buy the 3rd field; the last two change only with his public side, so their actions
        are kept until the engine changes the seat."""
        state = self._state
        if state.step is not STEP_TRADE or seat == state.active:
            return legal_actions(state, seat)
        offers = state.offers
        if offers:
            for offer in offers.values():
                if offer.receiver == seat or offer.proposer == seat:
                    return legal_actions(state, seat)
        player = state.players[seat]
        kept = self._bystanders[seat]
        if kept is None or kept[0] != player.changes:
            kept = self._bystanders[seat] = (player.changes, legal_actions(state, seat).actions)
        # `frozen_from`, inlined.
        legal = _new_view(LegalActions)
        _set_fields(
            legal,
            "__dict__",
            {
                "player": seat,
                "actions": kept[1],
                "trade": partner_options(state.active, len(player.hand)),
                "waiting": False,
            },
        )
        return legal

    def _offers(self, seat: int | None) -> tuple[OfferView, ...]:
        state = self._state
        shared = self._shared_offers
        if len(shared) > 16:  # forget the views of offers that have closed
            shared = self._shared_offers = {
                key: view for key, view in shared.items() if key in state.offers
            }
        offers = []
        for offer in state.offers.values():
            if offer.proposer == seat:
                assert seat is not None
                offers.append(_offer_view(state, offer, state.players[seat].hand))
                continue
            view = shared.get(offer.id)
            if view is None or view.stale is offer_cards_in_place(state, offer):
                view = shared[offer.id] = _offer_view(state, offer, None)
            offers.append(view)
        return tuple(offers)

    def _public(self) -> dict[str, Any]:
        """The fields every seat sees alike, brought up to this moment in the table's own dict
        (each view takes a copy: a dict made anew at every moment costs more). Most actions
        change one or two seats and leave the rest of the table as it was: the seats the engine
        did not change are shown as they were, and the cards on the table while they stay the
        same."""
        state = self._state
        public = self._public_now = self._shown
        changes = self._changes
        renewed = False
        for seat, player in enumerate(state.players):
            if player.changes != changes[seat]:
                changes[seat] = player.changes
                self._seat_list[seat] = _seat_view(seat, player)
                renewed = True
        if renewed:
            public["seats"] = tuple(self._seat_list)
        face_up = state.face_up
        if face_up != self._face_up:
            self._face_up = list(face_up)
            public["face_up"] = _varieties(face_up)
        step = public["step"] = state.step
        public["active"] = state.active
        public["turn"] = state.turn
        public["deck_size"] = len(state.deck)
        public["discard"] = self._discard_view()
        public["offered"] = _varieties(state.offered) if state.offered else ()
        public["exhaustions"] = state.exhaustions
        public["final_turn"] = state.final_turn
        if step is STEP_GAME_OVER:
            result = result_of(state)
            public["scores"], public["winners"] = result.scores, result.winners
        return public

    def _discard_view(self) -> tuple[Variety, ...]:
        """Most actions leave the discard pile as it was, and most others add cards on top:
        its varieties are then kept, or extended."""
        cards, shown = self._discard
        now = self._state.discard
        if cards != now:
            count = len(cards)
            if count and now[:count] == cards:
                shown = shown + _varieties(now[count:])
            else:
                shown = _varieties(now)
            self._discard = (list(now), shown)
        return shown
