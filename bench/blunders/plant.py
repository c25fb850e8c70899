"""Make the planted-blunder set: games of heuristic bots, one blunder planted in each, and what
each blunder really cost.

Run with `python bench/blunders/plant.py [--per-kind N] [--deals D] [--players 3,4,5]`. For
each kind of blunder (`blunder_kinds.py`) and player count it plays games until N of them hold
a blunder of that kind (a game whose blunderer meets no fitting decision is skipped), and
measures each blunder's real cost over D deals of the cards its seat could not see, every deal
played to the game's end (`blunder_games.py`). It writes `set.json` (the blunders, their costs
and the command) and `records.jsonl.gz` (each game's record) beside itself; `check.py` then
measures the analysis against them. Everything depends on the seeds only: the same command
makes the same set.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from pathlib import Path

from blunder_games import Planted, plant, real_cost
from blunder_kinds import KINDS

from bohnanza.core.actions import action_to_json
from bohnanza.core.notation import action_text

HERE = Path(__file__).resolve().parent
SET = HERE / "set.json"
RECORDS = HERE / "records.jsonl.gz"
MAX_SEEDS = 200
"""Games tried per kind and player count before giving up on finding N blunders."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=6, help="blunders per kind and count")
    parser.add_argument("--deals", type=int, default=400, help="deals per blunder's real cost")
    parser.add_argument(
        "--players",
        type=lambda text: tuple(int(p) for p in text.split(",")),
        default=(3, 4, 5),
        help="player counts, comma-separated (default 3,4,5)",
    )
    parser.add_argument(
        "--kinds",
        type=lambda text: tuple(text.split(",")),
        default=tuple(KINDS),
        help=f"kinds of blunder, comma-separated (default {','.join(KINDS)})",
    )
    args = parser.parse_args()
    unknown = set(args.kinds) - set(KINDS)
    if unknown:
        parser.error(f"unknown kinds: {', '.join(sorted(unknown))} (known: {', '.join(KINDS)})")
    start = time.perf_counter()
    entries = []
    records = []
    for name in args.kinds:
        for players in args.players:
            found = 0
            for seed in range(MAX_SEEDS):
                if found == args.per_kind:
                    break
                planted = plant(name, KINDS[name], players, seed)
                if planted is None:
                    continue
                found += 1
                entry = _entry(planted, args.deals)
                entries.append(entry)
                records.append({"id": entry["id"], "record": planted.record.to_json()})
                print(
                    f"{entry['id']}: turn {entry['turn']}, {entry['blunder']} instead of "
                    f"{entry['alternative']}: {entry['real_cost']:+.2f} ± {entry['error']:.2f}",
                    flush=True,
                )
    command = (
        f"python bench/blunders/plant.py --per-kind {args.per_kind} --deals {args.deals} "
        f"--players {','.join(map(str, args.players))}"
    )
    SET.write_text(
        json.dumps({"command": command, "deals": args.deals, "blunders": entries}, indent=1) + "\n"
    )
    with gzip.open(RECORDS, "wt", encoding="utf-8") as out:
        for line in records:
            out.write(json.dumps(line, separators=(",", ":")) + "\n")
    print(f"{len(entries)} blunders in {time.perf_counter() - start:.0f} s: {SET}")


def _entry(planted: Planted, deals: int) -> dict[str, object]:
    cost = real_cost(planted, deals)
    alternative = planted.alternative
    return {
        "id": f"{planted.kind}-{planted.players}p-{planted.seed}",
        "kind": planted.kind,
        "players": planted.players,
        "seed": planted.seed,
        "seat": planted.seat,
        "action": planted.index,
        "turn": planted.turn,
        "blunder": action_text(planted.blunder),
        "blunder_json": action_to_json(planted.blunder),
        "alternative": "pass" if alternative is None else action_text(alternative),
        "real_cost": round(cost.mean, 3),
        "error": round(cost.error, 3),
        "coins_cost": round(cost.coins, 3),
    }


if __name__ == "__main__":
    main()
