"""The portable game record: a versioned JSON document that replays a game exactly.

See docs/game-record.md. Reading a record checks its shape; `replay` checks every action against
the rules and names the first one that is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, ActionFormatError, action_from_json, action_to_json
from .cards import CARD_COUNT, Card
from .errors import IllegalActionError, RecordError
from .events import Event
from .game import Game
from .scoring import GameResult
from .table_setup import MAX_PLAYERS, MIN_PLAYERS

RECORD_FORMAT = "bohnanza-game-record"
RECORD_VERSION = 1
SEAT_KINDS = ("human", "bot")
_MAX_ACTIONS = 1_000_000
_MAX_TEXT = 200


@dataclass(frozen=True)
class SeatRecord:
    """Who sat at a seat: a display name, human or bot, and for a bot its strategy."""

    name: str
    kind: str = "human"
    strategy: str | None = None


@dataclass(frozen=True)
class GameRecord:
    """Seating, options, every chance outcome and every action, in order."""

    seats: tuple[SeatRecord, ...]
    deck: tuple[Card, ...]
    """The shuffled deck before the deal, top card first."""
    reshuffles: tuple[tuple[Card, ...], ...] = ()
    """Each reshuffle's new deck, top card first, in the order they happened."""
    actions: tuple[Action, ...] = ()
    options: Mapping[str, str | int] = field(default_factory=dict)
    game_id: str | None = None
    result: GameResult | None = None
    """The final scores and winners, when the game has ended."""

    @classmethod
    def of(
        cls,
        game: Game,
        seats: tuple[SeatRecord, ...],
        options: Mapping[str, str | int] | None = None,
        game_id: str | None = None,
    ) -> GameRecord:
        """The record of a game so far."""
        if len(seats) != game.players:
            raise ValueError("one seat record per player")
        return cls(
            seats=seats,
            deck=game.initial_deck,
            reshuffles=tuple(tuple(order) for order in game.reshuffles),
            actions=tuple(game.actions),
            options=dict(options or {}),
            game_id=game_id,
            result=game.result() if game.is_over else None,
        )

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object."""
        out: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game_id": self.game_id,
            "seats": [_seat_json(s) for s in self.seats],
            "options": dict(self.options),
            "deck": list(self.deck),
            "reshuffles": [list(order) for order in self.reshuffles],
            "actions": [action_to_json(a) for a in self.actions],
        }
        if self.result is not None:
            out["result"] = {
                "scores": list(self.result.scores),
                "hand_sizes": list(self.result.hand_sizes),
                "winners": list(self.result.winners),
            }
        return out

    def dumps(self) -> str:
        """The record as JSON text, one action per line for readable diffs."""
        data = self.to_json()
        actions = data.pop("actions")
        head = json.dumps(data, ensure_ascii=False)[:-1]
        lines = ",\n  ".join(json.dumps(a, separators=(", ", ": ")) for a in actions)
        return f'{head}, "actions": [\n  {lines}\n]}}\n' if actions else head + ', "actions": []}\n'

    @classmethod
    def from_json(cls, data: object) -> GameRecord:
        """Read a record, refusing any shape other than the documented one."""
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"not a game record (format must be {RECORD_FORMAT!r})")
        version = data.get("version")
        if version != RECORD_VERSION:
            raise RecordError(
                f"unsupported record version {version!r} (this reads {RECORD_VERSION})"
            )
        known = {
            "format",
            "version",
            "game_id",
            "seats",
            "options",
            "deck",
            "reshuffles",
            "actions",
            "result",
        }
        extra = set(data) - known
        if extra:
            raise RecordError(f"unexpected keys {sorted(extra)}")
        seats = _seats(data.get("seats"))
        game_id = data.get("game_id")
        if game_id is not None and not _short_text(game_id):
            raise RecordError("'game_id' must be a short string or null")
        actions_raw = data.get("actions")
        if not isinstance(actions_raw, list) or len(actions_raw) > _MAX_ACTIONS:
            raise RecordError("'actions' must be a list")
        actions = []
        for index, raw in enumerate(actions_raw):
            try:
                actions.append(action_from_json(raw))
            except ActionFormatError as error:
                raise RecordError(str(error), index) from None
        reshuffles = data.get("reshuffles", [])
        if not isinstance(reshuffles, list):
            raise RecordError("'reshuffles' must be a list of card lists")
        return cls(
            seats=seats,
            deck=_cards(data.get("deck"), "deck"),
            reshuffles=tuple(_cards(order, "reshuffles") for order in reshuffles),
            actions=tuple(actions),
            options=_options(data.get("options", {})),
            game_id=game_id,
            result=_result(data.get("result"), len(seats)),
        )

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Read a record from JSON text."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as error:
            raise RecordError(f"not valid JSON: {error}") from None
        return cls.from_json(data)


class _RecordedShuffler:
    """Hands out the recorded reshuffles, checking each is the discard pile reordered."""

    def __init__(self, orders: tuple[tuple[Card, ...], ...]) -> None:
        self._orders = orders
        self.used = 0

    def __call__(self, cards: list[Card]) -> list[Card]:
        if self.used >= len(self._orders):
            raise RecordError(
                f"reshuffle {self.used + 1} happened but the record has no order for it"
            )
        order = self._orders[self.used]
        if sorted(order) != sorted(cards):
            raise RecordError(f"reshuffle {self.used + 1} is not the discard pile reordered")
        self.used += 1
        return list(order)


def replay_steps(
    record: GameRecord, upto: int | None = None
) -> Iterator[tuple[Game, int | None, Action | None, list[Event]]]:
    """Replay a record step by step: first the opening (index None), then each action.

    Yields the game (mutated in place), the action's index, the action and its events. Raises
    RecordError naming the first action that is not legal at its point.
    """
    shuffler = _RecordedShuffler(record.reshuffles)
    try:
        game = Game(len(record.seats), record.deck, shuffler)
    except ValueError as error:
        raise RecordError(f"bad deck: {error}") from None
    yield game, None, None, game.opening_events
    actions = record.actions if upto is None else record.actions[:upto]
    for index, action in enumerate(actions):
        if game.is_over:
            raise RecordError("action after the end of the game", index)
        try:
            events = game.apply(action)
        except IllegalActionError as error:
            raise RecordError(
                f"illegal {action.kind} by seat {action.player}: {error}", index
            ) from None
        except RecordError as error:
            raise RecordError(str(error), index) from None
        yield game, index, action, events
    if upto is None:
        if shuffler.used != len(record.reshuffles):
            raise RecordError("the record holds more reshuffles than the game made")
        if record.result is not None:
            if not game.is_over:
                raise RecordError("the record states a result but the game has not ended")
            if game.result() != record.result:
                raise RecordError("the stated result differs from the replayed one")


def replay(record: GameRecord, upto: int | None = None) -> Game:
    """Play a record's actions (the first `upto` of them) and return the game."""
    last: Game | None = None
    for game, _, _, _ in replay_steps(record, upto):
        last = game
    assert last is not None
    return last


