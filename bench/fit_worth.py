"""Fit the expert's judgement of a table (`bohnanza.core.bots.worth`) to heuristic bots' games.

Run with `python bench/fit_worth.py [--games N] [--workers N] [--write]`. For each player count
from 2 to 7 it plays seeded games of heuristic bots, notes every seat's features
(`worth.seat_features`) at the start of about half the turns, and, once the game is over, the
coins each seat still earned. A least-squares fit per player count and number of deck passes
left gives the weights; the last fifth of the games is kept out of the fit and used to compare
how closely the predicted margin (a seat's expected coins less the best of the others) follows
the final one, for the fitted estimate and for the rule it replaced (coins, plus what each
field sells for, plus 0.6 of its next step's coins per bean still missing). `--write` rewrites
`core/bots/worth_weights.py`.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path

from bohnanza.core.bots import make_bot
from bohnanza.core.bots.asking import next_action
from bohnanza.core.bots.valuation import cards_to_next_step
from bohnanza.core.bots.worth import FEATURES, seat_features, table_counts
from bohnanza.core.game import Game
from bohnanza.core.legal import TradingMoment
from bohnanza.core.state import CARD_VARIETIES, STEP_GAME_OVER, GameState, PlayerState
from bohnanza.core.view import TableViews

PLAYER_COUNTS = range(2, 8)
HELD_OUT = 0.2
RIDGE = 1e-6
"""Added to the diagonal, so that a feature that never varies (no third field in some
player counts) leaves the equations solvable."""
WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "core" / "bots" / "worth_weights.py"


@dataclass
class Snapshot:
    """A table at the start of a turn: each seat's features and coins, and its final coins."""

    left: int
    features: list[list[float]]
    coins: list[int]
    old_worth: list[float]
    final: list[int] = field(default_factory=list)


@dataclass
class Sums:
    """The normal equations of one fit: X'X and X'y, added up row by row."""

    size: int
    xx: list[list[float]] = field(default_factory=list)
    xy: list[float] = field(default_factory=list)
    rows: int = 0

    def __post_init__(self) -> None:
        self.xx = [[0.0] * self.size for _ in range(self.size)]
        self.xy = [0.0] * self.size

    def add(self, x: list[float], y: float) -> None:
        nonzero = [(i, v) for i, v in enumerate(x) if v]
        for i, xi in nonzero:
            self.xy[i] += xi * y
            row = self.xx[i]
            for j, xj in nonzero:
                row[j] += xi * xj
        self.rows += 1

    def solve(self) -> list[float]:
        """The least-squares weights (Gaussian elimination with partial pivoting)."""
        n = self.size
        m = [[*self.xx[i], self.xy[i]] for i in range(n)]
        for i in range(n):
            m[i][i] += RIDGE * max(1, self.rows)
        for col in range(n):
            pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
            m[col], m[pivot] = m[pivot], m[col]
            for r in range(n):
                if r != col and m[r][col]:
                    k = m[r][col] / m[col][col]
                    m[r] = [a - k * b for a, b in zip(m[r], m[col], strict=True)]
        return [m[i][n] / m[i][i] for i in range(n)]


def old_worth(player: PlayerState) -> float:
    """The rule the fitted estimate replaced: coins, sale value, 0.6 of the next step."""
    worth = float(len(player.coins))
    for f in player.fields:
        if not f.cards:
            continue
        variety = CARD_VARIETIES[f.cards[0]]
        count = len(f.cards)
        now = variety.coins_for(count)
        missing = cards_to_next_step(variety, count)
        worth += now
        if missing is not None:
            worth += 0.6 * (variety.coins_for(count + missing) - now) / missing
    return worth


def snapshot(state: GameState) -> Snapshot:
    in_deck, grown = table_counts(state)
    seats = range(len(state.players))
    return Snapshot(
        max(1, state.setup.final_exhaustion - state.exhaustions),
        [seat_features(state, seat, in_deck, grown) for seat in seats],
        [len(p.coins) for p in state.players],
        [old_worth(p) for p in state.players],
    )


def play(players: int, seed: int) -> list[Snapshot]:
    """One heuristic game; snapshots of about half its turns, with the final coins."""
    rng = random.Random(seed)
    game = Game.new(players, rng)
    bots = [make_bot("heuristic", random.Random(rng.getrandbits(64))) for _ in range(players)]
    sampler = random.Random(seed ^ 0x5EED)
    state = game.state
    table = TableViews(state)
    passed: dict[int, TradingMoment] = {}
    snapshots: list[Snapshot] = []
    turn = -1
    with game.quiet():
        while state.step is not STEP_GAME_OVER:
            if state.turn != turn:
                turn = state.turn
                if sampler.random() < 0.5:
                    snapshots.append(snapshot(state))
            chosen = next_action(state, bots, table, passed)
            if chosen is None:
                raise RuntimeError(f"a {players}-player game stalled (seed {seed})")
            game.apply_listed(*chosen)
    final = [len(p.coins) for p in state.players]
    for snap in snapshots:
        snap.final = final
    return snapshots


