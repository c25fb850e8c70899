"""A bot that plays any legal action, for property tests and as a baseline opponent."""

from __future__ import annotations

import random

from ..actions import Action, CounterTrade, ProposeTrade
from ..cards import VARIETIES, Variety
from ..legal import LegalActions, TradeOptions
from ..view import OfferView, PlayerView
from .base import NEEDS_VIEW, NeedsView

MAX_CARDS_PER_OFFER = 2


class RandomBot:
    """Picks uniformly among the legal concrete actions, now and then offering a random trade.

    When the game does not wait on it, it usually passes, so games move on. It glances
    (`base.Glancing`): only a trade offer reads its view, so a driver that asks every seat at
    every moment makes a view for it only then.
    """

    strategy = "random"

    def __init__(
        self,
        rng: random.Random,
        *,
        act_unasked: float = 0.15,
        trade_chance: float = 0.25,
        trades_per_turn: int = 2,
    ) -> None:
        self._rng = rng
        self._act_unasked = act_unasked
        self._trade_chance = trade_chance
        self._trades_per_turn = trades_per_turn
        self._turn = -1
        self._trades = 0

    def choose(self, view: PlayerView, legal: LegalActions) -> Action | None:
        glanced = self.glance(view.turn, legal)
        if isinstance(glanced, NeedsView):
            return self.choose_seen(view, legal)
        return glanced

    def glance(self, turn: int, legal: LegalActions) -> Action | NeedsView | None:
        """`choose`, up to the moment it needs the view: only a trade offer reads it."""
        if legal.trade is None and not legal.actions:  # `not legal`, without a call
            return None
        rng = self._rng
        if turn != self._turn:
            self._turn, self._trades = turn, 0
        if not legal.waiting and rng.random() >= self._act_unasked:
            return None
        if (
            legal.trade is not None
            and self._trades < self._trades_per_turn
            and rng.random() < self._trade_chance
        ):
            return NEEDS_VIEW
        return self._pick(legal.actions)

    def choose_seen(self, view: PlayerView, legal: LegalActions) -> Action | None:
        """The rest of `choose` once `glance` chose to offer a trade: a random offer, or a
        legal action when none can be made."""
        trade = legal.trade
        assert trade is not None
        offer = self._random_offer(view, legal.player, trade)
        if offer is not None:
            self._trades += 1
            return offer
        return self._pick(legal.actions)

    def _pick(self, actions: tuple[Action, ...]) -> Action | None:
        if not actions:
            return None
        # `rng.choice(actions)`, drawn as it draws (`Random._randbelow`), without its two
        # calls: this is most of what a random bot does.
        n = len(actions)
        bits = n.bit_length()
        getrandbits = self._rng.getrandbits
        drawn = getrandbits(bits)
        while drawn >= n:
            drawn = getrandbits(bits)
        return actions[drawn]

    def _random_offer(
        self, view: PlayerView, seat: int, trade: TradeOptions
    ) -> ProposeTrade | CounterTrade | None:
        """A random proposal, or a counter to a random offer made to this seat."""
        rng = self._rng
        hand = self._positions(trade.hand_size)
        face_up = self._positions(trade.face_up)
        if not hand and not face_up:
            if trade.hand_size:
                hand = (rng.randrange(trade.hand_size),)
            elif trade.face_up:
                face_up = (rng.randrange(trade.face_up),)
            else:
                return None
        to_me = [o for o in view.offers if o.receiver == seat]
        if to_me and rng.random() < 0.5:
            offer: OfferView = rng.choice(to_me)
            want = self._want(view, offer.proposer)
            return CounterTrade(seat, offer.id, hand, face_up, want)
        partner = rng.choice(trade.partners)
        return ProposeTrade(seat, partner, hand, face_up, self._want(view, partner))

    # `randrange(n + 1)` draws as `randint(0, n)` does, one call sooner; a sample of none
    # draws nothing.

    def _positions(self, size: int) -> tuple[int, ...]:
        count = self._rng.randrange(min(MAX_CARDS_PER_OFFER, size) + 1)
        return tuple(self._rng.sample(range(size), count)) if count else ()

    def _want(self, view: PlayerView, partner: int) -> tuple[Variety, ...]:
        """Up to two varieties the partner can give in number: his face-up cards or any."""
        can_give = view.seats[partner].hand_size
        face_up: tuple[Variety, ...] = ()
        if partner == view.active:
            face_up = view.face_up
            can_give += len(face_up)
        count = self._rng.randrange(min(MAX_CARDS_PER_OFFER, can_give) + 1)
        if not count:
            return ()
        pool = VARIETIES + face_up
        choice = self._rng.choice
        return tuple([choice(pool) for _ in range(count)])
