"""The portable game record: a versioned JSON document that replays a game exactly.

See docs/game-record.md. Reading a record checks its shape; `replay` checks every action against
the rules and names the first one that is wrong.
"""

from __future__ import annotations

import json
import unicodedata
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
MAX_DIGITS = 19
"""No number in a record has more digits: every integer it holds fits in 64 bits."""
_MAX_INTEGER = 2**63 - 1
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Characters that reorder the text around them: a name holding one can disguise itself."""


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
                f"unsupported record version {_brief(version)} (this reads {RECORD_VERSION})"
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
            raise RecordError(f"unexpected keys {_brief(sorted(extra))}")
        seats = _seats(data.get("seats"))
        game_id = data.get("game_id")
        if game_id is not None:
            _check_text(game_id, "'game_id'", "a short string or null")
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
        """Read a record from JSON text: valid Unicode, no number longer than MAX_DIGITS."""
        try:
            data = json.loads(text, parse_int=_bounded_int)
        except (json.JSONDecodeError, RecursionError) as error:
            raise RecordError(f"not valid JSON: {error}") from None
        _check_unicode(data)
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
        _check_end(record, game, shuffler)


def replay(record: GameRecord, upto: int | None = None, *, trusted: bool = False) -> Game:
    """Play a record's actions (the first `upto` of them) and return the game.

    Checks what `replay_steps` checks, without gathering events. `trusted=True` skips the rules
    for each action: only for a record that already passed them (`audit.check_record`, or a
    stored game that passed the audit).
    """
    shuffler = _RecordedShuffler(record.reshuffles)
    try:
        game = Game(len(record.seats), record.deck, shuffler)
    except ValueError as error:
        raise RecordError(f"bad deck: {error}") from None
    actions = record.actions if upto is None else record.actions[:upto]
    try:
        game.play_through(actions, checked=not trusted)
    except IllegalActionError as error:
        index = len(game.actions)
        if game.is_over:
            raise RecordError("action after the end of the game", index) from None
        action = actions[index]
        raise RecordError(
            f"illegal {action.kind} by seat {action.player}: {error}", index
        ) from None
    except RecordError as error:
        raise RecordError(str(error), len(game.actions)) from None
    if upto is None:
        _check_end(record, game, shuffler)
    return game


def _check_end(record: GameRecord, game: Game, shuffler: _RecordedShuffler) -> None:
    """After the last action: every recorded reshuffle was used, and the stated result holds."""
    if shuffler.used != len(record.reshuffles):
        raise RecordError("the record holds more reshuffles than the game made")
    if record.result is not None:
        if not game.is_over:
            raise RecordError("the record states a result but the game has not ended")
        if game.result() != record.result:
            raise RecordError("the stated result differs from the replayed one")


def _seat_json(seat: SeatRecord) -> dict[str, Any]:
    out: dict[str, Any] = {"name": seat.name, "kind": seat.kind}
    if seat.strategy is not None:
        out["strategy"] = seat.strategy
    return out


def _bounded_int(digits: str) -> int:
    """A JSON integer, refused before conversion when it is longer than any a record holds."""
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise RecordError(f"a number has more than {MAX_DIGITS} digits")
    return int(digits)


def _check_unicode(data: object) -> None:
    """Refuse a string anywhere in the parsed JSON that holds a lone surrogate (\\ud800)."""
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str) and not _is_valid_unicode(item):
            raise RecordError("not valid Unicode: a string holds a lone surrogate")


def _is_valid_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_small_int(value: object) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and -_MAX_INTEGER <= value <= _MAX_INTEGER
    )


def _brief(value: object) -> str:
    """A value for an error message: short, on one line, whatever it holds."""
    if isinstance(value, int) and not _is_small_int(value):
        return "a number too large to show"
    shown = ascii(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _short_text(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= _MAX_TEXT


def _check_text(value: object, field: str, expected: str) -> str:
    """A short string fit to show on a screen, or RecordError naming `field`."""
    if not _short_text(value):
        raise RecordError(f"{field} must be {expected}")
    assert isinstance(value, str)
    bad = next((ch for ch in value if _is_hidden_character(ch)), None)
    if bad is not None:
        raise RecordError(f"{field} holds the control character U+{ord(bad):04X}; refused")
    return value


def _is_hidden_character(char: str) -> bool:
    """A control, line-breaking or direction-changing character, or a lone surrogate."""
    return char in _BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp")


def _seats(raw: object) -> tuple[SeatRecord, ...]:
    if not isinstance(raw, list) or not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise RecordError(f"'seats' must list {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    return tuple(_seat(number, item) for number, item in enumerate(raw))


def _seat(number: int, item: object) -> SeatRecord:
    if not isinstance(item, dict):
        raise RecordError("each seat needs a 'name' (a short string)")
    name = _check_text(item.get("name"), f"seat {number} 'name'", "a short string")
    if item.get("kind", "human") not in SEAT_KINDS or set(item) - {"name", "kind", "strategy"}:
        raise RecordError("a seat's 'kind' is 'human' or 'bot', with an optional 'strategy'")
    strategy = item.get("strategy")
    if strategy is not None:
        _check_text(strategy, f"seat {number} 'strategy'", "a short string")
    return SeatRecord(name, item.get("kind", "human"), strategy)


def _cards(raw: object, where: str) -> tuple[Card, ...]:
    if not isinstance(raw, list) or len(raw) > CARD_COUNT:
        raise RecordError(f"'{where}' must be a list of card ids")
    for card in raw:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < CARD_COUNT:
            raise RecordError(
                f"'{where}' holds {_brief(card)}, which is not a card id (0-{CARD_COUNT - 1})"
            )
    return tuple(raw)


def _options(raw: object) -> dict[str, str | int]:
    if not isinstance(raw, dict) or len(raw) > 50:
        raise RecordError("'options' must be an object")
    return {
        _check_text(key, f"option {_brief(key)}", "a short string"): _option_value(key, value)
        for key, value in raw.items()
    }


def _option_value(key: object, value: object) -> str | int:
    if _is_small_int(value):
        assert isinstance(value, int)
        return value
    if not _short_text(value):
        raise RecordError("option values must be short strings or 64-bit integers")
    return _check_text(value, f"option {_brief(key)}", "a short string")


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
        if not all(_is_small_int(v) and v >= 0 for v in value):
            raise RecordError(f"result '{key}' must hold non-negative integers")
        lists.append(tuple(value))
    return GameResult(lists[0], lists[1], lists[2])
