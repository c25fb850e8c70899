"""What a bot is handed at a decision holds values only: from its view and its legal actions no
path of references leads to the game state, the deck, another seat's hand or anything else the
engine changes, at any decision of whole games of every size."""

from __future__ import annotations

import dataclasses
import functools
import gc
import random
import types
from typing import Any

import pytest

from bohnanza.core.actions import Action
from bohnanza.core.bots import Bot, make_bot, play_out
from bohnanza.core.engine import Engine, RandomShuffler
from bohnanza.core.game import Game
from bohnanza.core.legal import LegalActions
from bohnanza.core.state import Field, GameState, PlayerState, TradeOffer
from bohnanza.core.view import VIEW_FIELDS, TableViews, view_for

FORBIDDEN_TYPES: tuple[type, ...] = (
    GameState,
    PlayerState,
    Field,
    TradeOffer,
    TableViews,
    Game,
    Engine,
    RandomShuffler,
    random.Random,
)
"""What the game is made of and what changes or deals it: none is a value a seat may hold."""


def live_parts(game: Game) -> dict[int, str]:
    """Every object of the game as it is now that a bot must not reach, by id, named."""
    state = game.state
    parts: dict[int, str] = {
        id(game): "the game",
        id(state): "the game state",
        id(state.deck): "the deck in its order",
        id(state.players): "the seats' list",
        id(state.discard): "the live discard pile",
        id(state.box): "the box",
        id(state.face_up): "the live face-up cards",
        id(state.offered): "the live offered cards",
        id(state.offers): "the live offers",
    }
    for seat, player in enumerate(state.players):
        parts[id(player)] = f"seat {seat}'s state"
        parts[id(player.hand)] = f"seat {seat}'s hand"
        parts[id(player.coins)] = f"seat {seat}'s coin stack"
        parts[id(player.set_aside)] = f"seat {seat}'s live set-aside cards"
        parts[id(player.fields)] = f"seat {seat}'s live fields"
        for field in player.fields:
            parts[id(field)] = f"a field of seat {seat}"
            parts[id(field.cards)] = f"the cards of a field of seat {seat}"
    for offer in state.offers.values():
        parts[id(offer)] = f"live offer {offer.id}"
    return parts


@functools.cache
def _held_names(cls: type) -> tuple[str, ...]:
    """The attributes an instance of `cls` holds besides what the garbage collector sees:
    its `__slots__` anywhere in its classes, and its dataclass fields (worked out once a
    class: the walk meets the same few classes thousands of times)."""
    names: list[str] = []
    for base in cls.__mro__:
        slots = base.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    if dataclasses.is_dataclass(cls):
        names += [item.name for item in dataclasses.fields(cls)]
    return tuple(names)


def _referents(obj: Any) -> list[Any]:
    """Whatever `obj` holds: what the garbage collector sees of it, and its dict, slots,
    dataclass fields, closures, defaults and bound objects read as attributes besides (a
    compiled class may not tell the garbage collector everything)."""
    if isinstance(obj, types.FunctionType):
        # The module's globals are not the object's: its closure (cells, whose contents the
        # garbage collector sees) and defaults are.
        return [*(obj.__closure__ or ()), obj.__defaults__, obj.__kwdefaults__, obj.__dict__]
    if isinstance(obj, types.MethodType):
        return [obj.__self__, obj.__func__]
    if isinstance(obj, BUILTIN_CALLABLES):
        owner = getattr(obj, "__self__", None)
        return [] if isinstance(owner, types.ModuleType) else [owner]
    if isinstance(obj, type):
        # A class's own attributes, not the modules its functions were defined in.
        return list(obj.__dict__.values())
    if isinstance(obj, types.CodeType):
        return [obj.co_consts]
    held = gc.get_referents(obj)
    held.append(type(obj))
    values = getattr(obj, "__dict__", None)
    if isinstance(values, dict):
        held.append(values)
    held += [getattr(obj, name, None) for name in _held_names(type(obj))]
    return held


