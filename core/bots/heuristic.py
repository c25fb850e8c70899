"""A bot that plays sensibly: it grows its fields toward the beanometer's steps and trades away
the beans it could not plant without a harvest.

It decides from its `PlayerView` and `LegalActions` alone. Its only memory is what it already
proposed this turn, so that trading always comes to an end.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol, TypeVar

from ..actions import (
    AcceptTrade,
    Action,
    BuyField,
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
from ..cards import RANK, Variety
from ..legal import BUY_FIELD, END_STEP, LegalActions, TradeOptions
from ..state import (
    STEP_DUEL_FACE_UP,
    STEP_DUEL_OFFERED,
    STEP_DUEL_PLANT,
    STEP_PLANT,
    STEP_PLANT_SET_ASIDE,
    STEP_TRADE,
)
from ..view import FieldView, OfferView, PlayerView, SeatView
from .valuation import (
    TOP_STEP,
    Plots,
    Slot,
    cards_to_next_step,
    empty_field_is_free,
    harvest_score,
    place,
    slots_of,
    spare_cards,
    wanted_varieties,
    worth_buying_field,
)

PROPOSALS_AS_ACTIVE = 4
"""Offers the active player makes per turn at most."""
CARDS_PER_OFFER = 3

_OfferKey = tuple[int, tuple[int, ...], tuple[Variety, ...]]
_Spares = tuple[
    SeatView, tuple[Variety, ...], tuple[Variety, ...], list[int], list[int], Variety | None
]


class _Planting(Protocol):
    @property
    def field(self) -> int: ...


_P = TypeVar("_P", bound=_Planting)


class HeuristicBot:
    """Plants onto matching fields, sells full fields, trades away beans it cannot use."""

    strategy = "heuristic"

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._turn = -1
        self._proposals = 0
        self._proposed = False
        self._tried: set[_OfferKey] = set()
        self._spares: _Spares | None = None
        """What this seat could offer as the active player, and the variety it would ask
        for, with the seat, hand and face-up cards it was worked out from: offers declined
        leave them as they were, and the next proposal starts from them. Views from
        `TableViews` keep a seat's side and hand until the seat changes, so `is` tells."""
        self._partner_spares: tuple[SeatView, tuple[Variety, ...], Plots, list[int]] | None
        self._partner_spares = None
        """Likewise as a partner: its fields after its set-aside cards and the hand positions
        of the beans it cannot use, with the seat and hand they were worked out from."""

    def choose(self, view: PlayerView, legal: LegalActions) -> Action | None:
        if legal.trade is None and not legal.actions:  # `not legal`, without a call
            return None
        if view.turn != self._turn:
            self._turn, self._proposals, self._proposed = view.turn, 0, False
            self._tried.clear()
        seat = legal.player
        me = view.seats[seat]
        # Whoever proposed waits on the answer, so offers made to this seat come first.
        for offer in view.offers:
            if offer.receiver == seat:
                return self._answer(view, legal, me, offer)
        for field in me.fields:
            # `_top_step_sale` asked only of a seat with a field at its top step (the lowest
            # top step is 3, Garden's: smaller fields need no look-up).
            count = field.count
            if count >= 3 and field.variety is not None and count >= TOP_STEP[field.variety]:
                sale = _top_step_sale(seat, me, legal)
                if sale is not None:
                    return sale
                break
        step = view.step
        if not legal.waiting:
            # Outside trading, a seat the game does not wait on has nothing it needs to do.
            if step is STEP_TRADE:
                return self._trade_as_partner(view, legal, me)
            return None
        price = view.third_field_price
        if (
            price is not None  # `worth_buying_field`'s first questions, asked here
            and not me.bought_third_field
            and me.coins >= price
            and worth_buying_field(view, me)
            and _has(legal.actions, BuyField)
        ):
            return BUY_FIELD[seat]
        if step is STEP_PLANT or step is STEP_DUEL_PLANT:
            return self._plant_from_hand(view, legal, me)
        if step is STEP_TRADE:
            return self._trade_as_active(view, legal, me)
        if step is STEP_PLANT_SET_ASIDE:
            return self._plant_set_aside(view, legal, me)
        if step is STEP_DUEL_OFFERED:
            return _plant_area_card(legal, me, view.offered, view.hand, PlantOffered)
        if step is STEP_DUEL_FACE_UP:
            return _plant_area_card(legal, me, view.face_up, view.hand, PlantFaceUp)
        return legal.actions[0] if legal.actions else None

    # --- planting ---------------------------------------------------------------------------

    def _plant_from_hand(self, view: PlayerView, legal: LegalActions, me: SeatView) -> Action:
        seat = legal.player
        hand = view.hand
        plants = [a for a in legal.actions if type(a) is Plant]
        if not _has(legal.actions, EndStep):
            # The front card must be planted; make room if it fits nowhere.
            if plants:
                return _best_planting(plants, me.fields)
            return _make_room(legal, me, hand)
        if plants and _fits_freely(plants, me.fields, hand[0], hand[1:]):
            return _best_planting(plants, me.fields)
        if view.step is STEP_DUEL_PLANT and hand:
            spare = _spare_hand(me.fields, hand)
            if spare:
                return DiscardFromHand(seat, spare[0])
        return END_STEP[seat]

    def _plant_set_aside(self, view: PlayerView, legal: LegalActions, me: SeatView) -> Action:
        fields = me.fields
        plants: list[PlantSetAside] = []
        onto_match: list[PlantSetAside] = []
        for action in legal.actions:
            if type(action) is PlantSetAside:
                plants.append(action)
                if fields[action.field].variety is not None:
                    onto_match.append(action)
        pending = me.set_aside
        if plants:
            if onto_match:
                return _best_planting(onto_match, me.fields)
            # Only empty fields are left: the variety with most cards waiting takes one first.
            waiting = Counter(pending)
            return max(plants, key=lambda a: waiting[pending[a.index]])
        return _make_room(legal, me, [*pending, *view.hand[:2]])

    # --- trading ----------------------------------------------------------------------------

    def _answer(
        self, view: PlayerView, legal: LegalActions, me: SeatView, offer: OfferView
    ) -> Action:
        seat = legal.player
        accept: AcceptTrade | None = None
        decline: DeclineTrade | None = None
        for action in legal.actions:
            if type(action) is AcceptTrade and action.offer == offer.id:
                accept = action
            elif type(action) is DeclineTrade and action.offer == offer.id:
                decline = action
        if (
            accept is None
            or _promised_elsewhere(view, seat, offer)
            or _offer_value(view, me, offer, accept) <= 0
        ):
            # The listed action itself, when listed: it is then applied without a search.
            return decline or DeclineTrade(seat, offer.id)
        return accept

    def _trade_as_active(self, view: PlayerView, legal: LegalActions, me: SeatView) -> Action:
        seat = legal.player
        waiting = False
        for offer in view.offers:
            if offer.proposer == seat:
                if offer.stale:
                    return WithdrawTrade(seat, offer.id)  # its cards are gone: no sense now
                waiting = True
        if waiting:
            # An offer of ours is open: its receiver (a person) answers in his own time, and
            # nothing else is offered meanwhile, so that his offer keeps its cards. Ending
            # the step is what we would do; the table holds trading open while he may answer.
            return END_STEP[seat]
        if self._proposals < PROPOSALS_AS_ACTIVE and legal.trade is not None:
            proposal = self._active_proposal(view, legal.trade, me, seat)
            if proposal is not None:
                self._proposals += 1
                return proposal
        return END_STEP[seat]

    def _active_proposal(
        self, view: PlayerView, trade: TradeOptions, me: SeatView, seat: int
    ) -> ProposeTrade | None:
        """Face-up and hand cards this seat cannot use, offered to a partner growing them."""
        hand = view.hand
        face_up = view.face_up
        spares = self._spares
        if spares is None or spares[0] is not me or spares[1] is not hand or spares[2] != face_up:
            pending = len(me.set_aside)
            incoming = [*me.set_aside, *face_up]
            spare_face = [i - pending for i in spare_cards(me.fields, incoming) if i >= pending]
            slots = slots_of(me.fields)
            for variety in incoming:
                place(slots, variety)
            wanted = wanted_varieties(slots, hand)
            spare_hand = [i for i, v in enumerate(hand) if v not in wanted]
            ask = _most_wanted(slots) if spare_face or spare_hand else None
            spares = self._spares = (me, hand, face_up, spare_face, spare_hand, ask)
        _, _, _, spare_face, spare_hand, ask = spares
        if not spare_face and not spare_hand:
            return None
        # The best so far: its score, partner, hand and face-up positions, give key and ask.
        best: tuple[int, int, list[int], list[int], tuple[int, ...], tuple[Variety, ...]] | None
        best = None
        partners = list(trade.partners)
        self._rng.shuffle(partners)
        seats = view.seats
        tried = self._tried
        for partner in partners:
            fields = seats[partner].fields
            # Loops, not list comprehensions: no call for lists this short.
            growing = []
            for field in fields:
                if field.variety is not None:
                    growing.append(field.variety)
            face = []
            for i in spare_face:
                if face_up[i] in growing:
                    face.append(i)
            given = []
            for i in spare_hand:
                if hand[i] in growing:
                    given.append(i)
            if not face and not given:
                # Nobody grows them: a face-up card may still go onto an empty field.
                if len(growing) == len(fields):
                    continue
                face, given = spare_face[:1], []
                if not face:
                    continue
            face = face[:CARDS_PER_OFFER]
            given = given[: CARDS_PER_OFFER - len(face)]
            score = 2 * len(face) + len(given)
            if best is not None and score <= best[0]:
                continue  # it could not replace the best, whatever it asks
            give = _give_key(face_up, hand, face, given)
            asks: tuple[tuple[Variety, ...], ...] = ((),)
            if ask is not None and seats[partner].hand_size > 0:
                asks = ((ask,), ())
            for want in asks:
                if (partner, give, want) not in tried:
                    best = (score, partner, given, face, give, want)
                    break
        if best is None:
            return None
        _, partner, given, face, give, want = best
        tried.add((partner, give, want))
        return ProposeTrade(seat, partner, tuple(given), tuple(face), want)

    def _trade_as_partner(
        self, view: PlayerView, legal: LegalActions, me: SeatView
    ) -> ProposeTrade | WithdrawTrade | None:
        """At most one offer per turn: unwanted hand cards for face-up beans this seat grows."""
        seat = legal.player
        for offer in view.offers:
            if offer.proposer == seat:
                # Left open for the active player to answer, unless its cards are gone.
                return WithdrawTrade(seat, offer.id) if offer.stale else None
        if self._proposed or legal.trade is None:
            return None
        hand = view.hand
        kept = self._partner_spares
        if kept is None or kept[0] is not me or kept[1] is not hand:
            plots = Plots(me.fields)
            if me.set_aside:
                plots.plant_all(me.set_aside)
            wanted = plots.wanted(hand)
            # Loops rather than list comprehensions below: no call for lists this short.
            spare = []
            for i, variety in enumerate(hand):
                if variety not in wanted:
                    spare.append(i)
            kept = self._partner_spares = (me, hand, plots, spare)
        _, _, plots, spare = kept
        if not spare:
            return None
        growing = plots.growing
        face_up = view.face_up
        want = []
        for variety in face_up:
            if variety in growing:
                want.append(variety)
        if not want and plots.empty:
            want = [v for v in face_up if empty_field_is_free(me.fields, v, hand)][:1]
        active = view.seats[view.active]
        fits_active = []
        for field in active.fields:
            if field.variety is not None:
                fits_active.append(field.variety)
        # Beans the active player grows first, each group in hand order (a stable sort).
        fitting: list[int] = []
        others: list[int] = []
        for i in spare:
            (fitting if hand[i] in fits_active else others).append(i)
        spare = fitting + others
        # Offer only what the active player would likely take, judged from his public fields.
        judge = _ActiveJudge(view, active)
        for asked in dict.fromkeys((tuple(want[:2]), tuple(want[:1]), ())):
            give = spare[: max(1, len(asked))]
            if judge.value([hand[i] for i in give], asked) > 0:
                self._proposed = True
                return ProposeTrade(seat, view.active, tuple(give), (), asked)
        return None


