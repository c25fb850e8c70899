"""`bohnanza audit DB`: re-run every stored game from its record and prove it consistent.

For each game: the hash chain, card conservation after every action, the legality of every
action, the stored reshuffles, and the stored result against the replayed one. Exit 0 only when
every game holds; otherwise exit 1 after one line per broken game naming its first bad action.
Large stores are split between processes, one per core.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress

from bohnanza.core.audit import audit_game
from bohnanza.core.ports import StoredGame, StoreError, UnknownGame, UnreadableGame

from .errors import fail, usage
from .narrate import printable
from .stores import DB_HELP, opened_store

PARALLEL_FROM = 200
"""Stores with at least this many games are audited by several processes."""


@dataclass(frozen=True)
class AuditTally:
    """What a number of audited games came to: their size, and a line per broken game."""

    games: int = 0
    actions: int = 0
    failures: tuple[str, ...] = ()

    def __add__(self, other: AuditTally) -> AuditTally:
        return AuditTally(
            self.games + other.games,
            self.actions + other.actions,
            self.failures + other.failures,
        )


def _tally(games: Iterable[StoredGame | UnreadableGame], advance: Callable[[], None]) -> AuditTally:
    count = actions = 0
    failures = []
    for stored in games:
        count += 1
        if isinstance(stored, UnreadableGame):
            failures.append(str(stored))
        else:
            actions += len(stored.links)
            failure = audit_game(stored)
            if failure is not None:
                failures.append(str(failure))
        advance()
    return AuditTally(count, actions, tuple(failures))


def audit_batch(db: str, game_ids: Sequence[str]) -> AuditTally:
    """Audit the named games of the store at `db` (run in a worker process)."""
    from bohnanza.adapters.store import open_store

    with open_store(db) as store:
        return _tally(store.stored_games(game_ids), lambda: None)


def _batches(ids: Sequence[str], workers: int) -> Iterator[Sequence[str]]:
    size = max(1, min(250, -(-len(ids) // (workers * 4))))
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def audit_store(
    db: str,
    game_ids: Sequence[str] | None,
    workers: int,
    advance: Callable[[int], None] = lambda games: None,
) -> AuditTally:
    """Audit the named games (None: all) with `workers` processes; `advance` counts progress."""
    from bohnanza.adapters.store import open_store

    if workers == 1:
        with open_store(db) as store:
            return _tally(store.stored_games(game_ids), lambda: advance(1))
    if game_ids is None:
        with open_store(db) as store:
            game_ids = [g.game_id for g in store.list_games()]
    total = AuditTally()
    with ProcessPoolExecutor(workers) as pool:
        for tally in pool.map(partial(audit_batch, db), _batches(game_ids, workers)):
            total += tally
            advance(tally.games)
    return total


def audit(
    db: Annotated[str, typer.Argument(help=DB_HELP)],
    game: Annotated[str | None, typer.Option("--game", help="Audit only this game.")] = None,
    jobs: Annotated[
        int | None, typer.Option(help="Processes to use (default: one per core on large stores).")
    ] = None,
) -> None:
    """Re-run stored games and check that every one of them is consistent."""
    if jobs is not None and not 1 <= jobs <= 64:
        usage("must be 1 to 64", "--jobs")
    with opened_store(db) as store:
        ids = [g.game_id for g in store.list_games()]
        name = store.name
    if game is not None:
        if game not in ids:
            fail(f"{name}: {UnknownGame(game)}")
        ids = [game]
    workers = jobs or (min(os.cpu_count() or 1, 8) if len(ids) >= PARALLEL_FROM else 1)
    started = time.perf_counter()
    console = Console(stderr=True)
    try:
        with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
            task = bar.add_task("auditing", total=len(ids))
            chosen = None if game is None else ids
            tally = audit_store(db, chosen, workers, lambda games: bar.advance(task, games))
    except StoreError as error:
        fail(str(error))
    elapsed = max(time.perf_counter() - started, 1e-9)
    for line in tally.failures:
        typer.echo(printable(line))  # a stored id may hold anything: shown escaped
    verdict = "all consistent" if not tally.failures else f"{len(tally.failures)} inconsistent"
    typer.echo(
        f"audited {tally.games} game(s), {tally.actions} action(s) in {elapsed:.2f} s "
        f"({tally.actions / elapsed:,.0f} actions/s): {verdict}"
    )
    if tally.failures:
        raise typer.Exit(1)
