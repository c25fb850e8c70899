"""The blunders planted into games, each a move the rules and the beanometer say loses coins.

A kind looks at one decision of the seat that is to blunder (its view, its legal actions and
the heuristic bot's choice there) and answers the blunder to play instead, or None where the
moment does not fit. Every kind keeps to the seat's own view: what it could know was bad.

- `harvest`: in step 1, selling a growing field of 3 beans or more, short of its top step, while
  an empty field is free (nothing forces a sale) and the hand holds more of that bean. The beans
  past the last step reached are thrown away, and the next ones start a field from nothing.
- `wrong-harvest`: where a bean fits no field (the front card in step 1, a set-aside card in
  step 3) and a field must be sold, selling the biggest field short of its top step rather than
  the one the sale hurts least.
- `give-away`: as active player in step 2, giving away for nothing the face-up beans that would
  grow one of one's own fields of 2 beans or more (rule: the face-up cards are planted by the
  active player unless traded), to a seat that grows them (it takes a gift that fits, so the
  beans are lost).
- `decline-gift`: declining an offer that asks for nothing and lifts one of one's fields to its
  next beanometer step (traded beans are planted in step 3: they would have paid).
- `split`: in step 3, planting a traded or face-up bean onto an empty field while a field of
  that bean grows: coins are counted field by field, so two half fields earn less than one, and
  the empty field is lost to the next new bean.
- `give-hand`: as a partner while trading, giving the active player for nothing one of the two
  front beans of the hand that one of one's own fields of 2 beans or more grows (it would have
  been planted there in the next step 1).
"""

from __future__ import annotations

from collections.abc import Callable

from bohnanza.core.actions import (
    AcceptTrade,
    Action,
    DeclineTrade,
    Harvest,
    Plant,
    PlantSetAside,
    ProposeTrade,
)
from bohnanza.core.bots.valuation import TOP_STEP
from bohnanza.core.legal import LegalActions
from bohnanza.core.state import STEP_PLANT, STEP_PLANT_SET_ASIDE, STEP_TRADE
from bohnanza.core.view import PlayerView

Kind = Callable[[PlayerView, LegalActions, Action | None], Action | None]


def harvest(view: PlayerView, legal: LegalActions, choice: Action | None) -> Action | None:
    seat = legal.player
    if view.step is not STEP_PLANT or view.active != seat or not legal.waiting:
        return None
    fields = view.seats[seat].fields
    if not any(f.variety is None for f in fields):
        return None
    best: tuple[int, int] | None = None
    for index, field in enumerate(fields):
        variety = field.variety
        if variety is None or field.count < 3 or field.count >= TOP_STEP[variety]:
            continue
        if variety not in view.hand:
            continue
        if Harvest(seat, index) not in legal.actions:
            continue
        if best is None or field.count > best[1]:
            best = (index, field.count)
    if best is None or choice == Harvest(seat, best[0]):
        return None
    return Harvest(seat, best[0])


def wrong_harvest(view: PlayerView, legal: LegalActions, choice: Action | None) -> Action | None:
    seat = legal.player
    if not isinstance(choice, Harvest) or not legal.waiting:
        return None
    me = view.seats[seat]
    if view.step is STEP_PLANT:
        if view.active != seat or any(type(a) is Plant for a in legal.actions):
            return None
    elif view.step is not STEP_PLANT_SET_ASIDE or any(
        type(a) is PlantSetAside for a in legal.actions
    ):
        return None
    best: tuple[int, int] | None = None
    for index, field in enumerate(me.fields):
        variety = field.variety
        if variety is None or field.count >= TOP_STEP[variety] or index == choice.field:
            continue
        if Harvest(seat, index) in legal.actions and (best is None or field.count > best[1]):
            best = (index, field.count)
    if best is None or best[1] <= me.fields[choice.field].count:
        return None
    return Harvest(seat, best[0])


def give_away(view: PlayerView, legal: LegalActions, choice: Action | None) -> Action | None:
    seat = legal.player
    if view.step is not STEP_TRADE or view.active != seat or not legal.waiting:
        return None
    if legal.trade is None or any(seat in (o.proposer, o.receiver) for o in view.offers):
        return None
    growing = {f.variety for f in view.seats[seat].fields if f.variety is not None and f.count > 1}
    fitting = [i for i, v in enumerate(view.face_up) if v in growing]
    if not fitting:
        return None
    variety = view.face_up[fitting[0]]
    given = tuple(i for i in fitting if view.face_up[i] is variety)
    for partner, other in enumerate(view.seats):
        if partner != seat and any(f.variety is variety for f in other.fields):
            return ProposeTrade(seat, partner, (), given, ())
    return None


def decline_gift(view: PlayerView, legal: LegalActions, choice: Action | None) -> Action | None:
    seat = legal.player
    if not isinstance(choice, AcceptTrade):
        return None
    offer = next((o for o in view.offers if o.id == choice.offer), None)
    if offer is None or offer.want or offer.stale:
        return None
    for field in view.seats[seat].fields:
        variety = field.variety
        if variety is None:
            continue
        received = sum(1 for v in offer.give if v is variety)
        if received and variety.coins_for(field.count + received) > variety.coins_for(field.count):
            return DeclineTrade(seat, offer.id)
    return None


def split(view: PlayerView, legal: LegalActions, choice: Action | None) -> Action | None:
    seat = legal.player
    if view.step is not STEP_PLANT_SET_ASIDE or not isinstance(choice, PlantSetAside):
        return None
    fields = view.seats[seat].fields
    variety = view.seats[seat].set_aside[choice.index]
    if fields[choice.field].variety is not variety:
        return None
    for index, field in enumerate(fields):
        if field.variety is None:
            blunder = PlantSetAside(seat, choice.index, index)
            if blunder in legal.actions:
                return blunder
    return None


def give_hand(view: PlayerView, legal: LegalActions, choice: Action | None) -> Action | None:
    seat = legal.player
    if view.step is not STEP_TRADE or view.active == seat or legal.trade is None:
        return None
    if isinstance(choice, ProposeTrade) or any(o.proposer == seat for o in view.offers):
        return None
    if any(o.receiver == seat for o in view.offers):
        return None
    growing = {f.variety for f in view.seats[seat].fields if f.variety is not None and f.count > 1}
    active = {f.variety for f in view.seats[view.active].fields if f.variety is not None}
    for position, variety in enumerate(view.hand[:2]):
        if variety in growing and variety in active:
            return ProposeTrade(seat, view.active, (position,), (), ())
    return None


KINDS: dict[str, Kind] = {
    "harvest": harvest,
    "wrong-harvest": wrong_harvest,
    "give-away": give_away,
    "decline-gift": decline_gift,
    "split": split,
    "give-hand": give_hand,
}