# --- small judgements ---------------------------------------------------------------------


def _has(actions: Sequence[Action], kind: type[Action]) -> bool:
    for action in actions:  # noqa: SIM110 (a loop makes no generator)
        if type(action) is kind:
            return True
    return False


def _promised_elsewhere(view: PlayerView, seat: int, offer: OfferView) -> bool:
    """The offer asks for a bean this seat has offered to someone who has not answered yet:
    accepting could take the very card promised, and leave that offer with nothing to give."""
    if not offer.want:
        return False
    for mine in view.offers:
        if mine.proposer == seat and not mine.stale:
            for variety in offer.want:
                if variety in mine.give:
                    return True
    return False


def _top_step_sale(seat: int, me: SeatView, legal: LegalActions) -> Harvest | None:
    """A field at its variety's highest step earns nothing more: sell it."""
    for index, field in enumerate(me.fields):
        # The lowest top step is 3 (Garden): smaller fields need no look-up.
        if field.count >= 3 and field.variety and field.count >= TOP_STEP[field.variety]:
            # `Harvest(seat, index) in legal.actions`, without making the action first.
            for action in legal.actions:
                if type(action) is Harvest and action.field == index and action.player == seat:
                    return action
    return None


def _best_planting(plants: Sequence[_P], fields: Sequence[FieldView]) -> _P:
    """Onto the biggest field of the card's variety, else onto an empty field."""
    # `max(plants, key=...)`, without a call per planting: the first of the biggest.
    best = plants[0]
    most = fields[best.field].count
    for plant in plants:
        count = fields[plant.field].count
        if count > most:
            best, most = plant, count
    return best


