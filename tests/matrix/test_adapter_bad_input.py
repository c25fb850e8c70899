"""Bad input on Matrix: each gets a short reply (or, when it is no command, nothing) and changes
nothing. The sender decides who acts; an edited command is not a second command (but the edit
of a command that changed nothing is the command meant)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from bohnanza.core.app.session import GameSession

from .accounts import Account
from .players import Player, open_player
from .synapse import Homeserver
from .table import RunningBot, Table


@dataclass
class Game:
    """Ann and Bob play a started duel in `room`; Cat is in the room but not in the game."""

    running: RunningBot
    table: Table
    room: str
    game_id: str
    ann: Player
    bob: Player
    cat: Player

    def session(self) -> GameSession:
        session = self.table.session()
        assert session is not None
        return session

    def snapshot(self) -> tuple[int, str]:
        """What must not change: the stored actions and what the table shows."""
        session = self.session()
        return self.running.action_count(self.game_id), repr(session.view(None))

    def on_turn(self) -> tuple[Player, Player]:
        """The person the game waits on, and the other one."""
        session = self.session()
        first, second = self.table.person_at(session, 0), self.table.person_at(session, 1)
        return (first, second) if 0 in session.game.waiting_for() else (second, first)


@asynccontextmanager
async def duel(
    synapse: Homeserver, new_account: Callable[[str], Account], folder: Path
) -> AsyncIterator[Game]:
    running = await RunningBot(synapse, new_account("beanbot"), folder).start()
    try:
        async with (
            open_player(synapse, new_account("ann")) as ann,
            open_player(synapse, new_account("bob")) as bob,
            open_player(synapse, new_account("cat")) as cat,
        ):
            room = await ann.create_room(invite=[running.user_id, bob.user_id, cat.user_id])
            for guest in (bob, cat):
                await guest.wait_for_invite(room)
                await guest.join(room)
            await ann.wait_for_member(room, running.user_id)
            table = Table(running, room, [ann, bob])
            game_id = await table.gather([ann, bob])
            yield Game(running, table, room, game_id, ann, bob, cat)
    finally:
        await running.stop()


async def replies_to(player: Player, event_id: str) -> list[str]:
    """What the bot answered to one event, as the player sees it."""
    await player.sync()
    return [m.body for m in player.messages() if m.in_reply_to == event_id]


async def test_garbage_gets_a_short_reply_and_talk_gets_none(
    synapse: Homeserver, new_account: Callable[[str], Account], tmp_path: Path
) -> None:
    async with duel(synapse, new_account, tmp_path) as game:
        before = game.snapshot()
        mover, _ = game.on_turn()
        say = game.table.say
        garbage = await say(mover, "!bean frobnicate the beans")
        far_field = await say(mover, "!bean plant 99")
        unreadable = await say(mover, "!bean plant one")
        not_the_prefix = await say(mover, "!beans plant 1")
        talk = await say(mover, "anyone for coffee beans?")
        private = await say(mover, "gimme all the beans", game.table.direct[mover.user_id])

        assert await replies_to(mover, garbage) == ["Unknown command. Send 'help' for the list."]
        [refused] = await replies_to(mover, far_field)
        assert 0 < len(refused) < 200
        assert await replies_to(mover, unreadable) == [
            "I did not understand that. Send 'help' for the commands."
        ]
        assert await replies_to(mover, not_the_prefix) == []
        assert await replies_to(mover, talk) == []
        assert await replies_to(mover, private) == ["Unknown command. Send 'help' for the list."]
        assert game.snapshot() == before


async def test_acting_out_of_turn_or_outside_the_game_is_refused(
    synapse: Homeserver, new_account: Callable[[str], Account], tmp_path: Path
) -> None:
    async with duel(synapse, new_account, tmp_path) as game:
        before = game.snapshot()
        _, waiting = game.on_turn()
        say = game.table.say
        out_of_turn = await say(waiting, "!bean plant 1")
        privately = await say(waiting, "plant 1", game.table.direct[waiting.user_id])
        onlooker = await say(game.cat, "!bean plant 1")
        # The text never says who acts: a player named in it is just a word.
        pretending = await say(game.cat, f"!bean plant 1 {game.ann.user_id}")

        assert len(await replies_to(waiting, out_of_turn)) == 1
        assert len(await replies_to(waiting, privately)) == 1
        assert await replies_to(game.cat, onlooker) == ["You are not playing in this game."]
        assert len(await replies_to(game.cat, pretending)) == 1
        assert game.snapshot() == before


async def test_an_edit_applies_a_command_only_where_the_first_one_changed_nothing(
    synapse: Homeserver, new_account: Callable[[str], Account], tmp_path: Path
) -> None:
    async with duel(synapse, new_account, tmp_path) as game:
        mover, _ = game.on_turn()
        actions = game.running.action_count(game.game_id)
        planted = await game.table.say(mover, "!bean plant 1")
        assert game.running.action_count(game.game_id) == actions + 1
        edit = await mover.edit_text(game.room, planted, "!bean plant 1")
        await game.running.passed_over(edit)
        assert game.running.action_count(game.game_id) == actions + 1  # applied once
        assert await replies_to(mover, edit) == []
        assert game.running.handled[edit] == 0

        # A typo is answered; the player fixes it by editing: the edit is the command meant.
        typo = await game.table.say(mover, "!bean plnat 1")
        assert len(await replies_to(mover, typo)) == 1
        still_wrong = await mover.edit_text(game.room, typo, "!bean plant 99")
        await game.running.handled_command(still_wrong)
        assert game.running.action_count(game.game_id) == actions + 1
        fixed = await mover.edit_text(game.room, typo, "!bean done")
        await game.running.handled_command(fixed)
        assert game.running.action_count(game.game_id) == actions + 2
        # Once a fix was taken, further edits of that message are no commands.
        again = await mover.edit_text(game.room, typo, "!bean done")
        await game.running.passed_over(again)
        assert game.running.handled[again] == 0
        assert game.running.action_count(game.game_id) == actions + 2


async def test_what_was_said_before_the_bot_joined_is_not_a_command(
    synapse: Homeserver, new_account: Callable[[str], Account], tmp_path: Path
) -> None:
    running = await RunningBot(synapse, new_account("beanbot"), tmp_path).start()
    async with open_player(synapse, new_account("ann")) as ann:
        room = await ann.create_room()
        early = await ann.send_text(room, "!bean new")
        await ann.invite(room, running.user_id)
        await ann.wait_for_member(room, running.user_id)
        table = Table(running, room, [ann])
        later = await table.say(ann, "!bean join")
        replies = await replies_to(ann, later)
    await running.stop()

    assert running.handled[early] == 0
    assert room not in running.bot.service.lobbies
    assert replies == ["No game is being gathered here: send 'new' to open one."]