def fit_count(job: tuple[int, int]) -> tuple[int, dict[int, Sums], list[Snapshot]]:
    """Sums of the games fitted, by passes left, and the snapshots of the games held out."""
    players, games = job
    fitted = games - int(games * HELD_OUT)
    sums: dict[int, Sums] = {}
    held: list[Snapshot] = []
    for index in range(games):
        snaps = play(players, players * 1_000_003 + index)
        if index >= fitted:
            held += snaps
            continue
        for snap in snaps:
            total = sums.setdefault(snap.left, Sums(2 * len(FEATURES)))
            for x, coins, final in zip(snap.features, snap.coins, snap.final, strict=True):
                total.add(x, final - coins)
    return players, sums, held


def correlation(pairs: list[tuple[float, float]]) -> float:
    n = len(pairs)
    ma = sum(a for a, _ in pairs) / n
    mb = sum(b for _, b in pairs) / n
    cov = sum((a - ma) * (b - mb) for a, b in pairs)
    va = sum((a - ma) ** 2 for a, _ in pairs)
    vb = sum((b - mb) ** 2 for _, b in pairs)
    return cov / math.sqrt(va * vb) if va and vb else float("nan")


def margins(values: list[float], seat: int) -> float:
    return values[seat] - max(v for i, v in enumerate(values) if i != seat)


def compare(held: list[Snapshot], weights: dict[int, list[float]]) -> tuple[float, float]:
    """How closely the predicted margins follow the final ones: fitted, and the old rule."""
    fitted, old = [], []
    for snap in held:
        w = weights[min(weights, key=lambda k: abs(k - snap.left))]
        expected = [
            c + sum(a * b for a, b in zip(w, x, strict=True))
            for c, x in zip(snap.coins, snap.features, strict=True)
        ]
        for seat in range(len(snap.coins)):
            final = margins([float(f) for f in snap.final], seat)
            fitted.append((margins(expected, seat), final))
            old.append((margins(snap.old_worth, seat), final))
    return correlation(fitted), correlation(old)


def write(weights: dict[tuple[int, int], list[float]], games: int) -> None:
    lines = [
        '"""Weights of `worth.py`, one tuple per (player count, deck passes left), in the order',
        "of `worth.FEATURES` and then the same features times the deck's size / 100. Written by",
        f"`python bench/fit_worth.py --games {games} --write`; do not edit by hand.",
        '"""',
        "",
        "# fmt: off",
        "WEIGHTS: dict[tuple[int, int], tuple[float, ...]] = {",
    ]
    for key in sorted(weights):
        values = [f"{w:.4f}" for w in weights[key]]
        lines.append(f"    {key}: (")
        for start in range(0, len(values), 8):
            lines.append("        " + ", ".join(values[start : start + 8]) + ",")
        lines.append("    ),")
    lines += ["}", "# fmt: on"]
    WEIGHTS_FILE.write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6000, help="games per player count")
    parser.add_argument("--workers", type=int, default=2, help="processes playing games")
    parser.add_argument("--write", action="store_true", help=f"rewrite {WEIGHTS_FILE.name}")
    args = parser.parse_args()
    start = time.perf_counter()
    jobs = [(players, args.games) for players in PLAYER_COUNTS]
    with Pool(args.workers) as pool:
        results = pool.map(fit_count, jobs)
    print(f"{args.games} heuristic games per player count, {HELD_OUT:.0%} held out\n")
    print("| players | turns fitted | margin correlation: fitted | old rule |")
    print("|---|---|---|---|")
    weights: dict[tuple[int, int], list[float]] = {}
    for players, sums, held in sorted(results, key=lambda r: r[0]):
        solved = {left: total.solve() for left, total in sums.items()}
        for left, w in solved.items():
            weights[(players, left)] = w
        rows = sum(total.rows for total in sums.values()) // players
        new, old = compare(held, solved)
        print(f"| {players} | {rows:,} | {new:.3f} | {old:.3f} |")
    print(f"\n{time.perf_counter() - start:.0f} s")
    if args.write:
        write(weights, args.games)
        print(f"written: {WEIGHTS_FILE}")


if __name__ == "__main__":
    main()
