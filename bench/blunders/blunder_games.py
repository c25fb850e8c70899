"""Games of heuristic bots with one blunder planted, and what the blunder really cost.

A game is played by heuristic bots; from a turn drawn at random, the first decision of the
blundering seat that fits the kind is replaced by the kind's blunder. The bots' state at that
moment (their memory of the turn and their generators) is kept. The blunder's real cost is
then measured as the seat itself could have: the cards it could not see are dealt again in many
ways that agree with its view (`sampling.determinize`, as the analysis deals them), and on each
deal the game is played to its end twice by copies of the very bots of the table, once after
the blunder and once after the heuristic's own choice, with the same dice. The cost is the mean
difference of the seat's final margin (its coins less the best other seat's), with its standard
error.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from blunder_kinds import Kind

from bohnanza.core.actions import Action
from bohnanza.core.analysis import decisions
from bohnanza.core.bots.asking import next_action
from bohnanza.core.bots.base import Bot
from bohnanza.core.bots.heuristic import HeuristicBot
from bohnanza.core.bots.sampling import Observations, clone, determinize
from bohnanza.core.engine import Engine, RandomShuffler
from bohnanza.core.errors import IllegalActionError
from bohnanza.core.game import Game
from bohnanza.core.legal import LegalActions, TradingMoment, is_listed, trading_moment
from bohnanza.core.record import GameRecord, SeatRecord
from bohnanza.core.scoring import result_of
from bohnanza.core.state import STEP_GAME_OVER, GameState
from bohnanza.core.view import PlayerView, TableViews

MAX_ACTIONS = 20_000
LATEST_START = {3: 30, 4: 30, 5: 28}
"""The latest turn a blunder may be looked for from (games last about 40-60 turns)."""


@dataclass
class Table:
    """The bots of a table with the generators they draw from."""

    bots: list[HeuristicBot]
    rngs: list[random.Random]

    def reseeded(self, seed: int) -> Table:
        """A copy of the table (memory and all), its generators seeded anew."""
        table: Table = copy.deepcopy(self)
        for seat, rng in enumerate(table.rngs):
            rng.seed(seed * 10 + seat)
        return table


@dataclass
class Planted:
    kind: str
    players: int
    seed: int
    seat: int
    index: int
    """The blunder's place in the record."""
    turn: int
    blunder: Action
    alternative: Action | None
    """The heuristic bot's own choice there (None: letting the trading moment go by)."""
    table: Table
    record: GameRecord


class Planter:
    """The blundering seat's bot: the heuristic bot, until a decision fits the kind."""

    strategy = "heuristic"

    def __init__(
        self,
        inner: HeuristicBot,
        kind: Kind,
        start: int,
        check: Callable[[Action], bool],
        keep: Callable[[Action, Action | None], None],
    ) -> None:
        self._inner = inner
        self._kind = kind
        self._start = start
        self._check = check
        self._keep = keep
        self.done = False

    def choose(self, view: PlayerView, legal: LegalActions) -> Action | None:
        choice = self._inner.choose(view, legal)
        if self.done or view.turn < self._start:
            return choice
        blunder = self._kind(view, legal, choice)
        if blunder is None or blunder == choice or not self._check(blunder):
            return choice
        self.done = True
        self._keep(blunder, choice)
        return blunder


def plant(kind_name: str, kind: Kind, players: int, seed: int) -> Planted | None:
    """One game with one blunder of the kind planted, or None when no decision fitted."""
    rng = random.Random(f"{kind_name}:{players}:{seed}")
    game = Game.new(players, random.Random(rng.getrandbits(64)))
    rngs = [random.Random(rng.getrandbits(64)) for _ in range(players)]
    table = Table([HeuristicBot(r) for r in rngs], rngs)
    seat = rng.randrange(players)
    start = rng.randint(2, LATEST_START[players])
    kept: list[tuple[int, int, Action, Action | None, Table]] = []

    def legal_now(action: Action) -> bool:
        try:
            game.check(action)
        except IllegalActionError:
            return False
        return True

    def keep(blunder: Action, choice: Action | None) -> None:
        kept.append((len(game.actions), game.state.turn, blunder, choice, copy.deepcopy(table)))

    planter = Planter(table.bots[seat], kind, start, legal_now, keep)
    bots: list[Bot] = [planter if i == seat else bot for i, bot in enumerate(table.bots)]
    passed: dict[int, TradingMoment] = {}
    views = TableViews(game.state)
    with game.quiet():
        while game.state.step is not STEP_GAME_OVER:
            chosen = next_action(game.state, bots, views, passed)
            if chosen is None:
                raise RuntimeError("nobody acts while the game waits")
            game.apply_listed(*chosen)
    if not kept:
        return None
    index, turn, blunder, choice, snapshot = kept[0]
    assert game.actions[index] == blunder
    seats = tuple(SeatRecord(f"heuristic-{i + 1}", "bot", "heuristic") for i in range(players))
    record = GameRecord.of(game, seats)
    return Planted(kind_name, players, seed, seat, index, turn, blunder, choice, snapshot, record)


@dataclass(frozen=True)
class Cost:
    mean: float
    """Mean final margin after the alternative less after the blunder, in coins."""
    error: float
    coins: float
    """Mean final coins of the seat after the alternative less after the blunder."""
    deals: int


def real_cost(planted: Planted, deals: int) -> Cost:
    """The blunder's cost measured over `deals` deals of the cards its seat could not see."""
    for moment in decisions(planted.record, frozenset({planted.seat})):
        if moment.index == planted.index:
            break
    else:
        raise ValueError("the blunder is not a decision of its seat")
    seen = Observations()
    seen.coin_varieties = [list(stack) for stack in moment.coin_varieties]
    rng = random.Random(f"cost:{planted.kind}:{planted.players}:{planted.seed}")
    margins: list[float] = []
    coins: list[float] = []
    for _ in range(deals):
        deal_seed = rng.getrandbits(64)
        play_seed = rng.getrandbits(32)
        base = determinize(moment.view, seen, random.Random(deal_seed), moment.planted)
        ends = []
        for option in (planted.alternative, planted.blunder):
            state = clone(base)
            table = planted.table.reseeded(play_seed)
            ends.append(_finish(state, table.bots, planted.seat, option, play_seed))
        margins.append(ends[0][0] - ends[1][0])
        coins.append(ends[0][1] - ends[1][1])
    mean = sum(margins) / deals
    spread = sum((m - mean) ** 2 for m in margins) / max(1, deals - 1)
    return Cost(mean, math.sqrt(spread / deals), sum(coins) / deals, deals)


def _finish(
    state: GameState, bots: list[HeuristicBot], seat: int, first: Action | None, seed: int
) -> tuple[int, int]:
    """Play `first` for the seat, then the game to its end: the seat's margin and coins."""
    engine = Engine(state, RandomShuffler(random.Random(seed)), events=False)
    passed: dict[int, TradingMoment] = {}
    if first is None:
        passed[seat] = trading_moment(state, seat)
    else:
        engine.apply(first)
    views = TableViews(state)
    table: list[Bot] = list(bots)
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            break
        chosen = next_action(state, table, views, passed)
        if chosen is None:
            raise RuntimeError("nobody acts while the game waits")
        action, legal = chosen
        if is_listed(legal, action):
            engine.apply_legal(action)
        else:
            engine.apply(action)
    scores = result_of(state).scores
    best_other = max(s for i, s in enumerate(scores) if i != seat)
    return scores[seat] - best_other, scores[seat]
