"""The game store's speed: durable appends on SQLite and PostgreSQL, and the audit.

    python bench/store.py [--games 1000] [--appends 2000] [--postgres URL] [--keep FILE]

Prints the latency of appending one action with a durable commit (p50/p99) on a SQLite file and,
when a server is given (--postgres or BOHNANZA_TEST_POSTGRES_URL), on PostgreSQL; then stores
GAMES bot games of 5 players in a SQLite file and audits them, in one process and in one process
per core, in actions per second. --keep FILE keeps that store and reuses it on the next run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import create_engine, text

from bohnanza.adapters.store import database_url, display_name, open_store
from bohnanza.cli.audit import audit_store
from bohnanza.cli.simulate import game_seed, simulate_game
from bohnanza.core.audit import check_record
from bohnanza.core.ports import NewGame, SeatIdentity, StoredAction
from bohnanza.core.record import GameRecord

PLAYERS = 5
SEED = 20240501


def bot_game(index: int) -> GameRecord:
    """One 5-player game between heuristic bots, as the simulate command plays it."""
    return simulate_game(PLAYERS, ["heuristic"], game_seed(SEED, index))


def as_stored(record: GameRecord, game_id: str) -> tuple[NewGame, list[StoredAction]]:
    now = datetime.now(UTC)
    checked = check_record(record)
    seats = tuple(SeatIdentity("bot", s.name, s.name, s.kind, s.strategy) for s in record.seats)
    actions = [
        StoredAction(seq, action, now, checked.reshuffles[seq])
        for seq, action in enumerate(record.actions)
    ]
    return NewGame(game_id, seats, record.deck, now, dict(record.options)), actions


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def append_latencies(target: str, games: Iterable[GameRecord], appends: int) -> list[float]:
    """Seconds per durable append, one action at a time as a running game would store them."""
    run = uuid.uuid4().hex[:8]
    samples: list[float] = []
    with open_store(target, create=True) as store:
        for number, record in enumerate(games):
            game, actions = as_stored(record, f"bench-{run}-{number}")
            store.add_game(game)
            for action in actions:
                started = time.perf_counter()
                store.append_action(game.game_id, action)
                samples.append(time.perf_counter() - started)
                if len(samples) >= appends:
                    break
            if len(samples) >= appends:
                break
    if target.startswith(("postgres", "sqlite:")):
        _forget_run(target, run)
    return samples


def _forget_run(target: str, run: str) -> None:
    """Remove the benchmark's games from a database that is not the benchmark's own."""
    engine = create_engine(database_url(target))
    with engine.begin() as connection:
        pattern = {"pattern": f"bench-{run}-%"}
        connection.execute(text("DELETE FROM actions WHERE game_id LIKE :pattern"), pattern)
        connection.execute(text("DELETE FROM seats WHERE game_id LIKE :pattern"), pattern)
        connection.execute(text("DELETE FROM games WHERE id LIKE :pattern"), pattern)
    engine.dispose()


def report_appends(label: str, samples: list[float]) -> None:
    p50, p99 = percentile(samples, 0.50), percentile(samples, 0.99)
    print(
        f"append, durable commit, {label}: p50 {p50 * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms "
        f"({len(samples)} appends, mean {statistics.fmean(samples) * 1000:.2f} ms)"
    )


def fill_store(path: Path, games: int) -> int:
    """Store `games` bot games (played by one process per core); return the actions stored."""
    started = time.perf_counter()
    actions = 0
    workers = len(os.sched_getaffinity(0))
    with open_store(str(path), create=True) as store, ProcessPoolExecutor(workers) as pool:
        for index, record in enumerate(pool.map(bot_game, range(games), chunksize=8)):
            game, stored = as_stored(record, f"bench-{index:05d}")
            store.add_complete_game(game, stored, record.result)
            actions += len(stored)
    elapsed = time.perf_counter() - started
    print(f"stored {games} games of {PLAYERS} players, {actions} actions, in {elapsed:.1f} s")
    return actions


def stored_count(path: Path) -> int:
    if not path.exists():
        return 0
    with open_store(str(path)) as store:
        return len(store.list_games())


def report_audit(path: Path, workers: int) -> None:
    started = time.perf_counter()
    tally = audit_store(str(path), None, workers)
    elapsed = time.perf_counter() - started
    assert not tally.failures, tally.failures[:3]
    print(
        f"audit, SQLite, {workers} process(es): {tally.games} games, {tally.actions} actions "
        f"in {elapsed:.2f} s = {tally.actions / elapsed:,.0f} actions/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games to audit")
    parser.add_argument("--appends", type=int, default=2000, help="appends to time per database")
    parser.add_argument("--postgres", default=os.environ.get("BOHNANZA_TEST_POSTGRES_URL"))
    parser.add_argument("--keep", type=Path, help="keep the audited store here, and reuse it")
    args = parser.parse_args()

    print(f"machine: {len(os.sched_getaffinity(0))} core(s)")
    sample_games = [bot_game(i) for i in range(-(-args.appends // 400) + 1)]
    with tempfile.TemporaryDirectory(prefix="bohnanza-bench-") as folder:
        samples = append_latencies(str(Path(folder) / "appends.db"), sample_games, args.appends)
        report_appends("SQLite file (WAL, synchronous=FULL)", samples)
    if args.postgres:
        samples = append_latencies(args.postgres, sample_games, args.appends)
        report_appends(f"PostgreSQL ({display_name(args.postgres)})", samples)
    else:
        print("append on PostgreSQL: skipped (no server: give --postgres URL)")

    with tempfile.TemporaryDirectory(prefix="bohnanza-bench-") as folder:
        path = args.keep or Path(folder) / "audit.db"
        if stored_count(path) != args.games:
            path.unlink(missing_ok=True)
            fill_store(path, args.games)
        report_audit(path, 1)
        report_audit(path, len(os.sched_getaffinity(0)))


if __name__ == "__main__":
    main()
