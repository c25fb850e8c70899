"""The hash chain over stored actions, and the audit that proves a stored game consistent.

Each stored action carries `sha256` of the canonical JSON object
`{"action": <action>, "prev": <previous hash>, "reshuffles": <new decks it caused>}`; the first
action's previous hash is the hash of the game's header (game id, seating, options, deck). So any
later change to a stored action, its order, or the header shows as a hash that does not match.
The chain proves the log was not changed after it was written; someone who can rewrite the whole
chain can forge it, which is why the audit also re-runs every action through the rules.

The audit re-runs a stored game from its record and checks, action by action: the chain, that
the action was legal, that the stored reshuffles are the ones that happened; that every card is
in exactly one place after each turn (each kind of action is proven to keep it so); then the
stored result against the replayed one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .actions import Action, ActionFormatError, action_from_json, action_to_json
from .cards import CARD_COUNT, Card
from .errors import IllegalActionError, RecordError
from .events import Event
from .game import Game
from .ports import FINISHED, ChainLink, NewGame, StoredGame
from .record import GameRecord, replay_steps
from .scoring import GameResult
from .state import STEP_GAME_OVER, GameState

_ALL_CARDS = frozenset(range(CARD_COUNT))


def canonical_json(value: Any) -> str:
    """JSON text with sorted keys and no spaces: one text per value, for hashing."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@lru_cache(maxsize=4096)
def action_payload(action: Action) -> str:
    """The action as canonical JSON text, as stored (the same few hundred actions make most of
    every game: their texts are kept)."""
    return canonical_json(action_to_json(action))


def reshuffles_payload(reshuffles: Sequence[Sequence[Card]]) -> str:
    """An action's reshuffles as canonical JSON text, as stored."""
    if not reshuffles:
        return "[]"  # nearly every action's
    return canonical_json([list(order) for order in reshuffles])


def header_hash(game: NewGame) -> str:
    """The hash of what is fixed before the first action; it starts the chain."""
    header = {
        "game_id": game.game_id,
        "seats": [
            {
                "platform": s.platform,
                "user_id": s.user_id,
                "name": s.name,
                "kind": s.kind,
                "strategy": s.strategy,
            }
            for s in game.seats
        ],
        "options": dict(game.options),
        "deck": list(game.deck),
    }
    return hashlib.sha256(canonical_json(header).encode()).hexdigest()


def link_hash(prev: str, payload: str, reshuffles: str) -> str:
    """The hash of one stored action, chained to the previous hash.

    Equal to sha256 of canonical_json({"action": ..., "prev": prev, "reshuffles": ...}) when
    `payload` and `reshuffles` are canonical JSON and `prev` a hex digest, built without parsing
    them again.
    """
    text = f'{{"action":{payload},"prev":"{prev}","reshuffles":{reshuffles}}}'
    return hashlib.sha256(text.encode()).hexdigest()


def cards_conserved(state: GameState) -> bool:
    """Every one of the 154 cards is in exactly one place (the box included)."""
    # The same places as GameState.all_cards, gathered without temporary lists: this runs after
    # every action of every audited game.
    cards = [*state.deck, *state.discard, *state.box, *state.face_up, *state.offered]
    for player in state.players:
        cards += player.hand
        cards += player.coins
        cards += player.set_aside
        for field in player.fields:
            cards += field.cards
    return len(cards) == CARD_COUNT and set(cards) == _ALL_CARDS


class _ActionReader:
    """Reads stored actions; the same text always reads as the same (immutable) action.

    A game repeats a few dozen distinct actions hundreds of times, so remembering them makes an
    audit of many games several times faster.
    """

    def __init__(self, limit: int = 50_000) -> None:
        self._known: dict[str, Action] = {}
        self._limit = limit

    def __call__(self, payload: str) -> Action:
        action = self._known.get(payload)
        if action is None:
            action = action_from_json(json.loads(payload))
            if len(self._known) >= self._limit:
                self._known.clear()
            self._known[payload] = action
        return action


_read_action = _ActionReader()


@dataclass(frozen=True)
class AuditFailure:
    """Why a stored game is not consistent, at the first bad action (None: the game as a whole)."""

    game_id: str
    action: int | None
    reason: str

    def __str__(self) -> str:
        where = f"action {self.action}: " if self.action is not None else ""
        return f"game {self.game_id}: {where}{self.reason}"


class _StoredShuffler:
    """Hands out the reshuffles stored with the action being replayed, checking each one."""

    def __init__(self) -> None:
        self.pending: list[list[Card]] = []

    def __call__(self, cards: list[Card]) -> list[Card]:
        if not self.pending:
            raise RecordError("a reshuffle happened but no new deck is stored with this action")
        order = self.pending.pop(0)
        if sorted(order) != sorted(cards):
            raise RecordError("the stored reshuffle is not the discard pile reordered")
        return order


def header_failure(stored: StoredGame) -> AuditFailure | None:
    """The check of what is fixed before the first action (the seating, with each seat's name
    and kind, the options and the deck) against the hash that starts the chain; cheap, as it
    reads no action."""
    if header_hash(stored.game) == stored.header_hash:
        return None
    return AuditFailure(
        stored.game.game_id, None, "the seating, options or deck differ from what was stored"
    )


def audit_game(stored: StoredGame) -> AuditFailure | None:
    """Re-run a stored game and check everything; None when it all holds."""
    audited = audited_game(stored)
    return audited if isinstance(audited, AuditFailure) else None


