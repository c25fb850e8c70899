"""`PlayerState.changes` holds to its word: the engine counts up a seat's changes whenever what
everyone sees of it changed (fields, coins, hand size, set-aside cards, the third field), so a
view kept since the last count is never stale (core/view.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bohnanza.core.game import Game
from bohnanza.core.state import PlayerState

from .builders import random_playthrough

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def seen_of(player: PlayerState) -> tuple[object, ...]:
    """What everyone sees of a seat."""
    return (
        tuple(tuple(field.cards) for field in player.fields),
        len(player.coins),
        len(player.hand),
        tuple(player.set_aside),
        player.bought_third_field,
    )


@pytest.mark.parametrize("players", range(2, 8))
@settings(max_examples=3)
@given(deal_seed=seeds, play_seed=seeds)
def test_every_change_a_seat_shows_counts_up_its_changes(
    players: int, deal_seed: int, play_seed: int
) -> None:
    game = Game.new(players, random.Random(deal_seed))
    before = [(seen_of(p), p.changes) for p in game.state.players]
    for action, _ in random_playthrough(game, random.Random(play_seed)):
        now = [(seen_of(p), p.changes) for p in game.state.players]
        for seat, ((seen, counted), (seen_now, counted_now)) in enumerate(
            zip(before, now, strict=True)
        ):
            assert counted_now >= counted
            if seen_now != seen:
                assert counted_now > counted, f"seat {seat} changed by {action} uncounted"
        before = now
    assert game.is_over