def _fits_freely(
    plants: Sequence[Plant],
    fields: Sequence[FieldView],
    variety: Variety,
    next_cards: Sequence[Variety],
) -> bool:
    """The optional card grows a field, or takes an empty one the next card does not need."""
    if any(fields[a.field].variety is not None for a in plants):
        return True
    return empty_field_is_free(fields, variety, next_cards)


def _make_room(legal: LegalActions, me: SeatView, upcoming: Sequence[Variety]) -> Action:
    """Harvest the field whose sale loses least and earns most."""
    harvests = [a for a in legal.actions if type(a) is Harvest]
    if not harvests:
        return legal.actions[0]
    return max(harvests, key=lambda a: harvest_score(me.fields[a.field], upcoming))


def _spare_hand(fields: Sequence[FieldView], hand: Sequence[Variety]) -> list[int]:
    """Hand positions of beans that no field grows and no empty field awaits."""
    wanted = Plots(fields).wanted(hand)
    return [i for i, v in enumerate(hand) if v not in wanted]


def _most_wanted(slots: Sequence[Slot]) -> Variety | None:
    """The variety whose field is closest to its next coin."""
    best: tuple[int, Variety] | None = None
    for slot in slots:
        if slot.variety is None:
            continue
        missing = cards_to_next_step(slot.variety, slot.count)
        if missing is not None and (best is None or missing < best[0]):
            best = (missing, slot.variety)
    return best[1] if best else None


