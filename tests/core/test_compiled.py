"""The modules a wheel compiles (setup.py) run only when built from the sources as they are, and
their values copy and pickle as plain Python's do."""

from __future__ import annotations

import ast
import copy
import importlib
import os
import pickle
import random
from pathlib import Path

import pytest

from bohnanza.cli.start import changed_source, core_folder
from bohnanza.core.app.markup import Markup
from bohnanza.core.game import Game
from bohnanza.core.scoring import GameResult

ROOT = Path(__file__).resolve().parents[2]


def compiled_sources() -> tuple[str, ...]:
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "COMPILED":
            return tuple(ast.literal_eval(node.value))
    raise AssertionError("setup.py names no COMPILED modules")


def test_setup_py_holds_the_only_list_of_the_compiled_modules() -> None:
    # The Makefile rebuilds them when any source under core/ changes, by asking setup.py.
    makefile = (ROOT / "Makefile").read_text()
    assert not any(path in makefile for path in compiled_sources())
    assert all((ROOT / path).is_file() for path in compiled_sources())


def test_a_compiled_module_runs_only_when_built_from_the_sources_as_they_are() -> None:
    # An extension module is imported before the source beside it: one built before the last
    # change to a source under core/ would run the code as it was. `bohnanza` (and the tests'
    # conftest) import the sources instead (bohnanza.cli.start).
    core = core_folder()
    assert core is not None
    fresh = changed_source(core) is None
    for path in compiled_sources():
        module = importlib.import_module("bohnanza." + path[:-3].replace("/", "."))
        runs_compiled = not str(module.__file__).endswith(".py")
        assert fresh or not runs_compiled, f"{path}: compiled from other sources, yet it runs"


def test_a_game_state_copies_and_pickles_whole_and_apart_from_the_original() -> None:
    # Compiled, the state's classes keep their fields in C structs, not in a `__dict__`.
    game = Game.new(4, random.Random(5))
    for _ in range(40):  # a few turns in: fields planted, seats changed
        game.apply(game.legal_actions(game.waiting_for()[0]).actions[-1])
    state = game.state
    assert any(f.cards for p in state.players for f in p.fields) and state.discard
    for copied in (state.copy(), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert copied == state and copied is not state
        assert [p.changes for p in copied.players] == [p.changes for p in state.players]
        assert copied.players[0].fields[0] is not state.players[0].fields[0]
        copied.players[0].fields[0].cards.append(0)
        copied.deck.clear()
        assert copied != state and state.deck


def test_every_frozen_dataclass_of_a_compiled_module_is_remade_through_its_constructor() -> None:
    # Compiled, a frozen dataclass cannot be copied or unpickled field by field (its fields are
    # frozen): it says how to make it again, as `GameResult` does.
    for path in compiled_sources():
        module = importlib.import_module("bohnanza." + path[:-3].replace("/", "."))
        for value in vars(module).values():
            params = getattr(value, "__dataclass_params__", None)
            if isinstance(value, type) and value.__module__ == module.__name__ and params:
                assert not params.frozen or "__reduce__" in vars(value), value


def test_a_game_result_and_a_markup_copy_and_pickle() -> None:
    for value in (GameResult((3, 5), (1, 0), (1,)), Markup(html=True)):
        for copied in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
            assert copied == value and type(copied) is type(value)


@pytest.mark.skipif(
    os.environ.get("BOHNANZA_EXPECT_COMPILED") != "1",
    reason="set BOHNANZA_EXPECT_COMPILED=1 where the compiled wheel is installed (.ci/wheel)",
)
def test_the_installed_wheel_runs_every_listed_module_compiled() -> None:
    for path in compiled_sources():
        module = importlib.import_module("bohnanza." + path[:-3].replace("/", "."))
        assert not str(module.__file__).endswith(".py"), path
