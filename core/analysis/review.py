"""The analysis of a whole game in one call, judging its decisions one after the other.

For a caller that works in a background process of its own (a chat's `analysis` request); the
CLI spreads the judging (both looks of `ranking.judge_game`) over several processes instead
(`cli/judging.py`). Both give the same
figures for the same seed.
"""

from __future__ import annotations

from ..record import GameRecord
from .judge import SearchSize
from .moments import decisions
from .ranking import judge_game
from .summary import Analysis, summarise


def analyse_game(
    record: GameRecord, seats: frozenset[int] | None = None, size: SearchSize | None = None
) -> Analysis:
    """The analysis of the given seats' decisions (all seats when None).

    Raises RecordError when the record does not replay.
    """
    search = size or SearchSize()
    return summarise(record, judge_game(list(decisions(record, seats)), search), seats)
