"""Work too long for a chat's own thread, done in a process of its own: the expert's analysis
of a finished game (minutes of CPU), so that no table waits for it."""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from bohnanza.core.analysis import Analysis
from bohnanza.core.analysis.review import analyse_game
from bohnanza.core.record import GameRecord

_POOL: ProcessPoolExecutor | None = None


def _pool() -> ProcessPoolExecutor:
    """One worker process, started at the first analysis asked (spawned: a fork of a process
    with threads and open connections is unsafe)."""
    global _POOL
    if _POOL is None:
        _POOL = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    return _POOL


async def review_in_background(record: GameRecord) -> Analysis:
    """The analysis of every seat of a finished game, worked out in the background process."""
    return await asyncio.get_running_loop().run_in_executor(_pool(), analyse_game, record)
