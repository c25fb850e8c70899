"""Bots play whole games through `play_out`, for every player count, and only legally."""

from __future__ import annotations

import random

import pytest

from bohnanza.core.actions import Action
from bohnanza.core.bots import STRATEGIES, Bot, HeuristicBot, RandomBot, make_bot, play_out
from bohnanza.core.cards import CARD_COUNT
from bohnanza.core.game import Game
from bohnanza.core.legal import LegalActions
from bohnanza.core.record import GameRecord, SeatRecord, replay
from bohnanza.core.view import PlayerView

from .recording import bot_of

SEEDS = (1, 2, 3)


def bots_for(strategies: list[str], seed: int) -> list[Bot]:
    """Bots as `make_bot` builds them (the expert searching only a little: whole games of
    experts would take minutes, and finishing a game does not depend on how long it searches)."""
    return [bot_of(s, random.Random(seed * 100 + i)) for i, s in enumerate(strategies)]


def finished_game(players: int, strategies: list[str], seed: int) -> Game:
    game = Game.new(players, random.Random(seed))
    play_out(game, bots_for(strategies, seed))
    return game


class Passive:
    """A bot that never does anything."""

    strategy = "passive"

    def choose(self, view: PlayerView, legal: LegalActions) -> Action | None:
        return None


@pytest.mark.slow
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("players", range(2, 8))
def test_bots_finish_games_for_every_player_count_with_every_card_in_one_place(
    strategy: str, players: int
) -> None:
    for seed in SEEDS:
        game = Game.new(players, random.Random(seed))
        actions = play_out(game, bots_for([strategy] * players, seed))
        assert game.is_over
        assert actions == len(game.actions) > 0
        assert sorted(game.state.all_cards()) == list(range(CARD_COUNT))


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 8))
def test_mixed_tables_of_random_and_heuristic_bots_finish_their_games(players: int) -> None:
    for seed in SEEDS:
        strategies = [STRATEGIES[(seed + i) % len(STRATEGIES)] for i in range(players)]
        game = finished_game(players, strategies, seed)
        assert game.is_over
        assert sorted(game.state.all_cards()) == list(range(CARD_COUNT))


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_bot_game_replays_from_its_record_to_the_same_result(players: int) -> None:
    game = finished_game(players, (["heuristic", "random"] * 4)[:players], seed=5)
    seats = tuple(SeatRecord(f"bot {i}", "bot") for i in range(players))
    record = GameRecord.loads(GameRecord.of(game, seats).dumps())
    assert replay(record).result() == game.result()


def test_the_same_seeds_play_the_same_game() -> None:
    first = finished_game(4, ["heuristic", "random", "heuristic", "random"], seed=9)
    second = finished_game(4, ["heuristic", "random", "heuristic", "random"], seed=9)
    assert first.actions == second.actions


def test_play_out_raises_when_nobody_acts_while_the_game_waits() -> None:
    game = Game.new(3, random.Random(1))
    with pytest.raises(RuntimeError, match="nobody acts"):
        play_out(game, [Passive(), Passive(), Passive()])


def test_play_out_gives_up_after_its_action_limit() -> None:
    game = Game.new(4, random.Random(1))
    with pytest.raises(RuntimeError, match="within 10 actions"):
        play_out(game, bots_for(["heuristic"] * 4, 1), max_actions=10)
    assert len(game.actions) == 10


def test_play_out_needs_one_bot_per_seat() -> None:
    with pytest.raises(ValueError, match="4 players need 4 bots"):
        play_out(Game.new(4, random.Random(1)), bots_for(["random"] * 3, 1))


def test_make_bot_builds_every_listed_strategy() -> None:
    rng = random.Random(0)
    assert isinstance(make_bot("random", rng), RandomBot)
    assert isinstance(make_bot("heuristic", rng), HeuristicBot)
    assert all(make_bot(name, rng).strategy == name for name in STRATEGIES)


def test_make_bot_refuses_an_unknown_strategy() -> None:
    with pytest.raises(ValueError, match="unknown bot strategy 'genius'"):
        make_bot("genius", random.Random(0))


def test_a_game_played_out_makes_no_events_and_leaves_them_on_afterwards() -> None:
    game = Game.new(3, random.Random(4))
    with game.quiet():
        assert game.apply(game.legal_actions(0).actions[0]) == []
    assert game.apply(game.legal_actions(0).actions[0]) != []
    play_out(game, bots_for(["heuristic"] * 3, 4))
    assert game.is_over
    seats = tuple(SeatRecord(f"bot {i}", "bot") for i in range(3))
    replayed = replay(GameRecord.loads(GameRecord.of(game, seats).dumps()))
    assert replayed.result() == game.result()
