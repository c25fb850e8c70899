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
    SearchSize,
    decisions,
    judge_game,
    summarise,
)
from bohnanza.core.analysis.ranking import Task, do
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

            def judge_many(tasks: Sequence[Task], on: SearchSize) -> list[Judgement]:
                if tasks and tasks[0][1] is not None:  # the second look: as many more to go
                    bar.update(task, total=len(moments) + len(tasks))
                return judge_all(tasks, on, workers, lambda n: bar.advance(task, n))

            judged = judge_game(moments, size, judge_many)
    except RecordError as error:
        fail(f"{where}: {error}")
    return summarise(record, judged, seats)


def judge_all(
    tasks: Sequence[Task],
    size: SearchSize,
    workers: int,
    advance: Callable[[int], None] = lambda n: None,
) -> list[Judgement]:
    """Every task done (`ranking.do`: a moment judged, or looked at again), in `workers`
    processes (forced moments at once, here), in the order of `tasks`."""
    done: dict[int, Judgement] = {}
    searched = []
    for index, (moment, first) in enumerate(tasks):
        if moment.forced:
            done[index] = do((moment, first), size)
        else:
            searched.append(index)
    advance(len(done))
    if workers == 1 or len(searched) < 2 * CHUNK:
        for index in searched:
            done[index] = do(tasks[index], size)
            advance(1)
    else:
        with ProcessPoolExecutor(workers) as pool:
            work = [tasks[i] for i in searched]
            judged = pool.map(partial(do, size=size), work, chunksize=CHUNK)
            for index, judgement in zip(searched, judged, strict=True):
                done[index] = judgement
                advance(1)
    return [done[i] for i in range(len(tasks))]
