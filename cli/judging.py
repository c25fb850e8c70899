"""Judging a game's decisions for the CLI: in worker processes, with a progress bar on a
terminal (shared by `bohnanza analyse` and `bohnanza replay --html --analysis`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from rich.console import Console
from rich.progress import Progress

from bohnanza.core.analysis import (
    Analysis,
    Judgement,
    Moment,
    SearchSize,
    decisions,
    judge,
    summarise,
)
from bohnanza.core.errors import RecordError
from bohnanza.core.record import GameRecord

from .errors import fail

CHUNK = 8
"""Decisions sent to a worker process at a time."""


def default_workers() -> int:
    return min(os.cpu_count() or 1, 8)


def analysed(
    record: GameRecord,
    seats: frozenset[int] | None,
    size: SearchSize,
    workers: int,
    where: str,
) -> Analysis:
    """The analysis of the given seats (all when None), the progress shown on a terminal's
    stderr; a record that does not replay ends the command in one line."""
    console = Console(stderr=True)
    try:
        moments = list(decisions(record, seats))
        with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
            task = bar.add_task("analysing", total=len(moments))
            judged = judge_all(moments, size, workers, lambda n: bar.advance(task, n))
    except RecordError as error:
        fail(f"{where}: {error}")
    return summarise(record, judged, seats)


def judge_all(
    moments: Sequence[Moment],
    size: SearchSize,
    workers: int,
    advance: Callable[[int], None] = lambda n: None,
) -> list[Judgement]:
    """Every moment judged, in `workers` processes (forced ones at once, here)."""
    judged = [judge(m, size) for m in moments if m.forced]
    advance(len(judged))
    searched = [m for m in moments if not m.forced]
    if workers == 1 or len(searched) < 2 * CHUNK:
        for moment in searched:
            judged.append(judge(moment, size))
            advance(1)
        return judged
    with ProcessPoolExecutor(workers) as pool:
        for judgement in pool.map(partial(judge, size=size), searched, chunksize=CHUNK):
            judged.append(judgement)
            advance(1)
    return judged
