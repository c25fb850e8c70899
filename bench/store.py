"""The game store's speed: durable appends on SQLite and PostgreSQL, and the audit.

    python bench/store.py [--games 1000] [--appends 2000] [--postgres URL] [--keep FILE]

Prints the latency of appending one action with a durable commit (p50/p99) on a SQLite file,
beside a bare stdlib `sqlite3` commit of one such row in a file of the same folder at the same
settings (journal mode, synchronous), taken in turns with the appends, and the ratio of the two;
then, when a server is given (--postgres or BOHNANZA_TEST_POSTGRES_URL), the append on
PostgreSQL; then stores GAMES bot games of 5 players in a SQLite file and audits them, in one
process and in one process per core, in actions per second. --keep FILE keeps that store and
reuses it on the next run.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import create_engine, text

from bohnanza.adapters.store import SqlGameStore, database_url, display_name, open_store
from bohnanza.cli.audit import audit_store
from bohnanza.cli.simulate import game_seed, simulate_game
from bohnanza.core.audit import action_payload, check_record, reshuffles_payload
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


class BareCommit:
    """A stdlib `sqlite3` connection that commits one action's row per transaction, at the
    store's durability settings: what a durable append cannot be faster than."""

    def __init__(self, path: Path, settings: dict[str, str]) -> None:
        self._db = sqlite3.connect(path, isolation_level=None)
        for pragma, value in settings.items():
            self._db.execute(f"PRAGMA {pragma} = {value}")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS actions (game_id TEXT, seq INTEGER, actor INTEGER, "
            "payload TEXT, reshuffles TEXT, at TEXT, hash TEXT, PRIMARY KEY (game_id, seq))"
        )

    def commit(self, game_id: str, action: StoredAction) -> float:
        """Seconds to store the action's row and commit it."""
        row = (
            game_id,
            action.seq,
            action.action.player,
            action_payload(action.action),
            reshuffles_payload(action.reshuffles),
            action.at.isoformat(),
            "0" * 64,
        )
        started = time.perf_counter()
        self._db.execute("BEGIN IMMEDIATE")
        self._db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?, ?)", row)
        self._db.execute("COMMIT")
        return time.perf_counter() - started

    def close(self) -> None:
        self._db.close()


def append_latencies(
    target: str,
    games: Iterable[GameRecord],
    appends: int,
    beside: Callable[[SqlGameStore], BareCommit] | None = None,
) -> tuple[list[float], list[float]]:
    """Seconds per durable append, one action at a time as a running game would store them;
    and, with `beside`, seconds per bare commit of the same action, taken in turns."""
    run = uuid.uuid4().hex[:8]
    samples: list[float] = []
    bare_samples: list[float] = []
    with open_store(target, create=True) as store:
        bare = beside(store) if beside is not None else None
        for number, record in enumerate(games):
            game, actions = as_stored(record, f"bench-{run}-{number}")
            store.add_game(game)
            for action in actions:
                if bare is not None:
                    bare_samples.append(bare.commit(game.game_id, action))
                started = time.perf_counter()
                store.append_action(game.game_id, action)
                samples.append(time.perf_counter() - started)
                if len(samples) >= appends:
                    break
            if len(samples) >= appends:
                break
        if bare is not None:
            bare.close()
    if target.startswith(("postgres", "sqlite:")):
        _forget_run(target, run)
    return samples, bare_samples


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
        f"append, durable commit, {label}: p50 {p50 * 1000:.3f} ms, p99 {p99 * 1000:.3f} ms "
        f"({len(samples)} appends, mean {statistics.fmean(samples) * 1000:.3f} ms)"
    )


def report_bare(settings: dict[str, str], bare: list[float], store: list[float]) -> None:
    """The bare commit's latency, and the store's append as a multiple of it."""
    shown = ", ".join(f"{pragma}={value}" for pragma, value in settings.items())
    p50, p99, mean = percentile(bare, 0.50), percentile(bare, 0.99), statistics.fmean(bare)
    print(
        f"bare sqlite3 commit of one row, same folder ({shown}): p50 {p50 * 1000:.3f} ms, "
        f"p99 {p99 * 1000:.3f} ms ({len(bare)} commits, mean {mean * 1000:.3f} ms)"
    )
    print(
        f"store append / bare commit: p50 {percentile(store, 0.50) / p50:.2f}x, "
        f"p99 {percentile(store, 0.99) / p99:.2f}x"
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
        bare_path = Path(folder) / "bare.db"
        settings: dict[str, str] = {}

        def beside(store: SqlGameStore) -> BareCommit:
            settings.update(store.sqlite_durability())
            return BareCommit(bare_path, settings)

        samples, bare = append_latencies(
            str(Path(folder) / "appends.db"), sample_games, args.appends, beside
        )
        report_appends("SQLite file (WAL, synchronous=FULL)", samples)
        report_bare(settings, bare, samples)
    if args.postgres:
        samples, _ = append_latencies(args.postgres, sample_games, args.appends)
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
