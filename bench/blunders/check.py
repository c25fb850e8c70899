"""Measure the analysis against the planted-blunder set: does it find the blunders that cost,
and do its figures match what they cost?

Run with `python bench/blunders/check.py [--deals D] [--seed S] [--kinds K,...] [--players P,...]
[--sample N] [--costly] [--limit N] [--out FILE] [--first-look] [--jobs J]`. `--sample N` keeps,
for a shorter run, the first N blunders of each kind and player count and every blunder that
cost 1.5 coins or more; `--costly` keeps only those; `--first-look` judges each decision once,
without the second look; `--jobs J` analyses J games at a time in as many processes (the figures
are the same).

Each game of the set (`set.json`, `records.jsonl.gz`, made by
`plant.py`) is analysed for its blundering seat alone, as `bohnanza analyse --as` does it, one
game after another in each process, with the second look at the decisions in doubt
(`core/analysis/ranking.py`). It prints a line per blunder (its real cost and the
analysis' figure, whether it was called a mistake and where it stands among its player's
decisions), then:

- of the blunders that really cost 1.5 coins or more, the share called mistakes, the share among
  their player's three costliest decisions, and the share that is the costliest;
- the declined free gifts called mistakes, and of them those that cost the mistake line or more;
- the mean figure against the mean real cost over every blunder, and their correlation;
- the other decisions of the blunderers called mistakes (median per blunderer);
- the processor time per game (of every process).
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import Any

from bohnanza.core.analysis import (
    DEFAULT_DEALS,
    MISTAKE_COINS,
    SearchSize,
    decisions,
    judge,
    judge_game,
    summarise,
)
from bohnanza.core.record import GameRecord

HERE = Path(__file__).resolve().parent
COSTLY = 1.5
"""Real cost, in coins, from which a blunder must be found."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS, help="deals per decision")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the search")
    parser.add_argument("--kinds", type=lambda t: set(t.split(",")), default=None)
    parser.add_argument("--players", type=lambda t: {int(p) for p in t.split(",")}, default=None)
    parser.add_argument(
        "--sample",
        type=int,
        default=0,
        help=f"the first N of each kind and player count, and every one costing {COSTLY}+",
    )
    parser.add_argument(
        "--costly", action="store_true", help=f"only the blunders costing {COSTLY}+"
    )
    parser.add_argument("--limit", type=int, default=0, help="at most this many blunders")
    parser.add_argument("--out", type=Path, default=None, help="write each result as JSON")
    parser.add_argument(
        "--first-look", action="store_true", help="the first judgement alone, no second look"
    )
    parser.add_argument("--jobs", type=int, default=1, help="games analysed at a time")
    args = parser.parse_args()
    blunders = json.loads((HERE / "set.json").read_text())["blunders"]
    records = {}
    with gzip.open(HERE / "records.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            item = json.loads(line)
            records[item["id"]] = GameRecord.from_json(item["record"])
    chosen = [
        b
        for b in blunders
        if (args.kinds is None or b["kind"] in args.kinds)
        and (args.players is None or b["players"] in args.players)
        and (not args.costly or float(b["real_cost"]) >= COSTLY)
    ]
    if args.sample:
        chosen = _sample(chosen, args.sample)
    if args.limit:
        chosen = chosen[: args.limit]
    size = SearchSize(seed=args.seed, deals=args.deals)
    results = []
    work = [(blunder, records[blunder["id"]]) for blunder in chosen]
    check = partial(_timed_check, size=size, first_look=args.first_look)
    with ProcessPoolExecutor(max(1, args.jobs)) if args.jobs > 1 else nullcontext() as pool:
        for result in pool.map(check, work) if pool is not None else map(check, work):
            _print(result)
            results.append(result)
    seconds = sum(float(r["seconds"]) for r in results)  # type: ignore[arg-type]
    if args.out is not None:
        args.out.write_text(json.dumps(results, indent=1) + "\n")
    _report(results, seconds)


def _timed_check(
    work: tuple[dict[str, object], GameRecord], size: SearchSize, first_look: bool
) -> dict[str, object]:
    start = time.process_time()
    result = _check(*work, size, first_look)
    return {**result, "seconds": time.process_time() - start}


def _print(result: dict[str, object]) -> None:
    print(
        f"{result['id']}: real {result['real_cost']:+.2f} ± {result['error']:.2f}, "
        f"figure {result['figure']:.2f} ± {result['figure_error']:.2f}"
        f"{' mistake' if result['mistake'] else ''}, rank {result['rank']}"
        f" of {result['decisions']}, better {result['better']}",
        flush=True,
    )


def _sample(blunders: list[dict[str, Any]], per_group: int) -> list[dict[str, Any]]:
    """The first `per_group` blunders of each kind and player count, and the costly ones."""
    taken: dict[tuple[object, object], int] = {}
    kept = []
    for blunder in blunders:
        group = (blunder["kind"], blunder["players"])
        taken[group] = taken.get(group, 0) + 1
        if taken[group] <= per_group or float(blunder["real_cost"]) >= COSTLY:
            kept.append(blunder)
    return kept


def _check(
    blunder: dict[str, object], record: GameRecord, size: SearchSize, first_look: bool
) -> dict[str, object]:
    seat = blunder["seat"]
    assert isinstance(seat, int)
    seats = frozenset({seat})
    moments = list(decisions(record, seats))
    judgements = [judge(m, size) for m in moments] if first_look else judge_game(moments, size)
    analysis = summarise(record, judgements, seats)
    player = analysis.players[0]
    mine = next(j for j in analysis.judgements if j.index == blunder["action"])
    ranked = sorted(
        (j for j in analysis.judgements if j.loss > 0), key=lambda j: (-j.loss, j.index)
    )
    rank = next((i + 1 for i, j in enumerate(ranked) if j.index == mine.index), 0)
    mistakes = [
        j for j in analysis.judgements if getattr(j, "mistake", j.loss >= analysis.threshold)
    ]
    return {
        **blunder,
        "figure": mine.loss,
        "figure_error": getattr(mine, "error", 0.0),
        "mistake": getattr(mine, "mistake", mine.loss >= analysis.threshold),
        "deals": getattr(mine, "deals", 0),
        "rank": rank,
        "costliest": mine.index in {j.index for j in player.costliest},
        "decisions": player.decisions,
        "other_mistakes": sum(1 for j in mistakes if j.index != mine.index),
        "better": str(mine.best),
    }


def _report(results: list[dict[str, object]], seconds: float) -> None:
    def share(part: int, whole: int) -> str:
        return f"{part} of {whole} ({100 * part / whole:.0f}%)" if whole else "none"

    costly = [r for r in results if float(r["real_cost"]) >= COSTLY]  # type: ignore[arg-type]
    called = sum(1 for r in costly if r["mistake"])
    top3 = sum(1 for r in costly if r["costliest"])
    first = sum(1 for r in costly if r["rank"] == 1)
    gifts = [r for r in results if r["kind"] == "decline-gift"]
    gifts_called = sum(1 for r in gifts if r["mistake"])
    costly_gifts = [r for r in gifts if float(r["real_cost"]) >= MISTAKE_COINS]  # type: ignore[arg-type]
    costly_gifts_called = sum(1 for r in costly_gifts if r["mistake"])
    real = [float(r["real_cost"]) for r in results]  # type: ignore[arg-type]
    figures = [float(r["figure"]) for r in results]  # type: ignore[arg-type]
    print()
    print(f"blunders: {len(results)}; real cost >= {COSTLY}: {len(costly)}")
    print(f"  called mistakes: {share(called, len(costly))}")
    print(f"  among the player's three costliest: {share(top3, len(costly))}")
    print(f"  the player's costliest: {share(first, len(costly))}")
    print(f"declined free gifts called mistakes: {share(gifts_called, len(gifts))}")
    print(f"  of those costing {MISTAKE_COINS}+: {share(costly_gifts_called, len(costly_gifts))}")
    all_called = sum(1 for r in results if r["mistake"])
    print(f"every blunder called a mistake: {share(all_called, len(results))}")
    if results:
        mean_real, mean_figure = statistics.fmean(real), statistics.fmean(figures)
        print(
            f"mean figure {mean_figure:.2f} against mean real cost {mean_real:.2f} "
            f"({100 * (mean_figure / mean_real - 1):+.0f}%)"
        )
        if len(results) > 2:
            print(
                f"correlation of figure and real cost: {statistics.correlation(real, figures):.2f}"
            )
        others = [int(r["other_mistakes"]) for r in results]  # type: ignore[call-overload]
        print(f"other mistakes per blunderer: median {statistics.median(others):.0f}")
        kinds = sorted({str(r["kind"]) for r in results})
        for kind in kinds:
            rows = [r for r in results if r["kind"] == kind]
            print(
                f"  {kind}: {len(rows)}, mean real "
                f"{statistics.fmean(float(r['real_cost']) for r in rows):.2f}, "  # type: ignore[arg-type]
                f"mean figure {statistics.fmean(float(r['figure']) for r in rows):.2f}, "  # type: ignore[arg-type]
                f"called {sum(1 for r in rows if r['mistake'])}"
            )
        print(f"processor time: {seconds / len(results):.1f} s per game (one seat)")


if __name__ == "__main__":
    main()
