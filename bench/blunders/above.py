"""What the decisions the analysis ranks above a planted blunder really cost, measured by whole
games as the blunders are: is the analysis wrong to rank them higher, or are they costlier?

Run with `python bench/blunders/above.py BLUNDER-ID ... [--deals D] [--most N] [--jobs J]`.
Each blunder's game (`set.json`, `records.jsonl.gz`) is analysed for its blundering seat as
`check.py` does it (the default search and its second look). Then each of the seat's decisions
ranked above the blunder (at most `--most`), and the blunder, is measured as `plant.py`
measures a blunder: the cards the seat could not see are dealt again `D` times, and on each deal
the game is played to its end twice by heuristic bots with the same dice, once after the
decision as taken and once after the option the analysis found better; the real cost is the
mean difference of the seat's final margin. The table's bots are new at each decision (the set
keeps their memory at the blunder only), so the blunder's own cost here may differ a little
from the set's. It prints, per decision, the analysis' figure and the real cost, each with its
standard error.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

from blunder_games import Planted, Table, real_cost

from bohnanza.core.analysis import SearchSize, decisions, judge_game
from bohnanza.core.bots.heuristic import HeuristicBot
from bohnanza.core.notation import action_text
from bohnanza.core.record import GameRecord

HERE = Path(__file__).resolve().parent


class NewTable(Table):
    """Heuristic bots that remember nothing yet, drawing from generators of the given seed."""

    def reseeded(self, seed: int) -> Table:
        rngs = [random.Random(seed * 10 + seat) for seat in range(len(self.rngs))]
        return Table([HeuristicBot(rng) for rng in rngs], rngs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("blunders", nargs="+", help="ids of blunders of set.json")
    parser.add_argument("--deals", type=int, default=100, help="deals per real cost")
    parser.add_argument("--most", type=int, default=6, help="decisions above a blunder, at most")
    parser.add_argument("--jobs", type=int, default=1, help="games measured at a time")
    args = parser.parse_args()
    known = {b["id"]: b for b in json.loads((HERE / "set.json").read_text())["blunders"]}
    unknown = [b for b in args.blunders if b not in known]
    if unknown:
        parser.error(f"not in set.json: {', '.join(unknown)}")
    records = {}
    with gzip.open(HERE / "records.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            item = json.loads(line)
            if item["id"] in args.blunders:
                records[item["id"]] = item["record"]
    work = [(known[b], records[b]) for b in args.blunders]
    measure = partial(_measure, deals=args.deals, most=args.most)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for lines in pool.map(measure, work):
                print("\n".join(lines), flush=True)
    else:
        for lines in map(measure, work):
            print("\n".join(lines), flush=True)


def _measure(work: tuple[dict[str, object], dict[str, object]], deals: int, most: int) -> list[str]:
    blunder, data = work
    record = GameRecord.from_json(data)
    seat = int(blunder["seat"])  # type: ignore[call-overload]
    moments = list(decisions(record, frozenset({seat})))
    judgements = judge_game(moments, SearchSize())
    ranked = sorted((j for j in judgements if j.loss > 0), key=lambda j: (-j.loss, j.index))
    rank = next((i for i, j in enumerate(ranked) if j.index == blunder["action"]), None)
    above = ranked[: most if rank is None else min(rank, most)]
    if rank is not None:
        above.append(ranked[rank])
    lines = [
        f"{blunder['id']}: real cost {float(blunder['real_cost']):.2f} ± "  # type: ignore[arg-type]
        f"{float(blunder['error']):.2f} in set.json, rank "  # type: ignore[arg-type]
        f"{'none' if rank is None else rank + 1}"
    ]
    players = len(record.seats)
    for judgement in above:
        rngs = [random.Random(seat) for seat in range(players)]
        table = NewTable([HeuristicBot(rng) for rng in rngs], rngs)
        decision = Planted(
            "above", players, judgement.index, seat, judgement.index, judgement.turn,
            judgement.chosen, judgement.best, table, record,
        )  # fmt: skip
        cost = real_cost(decision, deals)
        mark = "*" if judgement.index == blunder["action"] else " "
        better = "pass" if judgement.best is None else action_text(judgement.best)
        chosen = "pass" if judgement.chosen is None else action_text(judgement.chosen)
        lines.append(
            f" {mark} action {judgement.index}, turn {judgement.turn}, {judgement.step}: "
            f"{chosen}, better {better}: figure {judgement.loss:.2f} ± {judgement.error:.2f}, "
            f"real {cost.mean:.2f} ± {cost.error:.2f}"
        )
    return lines


if __name__ == "__main__":
    main()
