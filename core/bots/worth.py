"""What a seat is worth where a rollout stops: its coins, plus the coins it may still expect.

A rollout ends a round or so after the decision it judges, long before the game does. What the
table holds there is judged by a linear estimate of each seat's coins still to come, fitted by
least squares to where heuristic bots' games actually ended (`bench/fit_worth.py`, which writes
`worth_weights.py`). Its features are public or, in a rollout, part of the sampled deal:

- what the fields would sell for now, and what their next beanometer steps add (by the beans
  still missing: one, two, three or more), also weighted by the share of the deck those beans
  make up;
- empty fields, a third field, the hand's size, and hand cards (all, the front one, the front
  two) of a variety the seat grows;
- how many fields of other seats grow the seat's varieties (they compete for the same beans);

each also multiplied by the deck's size, since the same field is worth more with more of the
game to come. There is one set of weights for each player count and each number of deck passes
left (the game ends on a set exhaustion of the deck).

Measured on heuristic games the fit did not see, the margin this estimate predicts follows the
final margin more closely than coins plus a share of each field's next step, the rule it
replaced (`bench/fit_worth.py` prints both).
"""

from __future__ import annotations

from collections import Counter

from ..cards import Variety
from ..state import CARD_VARIETIES, GameState
from .valuation import cards_to_next_step
from .worth_weights import WEIGHTS

FEATURES = (
    "constant",
    "sale",
    "next step, 1 bean short",
    "next step, 2 beans short",
    "next step per bean, 3 or more short",
    "empty fields",
    "third field",
    "hand size",
    "hand cards grown",
    "front card grown",
    "in deck, 1 bean short",
    "in deck, 2 beans short",
    "in deck, 3 or more short",
    "front two cards grown",
    "rival fields",
)
"""The features of a seat, each used as it is and multiplied by the deck's size / 100."""


def seat_features(
    state: GameState, seat: int, in_deck: Counter[Variety], grown: Counter[Variety]
) -> list[float]:
    """The features of `seat` (`FEATURES`, then each times the deck's size / 100).
    `in_deck`: the deck's cards by variety; `grown`: every seat's fields by variety."""
    player = state.players[seat]
    deck = len(state.deck)
    sale = 0
    steps = [0.0, 0.0, 0.0]
    supply = [0.0, 0.0, 0.0]
    empty = 0
    own = Counter(CARD_VARIETIES[f.cards[0]] for f in player.fields if f.cards)
    rivals = 0
    for field in player.fields:
        if not field.cards:
            empty += 1
            continue
        variety = CARD_VARIETIES[field.cards[0]]
        count = len(field.cards)
        rivals += grown[variety] - own[variety]
        now = variety.coins_for(count)
        sale += now
        missing = cards_to_next_step(variety, count)
        if missing is not None:
            kind = min(missing, 3) - 1
            added = (variety.coins_for(count + missing) - now) / (1 if missing < 3 else missing)
            steps[kind] += added
            supply[kind] += added * in_deck[variety] / (deck + 1) * 10
    hand = [CARD_VARIETIES[card] for card in player.hand]
    in_hand = sum(1 for v in hand if v in own)
    front = 1 if hand and hand[0] in own else 0
    front_two = sum(1 for v in hand[:2] if v in own)
    base = [
        1.0,
        float(sale),
        *steps,
        float(empty),
        float(len(player.fields) - 2),
        float(len(hand)),
        float(in_hand),
        float(front),
        *supply,
        float(front_two),
        float(rivals),
    ]
    share = deck / 100
    return base + [value * share for value in base]


def table_counts(state: GameState) -> tuple[Counter[Variety], Counter[Variety]]:
    """The deck's cards by variety, and every seat's fields by variety."""
    in_deck = Counter(CARD_VARIETIES[card] for card in state.deck)
    grown = Counter(
        CARD_VARIETIES[f.cards[0]] for player in state.players for f in player.fields if f.cards
    )
    return in_deck, grown


def weights_for(state: GameState) -> tuple[float, ...]:
    """The fitted weights for the state's player count and deck passes left."""
    players = len(state.players)
    left = max(1, state.setup.final_exhaustion - state.exhaustions)
    weights = WEIGHTS.get((players, left))
    if weights is None:  # a pass count the fit never saw: the nearest one it did
        known = sorted(k for p, k in WEIGHTS if p == players)
        weights = WEIGHTS[(players, min(known, key=lambda k: abs(k - left)))]
    return weights


def expected_coins(state: GameState) -> list[float]:
    """Each seat's coins, plus the coins it may still expect (none once the game is over)."""
    coins = [float(len(p.coins)) for p in state.players]
    if state.is_over:
        return coins
    weights = weights_for(state)
    in_deck, grown = table_counts(state)
    for seat in range(len(coins)):
        features = seat_features(state, seat, in_deck, grown)
        coins[seat] += sum(w * x for w, x in zip(weights, features, strict=True))
    return coins


def margin(state: GameState, seat: int) -> float:
    """The seat's expected coins less the best among the others (positive: it leads)."""
    worths = expected_coins(state)
    mine = worths.pop(seat)
    return mine - max(worths)
