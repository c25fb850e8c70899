"""Bot strength table: one bot against a table of weaker bots, by player count.

Run with `python bench/bots.py [--games N] [--iterations N | --budget-ms MS] [--workers N]
[--lines expert,heuristic,reference]`. For 3, 4, 5 and 7 players it plays the lines asked for
(by default the first two): one expert bot against heuristic bots, one heuristic bot against
random bots, and for reference one heuristic bot against heuristic bots (what the expert gains
over a heuristic bot in its seat). The bot being measured changes seat every game (game i puts
it at seat i mod players), so no seat's advantage counts for it or against it.

Per line it prints the win rate with its 95% Wilson interval, the fair share (1 / players), and
the mean score margin: the bot's coins less the best coins among the others (positive: it won by
that much). A shared win (equal coins and equal cards in hand, ruling 5) counts as 1/k of a win
for each of the k winners. It also prints the measured bot's mean and largest time per call.

Each game's seed depends only on the player count and the game's number, so the lines of a
player count play the same deals, and any game can be played again alone.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing import Pool

from bohnanza.core.actions import Action
from bohnanza.core.bots import Bot, ExpertBot, make_bot, play_out
from bohnanza.core.bots.expert import DEFAULT_ITERATIONS
from bohnanza.core.game import Game
from bohnanza.core.legal import LegalActions
from bohnanza.core.view import PlayerView

PLAYER_COUNTS = (3, 4, 5, 7)
LINES = {
    "expert": ("expert", "heuristic"),
    "heuristic": ("heuristic", "random"),
    "reference": ("heuristic", "heuristic"),
}
"""Each line by name: (the bot measured, the strategy of every other seat). The reference line
puts a heuristic bot in the expert's seat on the same deals: what the expert gains over it."""
Z95 = 1.959964


@dataclass(frozen=True)
class Task:
    players: int
    bot: str
    others: str
    index: int
    seed: int
    iterations: int
    budget_ms: float | None


@dataclass(frozen=True)
class Outcome:
    win: float
    margin: int
    calls: int
    seconds: float
    slowest: float
    searches: int
    search_seconds: float


