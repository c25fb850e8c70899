"""The bot stops in the middle of a game and starts again on the same database: the game goes
on where it was, a move made meanwhile is taken, and nothing is applied twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from bohnanza.core.audit import audit_game
from bohnanza.core.notation import action_text
from bohnanza.core.ports import FINISHED

from .botapi import BotApiServer, World
from .botapi.ptb import run
from .table import Players, RunningBot, hand_leaks, latest_private

pytestmark = pytest.mark.server  # the local Bot API server


def test_a_game_goes_on_after_the_bot_restarts_with_nothing_lost_or_doubled(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann, bob = world.create_user("Ann"), world.create_user("Bob")
    group = world.create_group("Bean table", [ann, bob])
    world.add_bot(group, by=ann)
    path = tmp_path / "games.db"

    async def scenario() -> tuple[RunningBot, str, int]:
        async with botapi:
            ann.start_bot()
            bob.start_bot()
            async with RunningBot(botapi, path, seed=11) as first:
                players = Players(first, group, [ann, bob], seed=11)
                game_id = await players.gather(["Ann", "bot", "Bob"])
                await players.play(stop_after=40)
                # The last button press before the stop, to be delivered again after it.
                pressed = [u for u in world.updates if "callback_query" in u][-1]["update_id"]
                session = players.session()
                assert session is not None
                stored_before = first.action_count(game_id)
                assert stored_before == len(session.game.actions)
                decision = players.decide(session)
                assert decision is not None and decision[1] is not None
                seat, action = decision
                person = players.person_at(session, seat)

            # While the bot is down, a player moves: the update waits at Telegram.
            message = latest_private(person, game_id)
            assert message is not None
            said = person.say(person.private_chat, action_text(action))

            async with RunningBot(botapi, path, seed=12) as second:
                await second.handled_message(said)
                resumed = second.bot.service.games[str(group.id)]
                assert len(resumed.game.actions) >= stored_before + 1
                assert resumed.game.actions[stored_before] == action
                count = second.action_count(game_id)

                world.redeliver(pressed)
                await world.wait_until(lambda: world.callback_queries and not world.pending)
                await world.settle()
                assert second.action_count(game_id) == count

                players.running = second
                await players.play()
                await world.settle()
                return second, game_id, stored_before

    second, game_id, stored_before = run(scenario())

    summary = next(s for s in second.store.list_games() if s.game_id == game_id)
    assert summary.status == FINISHED
    assert summary.actions > stored_before
    stored = second.store.load_stored(game_id)
    assert len(stored.record().actions) == summary.actions
    assert audit_game(stored) is None
    result = [m for m in group.bot_messages if m.document is None][-1]  # the page follows
    assert (result.text or "").startswith(f"Game {game_id} is over.")
    assert hand_leaks(world, group, [ann, bob]) == []
