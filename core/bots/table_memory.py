"""What the table remembers of this turn's trading, and the search's opponents that remember it.

People at a table do not make an offer again once it was declined or taken back, and make only
so many offers a turn. A heuristic bot remembers its own offers, but a search's rollout starts
from fresh bots: without memory they would make again, in the rollout, an offer the game already
saw declined (a gift turned down would be offered again and taken, and declining it would look
free). So a rollout's bots are `Remembering`: each offer made this turn, before the search and
in the rollout, is made once; a seat that already made `PROPOSALS_AS_ACTIVE` offers as active
player, or one as a partner, makes no more. A new turn starts a new memory, as at the table.

Offers are public (every seat sees every open offer), so the terms of the offers made this turn
(`TradingSoFar`) are part of what any seat may know: the analysis reads them from the record,
the expert from the views it is shown (`TradingSeen`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action, ProposeTrade
from ..cards import RANK, Variety, variety_of
from ..legal import END_STEP, LegalActions
from ..state import GameState
from ..view import OfferView, PlayerView
from .base import Bot

OfferTerms = tuple[int, int, tuple[int, ...], tuple[int, ...]]
"""Who offers, to whom, the varieties given and those asked (as ranks, sorted)."""
PROPOSALS_AS_ACTIVE = 4
"""Offers the active player makes in a turn at most (as the heuristic bot does)."""
PROPOSALS_AS_PARTNER = 1
ASKS_PER_CHOICE = 8
"""Times a remembering bot asks its bot again for something not yet done this turn."""


@dataclass(frozen=True)
class TradingSoFar:
    """The offers made in a turn's trading so far, in order."""

    turn: int = -1
    offers: tuple[OfferTerms, ...] = ()


def terms(
    proposer: int, receiver: int, give: list[Variety], want: tuple[Variety, ...]
) -> OfferTerms:
    return (
        proposer,
        receiver,
        tuple(sorted([RANK[v] for v in give])),
        tuple(sorted([RANK[v] for v in want])),
    )


def offer_terms(offer: OfferView) -> OfferTerms:
    return terms(offer.proposer, offer.receiver, list(offer.give), offer.want)


def proposal_terms(view: PlayerView, action: ProposeTrade) -> OfferTerms:
    give = [view.face_up[i] for i in action.face_up] + [view.hand[i] for i in action.hand]
    return terms(action.player, action.partner, give, action.want)


def newest_offer_terms(state: GameState) -> OfferTerms | None:
    """The terms of the offer just made in `state` (None if it is no longer open)."""
    offer = state.offers.get(state.next_offer_id - 1)
    if offer is None:
        return None
    give = [variety_of(card) for card in offer.give]
    return terms(offer.proposer, offer.receiver, give, offer.want)


class TradingMemory:
    """The offers made this turn, added to as a game goes on (one per rollout)."""

    __slots__ = ("_made", "_proposals", "turn")

    def __init__(self, so_far: TradingSoFar | None = None) -> None:
        self.turn = -1
        self._made: set[OfferTerms] = set()
        self._proposals: dict[int, int] = {}
        if so_far is not None:
            self.turn = so_far.turn
            for offer in so_far.offers:
                self.note(offer)

    def follow(self, turn: int) -> None:
        """Forget the trading of an earlier turn."""
        if turn != self.turn:
            self.turn = turn
            self._made.clear()
            self._proposals.clear()

    def note(self, offer: OfferTerms) -> None:
        self._made.add(offer)
        self._proposals[offer[0]] = self._proposals.get(offer[0], 0) + 1

    def made(self, offer: OfferTerms) -> bool:
        return offer in self._made

    def proposals(self, seat: int) -> int:
        return self._proposals.get(seat, 0)


class Remembering:
    """A bot that does not make an offer the table already saw this turn, nor more offers than
    a seat makes in a turn; otherwise it chooses as its bot does."""

    def __init__(self, bot: Bot, memory: TradingMemory) -> None:
        self._bot = bot
        self._memory = memory
        self.strategy = bot.strategy

    def choose(self, view: PlayerView, legal: LegalActions) -> Action | None:
        memory = self._memory
        memory.follow(view.turn)
        seat = legal.player
        limit = PROPOSALS_AS_ACTIVE if view.active == seat else PROPOSALS_AS_PARTNER
        for _ in range(ASKS_PER_CHOICE):
            action = self._bot.choose(view, legal)
            if type(action) is not ProposeTrade:
                return action
            assert isinstance(action, ProposeTrade)
            if memory.proposals(seat) >= limit:
                break
            if not memory.made(proposal_terms(view, action)):
                return action
            # Asked again, the bot (which remembers its own offers) offers something else.
        return END_STEP[seat] if legal.waiting else None


class TradingSeen:
    """What one seat has seen of this turn's trading: every offer open in the views it was
    shown, and its own (a searching bot's memory of the table)."""

    def __init__(self) -> None:
        self._turn = -1
        self._seen: dict[int, OfferTerms] = {}
        self._mine: list[OfferTerms] = []

    def observe(self, view: PlayerView) -> None:
        if view.turn != self._turn:
            self._turn = view.turn
            self._seen = {}
            self._mine = []
        for offer in view.offers:
            if offer.id not in self._seen:
                self._seen[offer.id] = offer_terms(offer)

    def propose(self, view: PlayerView, action: ProposeTrade) -> None:
        """Take in an offer of its own, which it may not see open again."""
        self.observe(view)
        self._mine.append(proposal_terms(view, action))

    def so_far(self) -> TradingSoFar:
        seen = [self._seen[i] for i in sorted(self._seen)]
        mine = list(self._mine)
        for offer in seen:
            if offer in mine:  # its own offers, seen open: counted once
                mine.remove(offer)
        return TradingSoFar(self._turn, tuple(seen + mine))