def _seat_json(seat: SeatRecord) -> dict[str, Any]:
    out: dict[str, Any] = {"name": seat.name, "kind": seat.kind}
    if seat.strategy is not None:
        out["strategy"] = seat.strategy
    return out


def _short_text(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= _MAX_TEXT


def _seats(raw: object) -> tuple[SeatRecord, ...]:
    if not isinstance(raw, list) or not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise RecordError(f"'seats' must list {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    seats = []
    for item in raw:
        if not isinstance(item, dict) or not _short_text(item.get("name")):
            raise RecordError("each seat needs a 'name' (a short string)")
        if item.get("kind", "human") not in SEAT_KINDS or set(item) - {"name", "kind", "strategy"}:
            raise RecordError("a seat's 'kind' is 'human' or 'bot', with an optional 'strategy'")
        strategy = item.get("strategy")
        if strategy is not None and not _short_text(strategy):
            raise RecordError("a seat's 'strategy' must be a short string")
        seats.append(SeatRecord(item["name"], item.get("kind", "human"), strategy))
    return tuple(seats)


def _cards(raw: object, where: str) -> tuple[Card, ...]:
    if not isinstance(raw, list) or len(raw) > CARD_COUNT:
        raise RecordError(f"'{where}' must be a list of card ids")
    for card in raw:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < CARD_COUNT:
            raise RecordError(
                f"'{where}' holds {card!r}, which is not a card id (0-{CARD_COUNT - 1})"
            )
    return tuple(raw)


def _options(raw: object) -> dict[str, str | int]:
    if not isinstance(raw, dict) or len(raw) > 50:
        raise RecordError("'options' must be an object")
    out: dict[str, str | int] = {}
    for key, value in raw.items():
        ok = (isinstance(value, int) and not isinstance(value, bool)) or _short_text(value)
        if not _short_text(key) or not ok:
            raise RecordError("option values must be short strings or integers")
        out[key] = value
    return out


def _result(raw: object, players: int) -> GameResult | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"scores", "hand_sizes", "winners"}:
        raise RecordError("'result' needs 'scores', 'hand_sizes' and 'winners'")
    lists = []
    for key, size in (("scores", players), ("hand_sizes", players), ("winners", None)):
        value = raw[key]
        if not isinstance(value, list) or (size is not None and len(value) != size):
            raise RecordError(f"result '{key}' must be a list" + (f" of {size}" if size else ""))
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value):
            raise RecordError(f"result '{key}' must hold non-negative integers")
        lists.append(tuple(value))
    return GameResult(lists[0], lists[1], lists[2])