class Timed:
    """Wraps the measured bot and times every call, and apart the calls the expert searched."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.strategy = bot.strategy
        self.calls = 0
        self.seconds = 0.0
        self.slowest = 0.0
        self.searches = 0
        self.search_seconds = 0.0

    def choose(self, view: PlayerView, legal: LegalActions) -> Action | None:
        searched = _searches(self.bot)
        start = time.perf_counter()
        action = self.bot.choose(view, legal)
        spent = time.perf_counter() - start
        self.calls += 1
        self.seconds += spent
        self.slowest = max(self.slowest, spent)
        if _searches(self.bot) > searched:
            self.searches += 1
            self.search_seconds += spent
        return action


def _searches(bot: Bot) -> int:
    """Decisions the bot searched so far (only the expert searches)."""
    return bot.searches if isinstance(bot, ExpertBot) else 0


def game_seed(seed: int, players: int, index: int) -> int:
    return seed * 1_000_003 + players * 10_007 + index


def measured_bot(task: Task, rng: random.Random) -> Bot:
    if task.bot != "expert":
        return make_bot(task.bot, rng)
    if task.budget_ms is not None:
        return ExpertBot(
            rng, iterations=None, time_budget=task.budget_ms / 1000, clock=time.perf_counter
        )
    return ExpertBot(rng, iterations=task.iterations)


def play(task: Task) -> Outcome:
    """One game: the measured bot at seat index mod players, the others around it."""
    rng = random.Random(game_seed(task.seed, task.players, task.index))
    game = Game.new(task.players, rng)
    seat = task.index % task.players
    bots: list[Bot] = [
        make_bot(task.others, random.Random(rng.random())) for _ in range(task.players)
    ]
    timed = Timed(measured_bot(task, random.Random(rng.random())))
    bots[seat] = timed
    play_out(game, bots)
    result = game.result()
    scores = result.scores
    win = 1 / len(result.winners) if seat in result.winners else 0.0
    best_other = max(s for i, s in enumerate(scores) if i != seat)
    return Outcome(
        win,
        scores[seat] - best_other,
        timed.calls,
        timed.seconds,
        timed.slowest,
        timed.searches,
        timed.search_seconds,
    )


def wilson(wins: float, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    p = wins / games
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def tasks(args: argparse.Namespace) -> Iterator[Task]:
    for players in args.players:
        for name, (bot, others) in LINES.items():
            if name not in args.lines:
                continue
            games = args.expert_games if bot == "expert" and args.expert_games else args.games
            for index in range(games):
                yield Task(players, bot, others, index, args.seed, args.iterations, args.budget_ms)


HEADER = (
    "| players | bot vs others | games | win rate | 95% interval | fair share "
    "| mean margin | ms per call (mean / max) | ms per search |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def row(task: Task, rows: list[Outcome]) -> str:
    """One line of the table."""
    games = len(rows)
    wins = sum(r.win for r in rows)
    low, high = wilson(wins, games)
    margin = sum(r.margin for r in rows) / games
    calls = sum(r.calls for r in rows)
    per_call = 1000 * sum(r.seconds for r in rows) / max(1, calls)
    slowest = 1000 * max(r.slowest for r in rows)
    searches = sum(r.searches for r in rows)
    per_search = f"{1000 * sum(r.search_seconds for r in rows) / searches:.1f}" if searches else "-"
    return (
        f"| {task.players} | {task.bot} vs {task.others} | {games} | {wins / games:.1%} "
        f"| {low:.1%}-{high:.1%} | {1 / task.players:.1%} | {margin:+.2f} "
        f"| {per_call:.1f} / {slowest:.0f} | {per_search} |"
    )


def report(all_tasks: list[Task], outcomes: Iterator[Outcome]) -> None:
    """Print each line of the table as soon as its games are played."""
    print(HEADER, flush=True)
    line: list[Outcome] = []
    for number, (task, outcome) in enumerate(zip(all_tasks, outcomes, strict=False)):
        line.append(outcome)
        following = all_tasks[number + 1] if number + 1 < len(all_tasks) else None
        kind = (task.players, task.bot, task.others)
        if following is None or (following.players, following.bot, following.others) != kind:
            print(row(task, line), flush=True)
            line = []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per line")
    parser.add_argument(
        "--expert-games", type=int, default=0, help="games per expert line (default: --games)"
    )
    parser.add_argument(
        "--iterations", type=int, default=DEFAULT_ITERATIONS, help="the expert's deals per decision"
    )
    parser.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="search against the clock for this long per decision instead (not reproducible)",
    )
    parser.add_argument("--workers", type=int, default=1, help="processes playing games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--players",
        type=lambda text: tuple(int(p) for p in text.split(",")),
        default=PLAYER_COUNTS,
        help="player counts, comma-separated (default 3,4,5,7)",
    )
    parser.add_argument(
        "--lines",
        type=lambda text: tuple(text.split(",")),
        default=("expert", "heuristic"),
        help="which lines: expert (vs heuristic), heuristic (vs random), reference (a heuristic "
        "bot vs heuristic bots, in the measured seat on the same deals)",
    )
    args = parser.parse_args()
    unknown = set(args.lines) - set(LINES)
    if unknown:
        parser.error(f"unknown lines: {', '.join(sorted(unknown))} (known: {', '.join(LINES)})")
    all_tasks = list(tasks(args))
    start = time.perf_counter()
    search = (
        f"{args.budget_ms:.0f} ms per decision"
        if args.budget_ms is not None
        else f"{args.iterations} deals per decision"
    )
    print(f"expert search: {search}; {args.workers} worker(s); seed {args.seed}\n", flush=True)
    if args.workers > 1:
        with Pool(args.workers) as pool:
            report(all_tasks, pool.imap(play, all_tasks))
    else:
        report(all_tasks, (play(task) for task in all_tasks))
    print(f"\n{time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
