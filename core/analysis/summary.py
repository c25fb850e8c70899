"""Adding the judgements up: per player the decisions, mistakes and coins lost, and the game's
turning points.

A mistake is a decision that lost at least `MISTAKE_THRESHOLD` expected coins. The accuracy is
the share of a player's judged decisions (those with more than one option) where no option was
found clearly better than the one taken, in percent. A turning point is where a seat's expected
margin moved most between two of its judged decisions: what happened in between (its own move,
the others' moves, the cards drawn) won or lost it that much.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

from ..record import GameRecord
from .judge import Judgement

MISTAKE_THRESHOLD = 1.0
"""Expected coins a decision must lose to count as a mistake."""
COSTLIEST = 3
"""Decisions listed per player, those that cost most."""
TURNING_POINTS = 3


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
    accuracy: float
    """Percent of judged decisions where no option was clearly better (100 with none judged)."""
    costliest: tuple[Judgement, ...]

    @property
    def loss_per_decision(self) -> float:
        return self.expected_loss / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class TurningPoint:
    seat: int
    index: int
    """The record's action at which the new margin was measured."""
    turn: int
    before: float
    after: float

    @property
    def swing(self) -> float:
        return self.after - self.before


@dataclass(frozen=True)
class Analysis:
    players: tuple[PlayerSummary, ...]
    judgements: tuple[Judgement, ...]
    turning_points: tuple[TurningPoint, ...]
    threshold: float = MISTAKE_THRESHOLD


def summarise(
    record: GameRecord,
    judgements: Iterable[Judgement],
    seats: frozenset[int] | None = None,
    threshold: float = MISTAKE_THRESHOLD,
) -> Analysis:
    """The analysis of the given seats (all when None) from their decisions' judgements."""
    ordered = tuple(sorted(judgements, key=lambda j: (j.index, j.seat)))
    wanted = sorted(range(len(record.seats)) if seats is None else seats)
    players = []
    points: list[TurningPoint] = []
    for seat in wanted:
        own = [j for j in ordered if j.seat == seat]
        judged = [j for j in own if not j.forced]
        mistakes = sum(1 for j in judged if j.loss >= threshold)
        clean = sum(1 for j in judged if j.loss <= 0.0)
        costly = sorted((j for j in judged if j.loss > 0.0), key=lambda j: (-j.loss, j.index))
        players.append(
            PlayerSummary(
                seat=seat,
                name=record.seats[seat].name,
                decisions=len(judged),
                forced=len(own) - len(judged),
                mistakes=mistakes,
                expected_loss=sum(j.loss for j in judged),
                accuracy=100.0 * clean / len(judged) if judged else 100.0,
                costliest=tuple(costly[:COSTLIEST]),
            )
        )
        points += [
            TurningPoint(seat, now.index, now.turn, before.margin, now.margin)
            for before, now in pairwise(judged)
        ]
    points.sort(key=lambda p: (-abs(p.swing), p.index, p.seat))
    return Analysis(tuple(players), ordered, tuple(points[:TURNING_POINTS]), threshold)
