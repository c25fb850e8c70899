"""Machine-readable forms of views, results and game summaries, for `--json` output."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bohnanza.core.cards import Variety
from bohnanza.core.ports import GameSummary
from bohnanza.core.scoring import GameResult
from bohnanza.core.view import PlayerView


def _codes(kinds: Sequence[Variety]) -> list[str]:
    return [v.value for v in kinds]


def view_json(view: PlayerView, names: Sequence[str]) -> dict[str, Any]:
    """One player's view (or a spectator's) as JSON: never more than that player may see."""
    out: dict[str, Any] = {
        "seat": view.seat,
        "turn": view.turn,
        "active": view.active,
        "step": view.step.value,
        "deck_size": view.deck_size,
        "discard": _codes(view.discard),
        "exhaustions": view.exhaustions,
        "final_exhaustion": view.final_exhaustion,
        "face_up": _codes(view.face_up),
        "offered": _codes(view.offered),
        "seats": [
            {
                "seat": s.seat,
                "name": names[s.seat],
                "fields": [
                    {"variety": f.variety.value if f.variety else None, "count": f.count}
                    for f in s.fields
                ],
                "coins": s.coins,
                "hand_size": s.hand_size,
                "set_aside": _codes(s.set_aside),
            }
            for s in view.seats
        ],
        "offers": [
            {
                "id": o.id,
                "proposer": o.proposer,
                "receiver": o.receiver,
                "give": _codes(o.give),
                "want": _codes(o.want),
                "stale": o.stale,
            }
            for o in view.offers
        ],
    }
    if view.seat is not None:
        out["hand"] = _codes(view.hand)
    return out


def result_json(result: GameResult | None) -> dict[str, Any] | None:
    """A result as JSON, or None."""
    if result is None:
        return None
    return {
        "scores": list(result.scores),
        "hand_sizes": list(result.hand_sizes),
        "winners": list(result.winners),
    }


def winners_of(summary: GameSummary) -> tuple[str, int | None]:
    """The winners' names and the winning score ('' and None while the game runs)."""
    result = summary.result
    if result is None:
        return "", None
    names = [
        summary.players[w] if w < len(summary.players) else f"seat {w + 1}" for w in result.winners
    ]
    return " & ".join(names), max(result.scores)


def summary_json(summary: GameSummary, altered: str | None = None) -> dict[str, Any]:
    """One game of a listing as JSON; `altered` says why it is not to be believed, if so."""
    from bohnanza.adapters.store import UNKNOWN_TIME

    winner, score = winners_of(summary)
    known_time = summary.created_at != UNKNOWN_TIME
    return {
        "game_id": summary.game_id,
        "players": list(summary.players),
        "status": summary.status,
        "created_at": summary.created_at.isoformat() if known_time else None,
        "actions": summary.actions,
        "winner": winner or None,
        "score": score,
        "result": result_json(summary.result),
        "altered": altered,
    }
