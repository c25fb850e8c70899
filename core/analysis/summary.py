"""Adding the judgements up: per player the decisions, mistakes and coins lost, and the game's
turning points.

A mistake is a decision whose best other option was surely better (by the search's confidence)
and by at least `MISTAKE_COINS` (`Judgement.mistake`). A player's expected loss is the sum of his
decisions' losses, and his loss per decision the measure of his play: it does not depend on how
long the game was or how many decisions he had to take. The turning points are the game's
costliest mistakes, the decisions that moved its result most.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..record import GameRecord
from .judge import MISTAKE_COINS, Judgement

MISTAKE_THRESHOLD = MISTAKE_COINS
"""Expected coins a decision must surely lose to count as a mistake."""
COSTLIEST = 3
"""Decisions listed per player, those that cost most."""
TURNING_POINTS = 3
REFERENCE_LOSS = {"expert": 0.03, "heuristic": 0.17, "random": 0.32}
"""Expected coins lost a decision by each bot, measured as docs/analysis.md says: what a
player's loss per decision may be read against."""


@dataclass(frozen=True)
class PlayerSummary:
    seat: int
    name: str
    decisions: int
    """Decisions judged: those with more than one option."""
    forced: int
    """Decisions with a single option, not judged."""
    mistakes: int
    expected_loss: float
    costliest: tuple[Judgement, ...]
    score: int | None = None
    """Coins at the end of the game (None for a game not ended)."""

    @property
    def loss_per_decision(self) -> float:
        return self.expected_loss / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class Analysis:
    players: tuple[PlayerSummary, ...]
    judgements: tuple[Judgement, ...]
    turning_points: tuple[Judgement, ...]
    """The costliest mistakes of the game, costliest first."""
    threshold: float = MISTAKE_THRESHOLD


def ranked(judgements: Iterable[Judgement]) -> list[Judgement]:
    """The decisions that lost coins, costliest first (the earlier of two equal)."""
    return sorted((j for j in judgements if j.loss > 0.0), key=lambda j: (-j.loss, j.index))


def summarise(
    record: GameRecord,
    judgements: Iterable[Judgement],
    seats: frozenset[int] | None = None,
) -> Analysis:
    """The analysis of the given seats (all when None) from their decisions' judgements."""
    ordered = tuple(sorted(judgements, key=lambda j: (j.index, j.seat)))
    wanted = sorted(range(len(record.seats)) if seats is None else seats)
    scores = record.result.scores if record.result is not None else None
    players = []
    for seat in wanted:
        own = [j for j in ordered if j.seat == seat]
        judged = [j for j in own if not j.forced]
        players.append(
            PlayerSummary(
                seat=seat,
                name=record.seats[seat].name,
                decisions=len(judged),
                forced=len(own) - len(judged),
                mistakes=sum(1 for j in judged if j.mistake),
                expected_loss=sum(j.loss for j in judged),
                costliest=tuple(ranked(judged)[:COSTLIEST]),
                score=scores[seat] if scores is not None else None,
            )
        )
    points = [j for j in ranked(ordered) if j.mistake][:TURNING_POINTS]
    return Analysis(tuple(players), ordered, tuple(points))