def _give_key(
    face_up: Sequence[Variety],
    hand: Sequence[Variety],
    face: Sequence[int],
    given: Sequence[int],
) -> tuple[int, ...]:
    """The varieties an offer gives (face-up positions `face`, hand positions `given`), to
    recognise an offer already made this turn."""
    key = sorted([RANK[face_up[i]] for i in face])
    return tuple(key + sorted([RANK[hand[i]] for i in given]))


def _plant_area_card(
    legal: LegalActions,
    me: SeatView,
    area: Sequence[Variety],
    hand: Sequence[Variety],
    kind: type[PlantOffered] | type[PlantFaceUp],
) -> Action | None:
    """Duel: plant an offered or face-up card that fits, else discard or leave the rest."""
    seat = legal.player
    plants = [a for a in legal.actions if type(a) is kind]
    onto_match = [a for a in plants if me.fields[a.field].variety is not None]
    if onto_match:
        return _best_planting(onto_match, me.fields)
    copies = Counter(area)
    free = [a for a in plants if empty_field_is_free(me.fields, area[a.index], hand)]
    if free:
        return max(free, key=lambda a: copies[area[a.index]])
    for action in legal.actions:
        if type(action) is DiscardOffered:
            return action
    return END_STEP[seat] if kind is PlantFaceUp else None


