"""Whole games on Telegram: people type commands and press buttons, bots fill seats, the
unmodified python-telegram-bot polls the local Bot API, and the result reaches the group."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bohnanza.core.actions import AcceptTrade, CounterTrade, DeclineTrade, ProposeTrade
from bohnanza.core.audit import audit_game
from bohnanza.core.ports import FINISHED

from .botapi import BotApiServer, World
from .botapi.ptb import run
from .table import Players, RunningBot, hand_leaks, sent_buttons

pytestmark = pytest.mark.server  # the local Bot API server


def trades_by(running: RunningBot, game_id: str) -> Counter[str]:
    """Trading actions of the stored game, by kind and by who made them (person or bot)."""
    stored = running.store.load_stored(game_id)
    seats = stored.game.seats
    kinds: Counter[str] = Counter()
    for action in stored.record().actions:
        if isinstance(action, ProposeTrade | CounterTrade | AcceptTrade | DeclineTrade):
            kinds[f"{seats[action.player].kind} {action.kind}"] += 1
    return kinds


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seats", "seed"),
    [
        (["Ann", "Bob"], 3),
        (["Ann", "bot", "Bob", "bot:random"], 4),
        (["Ann", "bot", "Bob", "bot:random", "Cat", "bot", "Dan"], 5),
    ],
    ids=["two", "four", "seven"],
)
def test_people_and_bots_play_a_whole_game_in_a_group_to_its_result(
    world: World, botapi: BotApiServer, tmp_path: Path, seats: list[str], seed: int
) -> None:
    names = [seat for seat in seats if not seat.startswith("bot")]
    people = [world.create_user(name) for name in names]
    group = world.create_group("Bean table", people)
    world.add_bot(group, by=people[0])

    async def scenario() -> tuple[RunningBot, Players, str]:
        async with botapi, RunningBot(botapi, tmp_path / "games.db", seed=seed) as running:
            for person in people:
                person.start_bot()
            await world.settle()
            players = Players(running, group, people, seed=seed)
            game_id = await players.gather(seats)
            await players.play()
            await world.settle()
            return running, players, game_id

    running, players, game_id = run(scenario())

    summary = next(s for s in running.store.list_games() if s.game_id == game_id)
    assert summary.status == FINISHED
    assert audit_game(running.store.load_stored(game_id)) is None
    texts = [m for m in group.bot_messages if m.document is None]  # the game's page follows
    result = texts[-1].text or ""
    assert result.startswith(f"Game {game_id} is over.")
    assert "Winner: " in result
    assert players.presses > 10 and players.typed > 10
    assert hand_leaks(world, group, people) == []
    buttons = sent_buttons(world)
    assert buttons and all(len(b["callback_data"].encode()) <= 64 for b in buttons)
    assert [(c.method, c.description) for c in world.calls if c.status != 200] == []
    if len(seats) > 2:
        trades = trades_by(running, game_id)
        assert trades["human propose-trade"] > 0, trades
        assert trades["human counter-trade"] > 0, trades
        assert sum(n for kind, n in trades.items() if kind.endswith("accept-trade")) > 0, trades
        assert sum(n for kind, n in trades.items() if kind.endswith("decline-trade")) > 0, trades
