"""A bot stopped in the middle of a game and started again on the same state folder and
database: the kept device and sync token are reused, no command is applied twice, and what was
said while it was down is applied after the restart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from nio import DevicesResponse

from bohnanza.core.audit import audit_game
from bohnanza.core.notation import action_text
from bohnanza.core.ports import FINISHED

from .accounts import Account
from .players import open_player
from .synapse import Homeserver
from .table import RunningBot, Table

CHATTER = 60
"""Messages said while the bot is down: more than one sync's timeline holds, so the command
among them is only found by fetching the gap."""


@pytest.mark.slow
async def test_a_restarted_bot_goes_on_without_replaying_or_losing_commands(
    synapse: Homeserver, new_account: Callable[[str], Account], tmp_path: Path
) -> None:
    bot_account = new_account("beanbot")
    first = await RunningBot(synapse, bot_account, tmp_path, seed=11).start()
    async with open_player(synapse, new_account("ann")) as ann:
        room = await ann.create_room(invite=[first.user_id], name="Bean table")
        await ann.wait_for_member(room, first.user_id)
        table = Table(first, room, [ann], seed=11)
        game_id = await table.gather([ann, "bot"])
        await table.play(stop_after=12)

        # Stopped while the runner handles a command: the command is finished, the sync that
        # brought it is not, so the restarted bot gets that sync again.
        first.stop_during_next_command = True
        assert await table.move()
        interrupted = max(first.handled, key=lambda event_id: first.submitted_at[event_id])
        await first.stop()
        kept = first.bot.state
        device, token, people_moves = kept.device_id, kept.next_batch, table.moves
        # Stored with the move it caused: seen again, it is recognised and skipped.
        assert first.store.delivery_seen("matrix", interrupted)
        assert first.people_actions(game_id) == people_moves

        # While the bot is down: a move, then a flood of talk after it.
        session = table.session()
        assert session is not None
        decision = table.decide(session)
        assert decision is not None and decision[1] is not None
        said_while_down = await ann.send_text(room, f"!bean {action_text(decision[1])}")
        for line in range(CHATTER):
            await ann.send_text(room, f"back in a minute ({line})")

        second = RunningBot(synapse, bot_account, tmp_path, seed=12)
        assert second.bot.state.next_batch == token
        await second.start()
        assert (second.bot.client.device_id, second.bot.state.device_id) == (device, device)
        await second.handled_command(said_while_down)
        assert second.people_actions(game_id) == people_moves + 1

        table.running = second
        table.moves += 1
        await table.play()
        result = await ann.wait_for_message(
            lambda m: m.room_id == room and m.body.startswith(f"Game {game_id} is over.")
        )
        devices = await second.bot.client.devices()
        replies_to_interrupted = [m for m in ann.messages(room) if m.in_reply_to == interrupted]
        sent_at = {e.source.get("event_id"): e.source["origin_server_ts"] for e in ann.events}
    await second.stop()

    assert isinstance(devices, DevicesResponse)
    # The account's registration device, and the one the bot logged in with once.
    assert sorted(d.id for d in devices.devices) == sorted([bot_account.device_id, device])
    # The interrupted command is answered once, by the bot that carried it out before it
    # stopped (its receipt came before the move said while it was down); never again.
    assert len(replies_to_interrupted) <= 1
    assert all(sent_at[m.event_id] < sent_at[said_while_down] for m in replies_to_interrupted)
    assert "Winner: " in result.body
    assert second.people_actions(game_id) == table.moves
    summary = next(s for s in second.store.list_games() if s.game_id == game_id)
    assert summary.status == FINISHED
    assert audit_game(second.store.load_stored(game_id)) is None