BUILTIN_CALLABLES = (types.BuiltinFunctionType, types.BuiltinMethodType)

SKIPPED = (types.ModuleType, types.FrameType, int, float, str, bytes)
"""Modules are shared by everyone and hold no game of their own; no frame is handed over;
numbers (`bool` among them), strings and bytes hold nothing and are no part of the game."""

HEAP_TYPE = 1 << 9
"""`Py_TPFLAGS_HEAPTYPE`: set on every class made at run time. A type without it is the
interpreter's own (`object`, `dict`, `int`, ...): its attributes cannot be set, and are the
interpreter's methods and descriptors, so it holds no game."""


def _interpreters_own(obj: Any) -> bool:
    return isinstance(obj, type) and not obj.__flags__ & HEAP_TYPE


def reach(roots: list[Any], parts: dict[int, str]) -> list[str]:
    """What of the live game (`parts`) or of the forbidden types is reachable from `roots`."""
    found: list[str] = []
    seen: set[int] = set()
    pending = list(roots)
    while pending:
        obj = pending.pop()
        key = id(obj)
        if obj is None or key in seen:
            continue
        seen.add(key)
        if isinstance(obj, SKIPPED) or _interpreters_own(obj):
            continue
        named = parts.get(key)
        if named is not None:
            found.append(named)
        if isinstance(obj, FORBIDDEN_TYPES) and not isinstance(obj, type):
            found.append(f"a {type(obj).__name__}")
        pending += _referents(obj)
    return found


class Inspecting:
    """Wraps a bot: at every decision it walks everything the bot is handed, once as handed
    and once after every field and action has been read."""

    def __init__(self, bot: Bot, game: Game, seat: int) -> None:
        self.bot, self.game, self.seat = bot, game, seat
        self.strategy = bot.strategy
        self.decisions = 0
        self.reached: list[tuple[int, list[str]]] = []

    def choose(self, view: Any, legal: LegalActions) -> Action | None:
        self._inspect(view, legal)
        action = self.bot.choose(view, legal)
        self._inspect(view, legal)
        return action

    def _inspect(self, view: Any, legal: LegalActions) -> None:
        parts = live_parts(self.game)
        roots: list[Any] = [view, legal]
        found = reach(roots, parts)
        # Read every field and action (as a bot may), then look again at what the view and the
        # legal actions hold.
        read = [getattr(view, name) for name in VIEW_FIELDS] + [legal.actions, legal.trade]
        found += reach([*roots, read], parts)
        if found:
            self.reached.append((len(self.game.actions), sorted(set(found))))
        self.decisions += 1


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("strategy", ["random", "heuristic"])
def test_nothing_a_bot_is_handed_reaches_the_game(players: int, strategy: str) -> None:
    for seed in (1, 2):
        game = Game.new(players, random.Random(seed * 10 + players))
        bots = [
            Inspecting(make_bot(strategy, random.Random(seed + seat)), game, seat)
            for seat in range(players)
        ]
        play_out(game, bots)
        assert game.is_over
        assert all(bot.decisions > 0 for bot in bots)
        for bot in bots:
            assert bot.reached == [], (bot.seat, bot.reached[:3])


def test_the_walk_finds_the_game_where_a_value_holds_it() -> None:
    """The walk itself is sound: it finds the state behind a closure, a bound method, a slot
    and a container, and nothing in a view computed afresh."""
    game = Game.new(3, random.Random(4))
    parts = live_parts(game)
    state = game.state

    def peek() -> int:
        return len(state.deck)

    class Slotted:
        __slots__ = ("held",)

        def __init__(self, held: object) -> None:
            self.held = held

    assert "the game state" in reach([peek], parts)
    assert "the game" in reach([game.legal_actions], parts)
    assert "seat 1's hand" in reach([Slotted((1, [state.players[1].hand]))], parts)
    assert "the deck in its order" in reach([{"x": state.deck}], parts)
    assert reach([view_for(state, 0), game.legal_actions(0)], parts) == []
