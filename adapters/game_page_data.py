"""What a game page holds: every moment of a game as one viewer saw it, as JSON-ready values.

A moment is made from the engine's own view (`Game.view`) of one seat, or of a spectator, after the
opening deal and after each action, and from the events of that action told as that viewer saw
them. Nothing else of the game is read: the page holds no other hand, no order of the deck and no
card id, only varieties (by their index in `VARIETIES`) and counts.

A moment (`steps[i]`, after `i` actions) has these keys:

    p   the seat that acted (-1 for the deal)      t, a, s   turn, active seat, step code
    d, x, top, e   deck size, discard pile size, its top variety (-1: none), exhaustions
    fu, of   the face-up and the offered varieties   ev   the event lines (absent: none)
    S   per seat [coins, hand size, fields as [variety (-1: empty), count], set-aside varieties],
        or 0 where the seat is as in the moment before (most actions change one or two seats)
    o   the open offers as lines (absent: none)      ft   1 on the last turn (absent otherwise)
    h   the viewer's hand, front first (only in a player's page)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.render import offer_line
from bohnanza.core.cards import VARIETIES, Variety
from bohnanza.core.record import GameRecord, replay_steps
from bohnanza.core.view import PlayerView, SeatView

from .game_page_words import event_lines, labels, result_lines

_INDEX: dict[Variety, int] = {variety: i for i, variety in enumerate(VARIETIES)}


@dataclass(frozen=True)
class PageData:
    """The page's embedded data, and the coins of every seat at the end of each turn."""

    data: dict[str, Any]
    coins_by_turn: tuple[tuple[int, tuple[int, ...]], ...]
    """(turn, each seat's coins) for every turn, in order."""


def _codes(varieties: Sequence[Variety]) -> list[int]:
    return [_INDEX[variety] for variety in varieties]


def _seat(seat: SeatView) -> list[Any]:
    fields = [[-1 if f.variety is None else _INDEX[f.variety], f.count] for f in seat.fields]
    return [seat.coins, seat.hand_size, fields, _codes(seat.set_aside)]


def _moment(view: PlayerView, names: Sequence[str], tr: Translator) -> dict[str, Any]:
    step: dict[str, Any] = {
        "t": view.turn,
        "a": view.active,
        "s": view.step.value,
        "d": view.deck_size,
        "x": len(view.discard),
        "top": _INDEX[view.discard[-1]] if view.discard else -1,
        "e": view.exhaustions,
        "fu": _codes(view.face_up),
        "of": _codes(view.offered),
        "S": [_seat(seat) for seat in view.seats],
    }
    if view.offers:
        step["o"] = [offer_line(tr, offer, names) for offer in view.offers]
    if view.final_turn and not view.is_over:
        step["ft"] = 1
    if view.seat is not None:
        step["h"] = _codes(view.hand)
    return step


def page_data(record: GameRecord, tr: Translator, seat: int | None) -> PageData:
    """Every moment of the recorded game as the player at `seat` (None: a spectator) saw it.

    Raises RecordError, as replaying does, if an action of the record is not legal."""
    names = [s.name for s in record.seats]
    game_id = record.game_id or ""
    steps: list[dict[str, Any]] = []
    coins: dict[int, tuple[int, ...]] = {}
    most_coins = most_cards = 0
    view: PlayerView | None = None
    before: list[Any] = []
    for game, _index, action, events in replay_steps(record):
        view = game.view(seat)
        step = _moment(view, names, tr)
        lines = [line for event in events for line in event_lines(tr, event, names, seat)]
        step["p"] = -1 if action is None else action.player
        if lines:
            step["ev"] = lines
        seats = step["S"]
        step["S"] = [0 if i < len(before) and s == before[i] else s for i, s in enumerate(seats)]
        before = seats
        steps.append(step)
        coins[view.turn] = tuple(s.coins for s in view.seats)
        most_coins = max(most_coins, *(s.coins for s in view.seats))
        most_cards = max(most_cards, *(s.hand_size for s in view.seats))
    assert view is not None
    data: dict[str, Any] = {
        "game": game_id,
        "names": names,
        "viewer": seat,
        "final": view.final_exhaustion,
        "labels": labels(tr, most_coins, most_cards),
        "steps": steps,
        "result": result_lines(tr, game_id, view, names) if view.is_over else None,
    }
    return PageData(data, tuple(sorted(coins.items())))
