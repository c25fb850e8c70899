"""The decisions of a recorded game, each as the deciding seat saw it.

A decision is an action a seat took. With it go the seat's view and legal actions at that
moment, what the seat had worked out from the views before (the varieties on the coin stacks,
`sampling.Observations`) and the offers made in this turn's trading so far (public: the search's
opponents do not make them again): nothing the seat could not see. The options compared are the
chosen action first, then those the expert would compare there (`expert.options_worth_comparing`,
around the heuristic bot's choice); a decision with one option is forced and is not judged.

Some decisions cost what shows only rounds later, past the first look's horizon (`judge.py`):
planting a bean on an empty field while another of one's fields grows it (coins are counted
field by field, and the empty field is lost to the next new bean), and declining an offer that
asks nothing for beans one grows (they would have been planted and sold). Such a decision
`shows_late`, and the second look takes it whatever the first found (`ranking.py`).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field

from ..actions import (
    Action,
    BuyField,
    CounterTrade,
    DeclineTrade,
    Plant,
    PlantSetAside,
    ProposeTrade,
)
from ..bots.expert import offer_key, options_worth_comparing, outcome_key, planted_so_far
from ..bots.heuristic import HeuristicBot
from ..bots.sampling import Observations
from ..bots.table_memory import OfferTerms, TradingSoFar, newest_offer_terms
from ..cards import Variety
from ..legal import LegalActions
from ..record import GameRecord, replay_steps
from ..view import PlayerView

Option = Action | None
"""An action, or None: letting a trading moment go by."""


@dataclass(frozen=True)
class Moment:
    """One decision of one seat: what it saw, what it could do, what it did."""

    index: int
    """The action's place in the record, from 0."""
    seat: int
    view: PlayerView
    legal: LegalActions
    coin_varieties: tuple[tuple[Variety | None, ...], ...]
    """Per seat, the varieties of its coins the deciding seat had worked out."""
    planted: int
    """Cards the seat had planted from its hand in this step, as its legal actions tell it."""
    options: tuple[Option, ...]
    """The chosen action first, then the others worth comparing."""
    trading: TradingSoFar = field(default_factory=TradingSoFar)
    """The offers made in this turn's trading before the decision."""
    shows_late: bool = False
    """The chosen action splits a variety over two fields or declines a free gift one grows:
    what it costs shows rounds later."""

    @property
    def chosen(self) -> Action:
        chosen = self.options[0]
        assert chosen is not None
        return chosen

    @property
    def forced(self) -> bool:
        return len(self.options) < 2

    @property
    def declines_gift(self) -> bool:
        """The chosen action declines an offer that asks nothing and gives a bean the seat
        grows (one of the decisions that `shows_late`)."""
        return self.shows_late and isinstance(self.options[0], DeclineTrade)


def decisions(record: GameRecord, seats: frozenset[int] | None = None) -> Iterator[Moment]:
    """Every decision of the given seats (all when None), in the record's order.

    Every seat takes in each view it was shown, as a player sees the table change after every
    action. Raises RecordError when the record does not replay.
    """
    wanted = sorted(range(len(record.seats)) if seats is None else seats)
    seen = {seat: Observations() for seat in wanted}
    offered: dict[int, tuple[int, list[Hashable]]] = {}
    trading: tuple[int, list[OfferTerms]] = (-1, [])
    steps = replay_steps(record)
    game = next(steps)[0]
    for seat in wanted:
        seen[seat].observe(game.view(seat))
    for index, action in enumerate(record.actions):
        seat = action.player
        if seat in seen:
            view = game.view(seat)
            legal = game.legal_actions(seat)
            turn, offers = offered.get(seat, (view.turn, []))
            if turn != view.turn:
                offers = []
            offered[seat] = (view.turn, offers)
            yield Moment(
                index=index,
                seat=seat,
                view=view,
                legal=legal,
                coin_varieties=tuple(tuple(s) for s in seen[seat].coin_varieties),
                planted=planted_so_far(view, legal),
                options=_options(view, legal, action, (len(offers), set(offers)), index),
                trading=TradingSoFar(
                    view.turn, tuple(trading[1]) if trading[0] == view.turn else ()
                ),
                shows_late=shows_late(view, action),
            )
            if isinstance(action, ProposeTrade):
                offers.append(offer_key(view, action))
        next(steps)
        if isinstance(action, ProposeTrade | CounterTrade):
            made = newest_offer_terms(game.state)
            if made is not None:
                if trading[0] != game.state.turn:
                    trading = (game.state.turn, [])
                trading[1].append(made)
        for other in wanted:
            seen[other].observe(game.view(other))
    # Replaying to the end checks the record's stated result and reshuffles.
    for _ in steps:
        pass


def shows_late(view: PlayerView, chosen: Action) -> bool:
    """Whether the chosen action plants a bean on an empty field while another of the seat's
    fields grows it, or declines an offer that asks nothing and gives a bean the seat grows."""
    if view.seat is None:
        return False
    me = view.seats[view.seat]
    grown = {f.variety for f in me.fields if f.variety is not None}
    if isinstance(chosen, DeclineTrade):
        offer = next((o for o in view.offers if o.id == chosen.offer), None)
        return offer is not None and not offer.want and not grown.isdisjoint(offer.give)
    if isinstance(chosen, Plant):
        planted = view.hand[0] if view.hand else None
    elif isinstance(chosen, PlantSetAside):
        planted = me.set_aside[chosen.index] if chosen.index < len(me.set_aside) else None
    else:
        return False
    return (
        chosen.field < len(me.fields)
        and me.fields[chosen.field].variety is None
        and planted in grown
    )


def _options(
    view: PlayerView,
    legal: LegalActions,
    chosen: Action,
    offered: tuple[int, set[Hashable]],
    index: int,
) -> tuple[Option, ...]:
    """The chosen action, then the other options worth comparing, each outcome once.

    Where the expert would not compare options around the chosen one (an offer let be, a 3rd
    field bought, a stale offer declined), the decision is forced. Buying the 3rd field is
    never an alternative: a rollout ends long before it pays back its price.
    """
    proposals, tried = offered
    around = options_worth_comparing(view, legal, chosen, proposals, tried)
    if len(around) < 2:
        return (chosen,)
    guide = HeuristicBot(random.Random(index)).choose(view, legal)
    others = around + options_worth_comparing(view, legal, guide, proposals, tried)
    options: list[Option] = [chosen]
    keys = {_key(view, chosen)}
    for option in others:
        key = _key(view, option)
        if key not in keys and not isinstance(option, BuyField):
            keys.add(key)
            options.append(option)
    return tuple(options)


def _key(view: PlayerView, option: Option) -> Hashable:
    """What makes two options the same: the same offer, or the same table after the move."""
    if option is None or view.seat is None:
        return option
    if isinstance(option, ProposeTrade):
        return offer_key(view, option)
    return outcome_key(view, view.seats[view.seat], option)