class _ActiveJudge:
    """How the active player would value offers, judged from what the table shows."""

    def __init__(self, view: PlayerView, active: SeatView) -> None:
        self._face_up = view.face_up
        self._active = active
        self._spare_face_up: list[int] | None = None
        plots = Plots(active.fields)
        if active.set_aside:
            plots.plant_all(active.set_aside)
        self._after_set_aside = plots
        """His fields once his set-aside cards are planted, as every offer finds them."""

    def _spare(self) -> list[int]:
        """The face-up cards the active player could not plant; worked out only when an offer
        asks for face-up cards (most offers a partner makes ask for none)."""
        if self._spare_face_up is None:
            active = self._active
            pending = len(active.set_aside)
            cards = [*active.set_aside, *self._face_up]
            self._spare_face_up = [i - pending for i in spare_cards(active.fields, cards)]
        return self._spare_face_up

    def value(self, give: Sequence[Variety], want: Sequence[Variety]) -> float:
        face_up = self._face_up
        value = 0.0
        kept: Sequence[Variety] = face_up
        if want:
            taken: list[int] = []
            for variety in want:
                # The first face-up card of the variety not taken yet (an offer asks only
                # for cards shown).
                for index, shown in enumerate(face_up):
                    if shown is variety and index not in taken:
                        break
                else:
                    raise ValueError(f"no face-up {variety.title} to ask for")
                taken.append(index)
                value += 1.0 if index in self._spare() else -1.0
            kept = [variety for i, variety in enumerate(face_up) if i not in taken]
        plots = self._after_set_aside.copy()
        if kept:
            plots.plant_all(kept)
        return value + plots.gain(give)


def _offer_value(view: PlayerView, me: SeatView, offer: OfferView, accept: AcceptTrade) -> float:
    """What accepting gains: beans received that fit, less beans given that were wanted."""
    hand = view.hand
    face_up = view.face_up if view.active == accept.player else ()
    given_face = set(accept.face_up)
    kept_face = [v for i, v in enumerate(face_up) if i not in given_face]
    plots = Plots(me.fields)
    if me.set_aside:
        plots.plant_all(me.set_aside)
    plots.plant_all(kept_face)
    wanted = plots.wanted(hand)
    value = plots.gain(offer.give)
    if accept.face_up:
        pending = len(me.set_aside)
        spare = {i - pending for i in spare_cards(me.fields, [*me.set_aside, *face_up])}
        value += sum(1.0 if i in spare else -1.0 for i in accept.face_up)
    for position in accept.hand:
        if hand[position] in wanted:
            value -= 0.8
        else:
            value += 1.0 if position == 0 else 0.6
    return value