def audited_game(
    stored: StoredGame, seen: Callable[[Game, Sequence[Event]], None] | None = None
) -> Game | AuditFailure:
    """`audit_game`, and the game it re-ran when everything holds (so that a game taken up
    is replayed once, not audited and then replayed again): `seen` is given the game and
    the events after every action, as `resuming.resume_game` gives them. Its later
    reshuffles are to be given by `Game.shuffle_with`."""
    game_id = stored.game.game_id

    def failure(action: int | None, reason: str) -> AuditFailure:
        return AuditFailure(game_id, action, reason)

    altered = header_failure(stored)
    if altered is not None:
        return altered
    shuffler = _StoredShuffler()
    try:
        game = Game(len(stored.game.seats), stored.game.deck, shuffler, events=seen is not None)
    except (ValueError, IndexError) as error:
        return failure(None, f"bad deck or seating: {error}")
    state = game.state
    if not cards_conserved(state):
        return failure(None, "cards are not conserved after the deal")
    prev = stored.header_hash
    turn = state.turn
    for index, link in enumerate(stored.links):
        problem = _replay_link(game, shuffler, index, link, prev, seen)
        # Each kind of action is proven to conserve cards (tests/core/test_conservation.py):
        # the check runs once per turn, after the action that ended it, and after the last one.
        if problem is None and (
            state.turn != turn or state.step is STEP_GAME_OVER or index == len(stored.links) - 1
        ):
            turn = state.turn
            if not cards_conserved(state):
                problem = "cards are not conserved after it"
        if problem is not None:
            return failure(index, problem)
        prev = link.hash
    if stored.action_count != len(stored.links) or stored.head_hash != prev:
        missing = stored.action_count > len(stored.links)
        return failure(
            len(stored.links) if missing else None,
            f"the game records {stored.action_count} action(s) ending in another hash, "
            f"but {len(stored.links)} are stored",
        )
    return _check_result(game, stored, failure) or game


def _replay_link(
    game: Game,
    shuffler: _StoredShuffler,
    index: int,
    link: ChainLink,
    prev: str,
    seen: Callable[[Game, Sequence[Event]], None] | None = None,
) -> str | None:
    """Check and apply one stored action; the reason it is bad, or None."""
    seq, payload, reshuffles, hash_ = link
    if seq != index:
        return f"missing: the next stored action is number {seq}"
    if link_hash(prev, payload, reshuffles) != hash_:
        return "its hash does not match its content and the previous hash (changed or reordered)"
    try:
        action = _read_action(payload)
        # Most actions cause no reshuffle: their stored text is "[]", with nothing to parse.
        shuffler.pending = _NO_RESHUFFLES if reshuffles == "[]" else _decode_reshuffles(reshuffles)
    except (ValueError, ActionFormatError) as error:
        return f"not readable: {error}"
    state = game.state
    if state.step is STEP_GAME_OVER:
        return "an action after the end of the game"
    try:
        events = game.apply(action)
    except IllegalActionError as error:
        return f"illegal {action.kind} by seat {action.player}: {error}"
    except RecordError as error:
        return str(error)
    if shuffler.pending:
        return "a reshuffle is stored with it that did not happen"
    if seen is not None:
        seen(game, events)
    return None


_NO_RESHUFFLES: list[list[Card]] = []
"""Shared by every action without reshuffles; the shuffler only reads it (it pops only from a
non-empty list)."""


def _decode_reshuffles(text: str) -> list[list[Card]]:
    orders = json.loads(text)
    ok = isinstance(orders, list) and all(
        isinstance(o, list)
        and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < CARD_COUNT for c in o)
        for o in orders
    )
    if not ok:
        raise ValueError("reshuffles must be lists of card ids")
    return [[int(card) for card in order] for order in orders]


def _check_result(
    game: Game, stored: StoredGame, failure: Callable[[int | None, str], AuditFailure]
) -> AuditFailure | None:
    finished = stored.status == FINISHED
    if stored.result is None:
        if game.is_over:
            return failure(None, "the game has ended but no result is stored")
        if finished:
            return failure(None, "the game is marked finished but has no result")
        return None
    if not game.is_over:
        return failure(None, "a result is stored but the game has not ended")
    if not finished:
        return failure(None, "a result is stored but the game is not marked finished")
    replayed = game.result()
    if replayed != stored.result:
        return failure(
            None,
            f"the stored result ({describe_result(stored.result)}) differs from the replayed "
            f"one ({describe_result(replayed)})",
        )
    return None


def describe_result(result: GameResult) -> str:
    """A result in a few words: scores, then the winning seats counted from 1."""
    scores = ", ".join(str(s) for s in result.scores)
    winners = ", ".join(str(w + 1) for w in result.winners)
    return f"scores {scores}; winner seat {winners}"


@dataclass(frozen=True)
class CheckedRecord:
    """A record that passed every check: each action's reshuffles, and the replayed result."""

    reshuffles: tuple[tuple[tuple[Card, ...], ...], ...]
    """For each action, the new decks of the reshuffles it caused."""
    result: GameResult | None
    """The result, when the game has ended."""


def check_record(record: GameRecord) -> CheckedRecord:
    """Replay a record with the audit's checks, splitting its reshuffles among its actions.

    Raises RecordError naming the first action that is illegal, or the action that ends the turn
    in which card conservation broke.
    """
    per_action: list[tuple[tuple[Card, ...], ...]] = []
    made = 0
    game: Game | None = None
    last = len(record.actions) - 1
    turn = 0
    for game, index, _, _ in replay_steps(record):
        state = game.state
        # As in the audit: after the deal, after each turn, after the last action.
        if index is None or index == last or state.turn != turn or state.step is STEP_GAME_OVER:
            turn = state.turn
            if not cards_conserved(state):
                raise RecordError("cards are not conserved", index)
        if index is not None:
            per_action.append(tuple(tuple(order) for order in game.reshuffles[made:]))
        made = len(game.reshuffles)
    assert game is not None
    return CheckedRecord(tuple(per_action), game.result() if game.is_over else None)
