"""The expert's judgement of a table where a rollout stops, and the fit that sets its weights."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from bohnanza.core.bots import make_bot, play_out
from bohnanza.core.bots.sampling import clone
from bohnanza.core.bots.worth import (
    FEATURES,
    expected_coins,
    margin,
    seat_features,
    table_counts,
    weights_for,
)
from bohnanza.core.bots.worth_weights import WEIGHTS
from bohnanza.core.cards import Variety, cards_of
from bohnanza.core.game import Game
from bohnanza.core.state import CARD_VARIETIES, Field
from bohnanza.core.table_setup import setup_for

FIT_SCRIPT = Path(__file__).resolve().parents[3] / "bench" / "fit_worth.py"


def fit_worth() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fit_worth", FIT_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fit_worth"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("players", range(2, 8))
def test_every_table_has_weights_for_every_pass_of_the_deck(players: int) -> None:
    for left in range(1, setup_for(players).final_exhaustion + 1):
        assert len(WEIGHTS[(players, left)]) == 2 * len(FEATURES)


def test_a_finished_game_is_worth_its_coins() -> None:
    game = Game.new(4, random.Random(3))
    play_out(game, [make_bot("heuristic", random.Random(s)) for s in range(4)])
    state = game.state
    coins = [len(p.coins) for p in state.players]
    assert expected_coins(state) == [float(c) for c in coins]
    assert margin(state, 0) == coins[0] - max(coins[1:])


def test_coins_earned_count_one_for_one() -> None:
    state = Game.new(5, random.Random(8)).state
    richer = clone(state)
    richer.players[2].coins += cards_of(Variety.COFFEE)[:3]
    before, after = expected_coins(state), expected_coins(richer)
    assert after[2] == pytest.approx(before[2] + 3)
    assert [a for i, a in enumerate(after) if i != 2] == [b for i, b in enumerate(before) if i != 2]
    assert margin(richer, 2) > margin(state, 2)


def test_features_read_fields_hand_deck_and_rivals() -> None:
    state = clone(Game.new(3, random.Random(5)).state)
    blue = [c for c in state.deck if CARD_VARIETIES[c] is Variety.BLUE][:5]
    for card in blue:
        state.deck.remove(card)
    state.players[0].fields[0] = Field(blue[:3])  # 3 blue: 1 bean short of 1 coin
    state.players[1].fields[1] = Field(blue[3:4])  # a rival grows blue too
    state.players[0].hand = [blue[4], *state.players[0].hand]  # a blue bean in front
    in_deck, grown = table_counts(state)
    assert in_deck == Counter(CARD_VARIETIES[c] for c in state.deck)
    assert grown[Variety.BLUE] == 2
    features = dict(zip(FEATURES, seat_features(state, 0, in_deck, grown), strict=False))
    assert features["sale"] == 0
    assert features["next step, 1 bean short"] == 1.0
    assert features["empty fields"] == len(state.players[0].fields) - 1
    assert features["front card grown"] == 1
    assert features["hand cards grown"] >= 1
    assert features["rival fields"] == 1
    share = in_deck[Variety.BLUE] / (len(state.deck) + 1) * 10
    assert features["in deck, 1 bean short"] == pytest.approx(share)
    scaled = seat_features(state, 0, in_deck, grown)[len(FEATURES) :]
    assert scaled[1:4] == pytest.approx([0, 0.01 * len(state.deck), 0])


def test_a_pass_the_fit_never_saw_takes_the_nearest_weights() -> None:
    state = clone(Game.new(5, random.Random(1)).state)
    state.exhaustions = -2  # more passes left than any game has
    assert weights_for(state) == WEIGHTS[(5, 3)]


def test_the_fit_recovers_known_weights() -> None:
    sums = fit_worth().Sums(3)
    rng = random.Random(4)
    for _ in range(200):
        x = [1.0, rng.uniform(0, 5), float(rng.randrange(3))]
        sums.add(x, 2.0 + 0.5 * x[1] - 1.5 * x[2])
    assert sums.solve() == pytest.approx([2.0, 0.5, -1.5], abs=1e-3)


def test_the_fit_notes_each_game_to_its_final_coins() -> None:
    snapshots = fit_worth().play(3, 11)
    assert snapshots
    finals = {tuple(s.final) for s in snapshots}
    assert len(finals) == 1, "every snapshot of a game ends the same way"
    for snap in snapshots:
        assert all(c <= f for c, f in zip(snap.coins, snap.final, strict=True))
        assert all(len(x) == 2 * len(FEATURES) for x in snap.features)
