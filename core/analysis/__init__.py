"""The expert's look back at a finished game: what each decision cost, seat by seat.

`moments.decisions` walks a record and gathers, for each action a seat took, what that seat saw
then and the options worth comparing; `judge.judge` plays each option out on deals of the cards
that seat could not see; `summary.summarise` adds the judgements up per player and finds the
turning points (the game's costliest mistakes); `ranking.judge_game` judges again, on more
deals and rounds further, each player's costliest decisions and those that might reach them;
`review.analyse_game` does it all in one call. Each decision is judged on its own seeded
generator, so the judgements may be worked out in any order, in other processes, and always come
out the same.
"""

from .judge import DEFAULT_DEALS, MISTAKE_COINS, Judgement, SearchSize, judge
from .moments import Moment, decisions
from .ranking import in_doubt, judge_game
from .review import analyse_game
from .summary import MISTAKE_THRESHOLD, Analysis, PlayerSummary, ranked, summarise

__all__ = [
    "DEFAULT_DEALS",
    "MISTAKE_COINS",
    "MISTAKE_THRESHOLD",
    "Analysis",
    "Judgement",
    "Moment",
    "PlayerSummary",
    "SearchSize",
    "analyse_game",
    "decisions",
    "in_doubt",
    "judge",
    "judge_game",
    "ranked",
    "summarise",
]
