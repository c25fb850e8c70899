"""People who change their nick or leave in the middle of a game on IRC."""

from __future__ import annotations

import random
from contextlib import AsyncExitStack
from pathlib import Path

from bohnanza.adapters.irc.protocol import casefold
from bohnanza.core.app.session import GameSession

from ..tapping import Tapper
from .conftest import BotAccount, bot_env, unique
from .ircd import Network
from .people import Person, connected
from .table import RunningIrcBot
from .test_irc_game import answer_once, seat_people


async def open_table(
    network: Network, account: BotAccount, folder: Path, stack: AsyncExitStack
) -> tuple[RunningIrcBot, str, list[Person]]:
    channel = "#" + unique("beans")
    bot = await RunningIrcBot(bot_env(network, account, channel), folder, seed=2).start()
    stack.push_async_callback(bot.stop)
    people = [
        await stack.enter_async_context(connected(network.host, network.port, unique(name)))
        for name in ("ann", "bob")
    ]
    for person in people:
        await person.join(channel)
    await seat_people(bot, channel, people, bots=2)
    return bot, channel, people


def seat_of(session: GameSession, person: Person) -> int:
    seat = session.seat_of(casefold(person.nick))
    assert seat is not None
    return seat


async def test_a_player_who_changes_his_nick_keeps_playing_his_seat(
    network: Network, bot_account: BotAccount, tmp_path: Path
) -> None:
    async with AsyncExitStack() as stack:
        bot, channel, (ann, bob) = await open_table(network, bot_account, tmp_path, stack)
        session = bot.session(channel)
        assert session is not None
        seat, old = seat_of(session, ann), casefold(ann.nick)
        await ann.change_nick(unique("Anna"))
        await bot.until(lambda: bool(bot.renamed), "following the nick change")
        assert bot.renamed == [(old, casefold(ann.nick))]
        assert session.seats[seat].identity.user_id == casefold(ann.nick)
        assert session.seat_of(old) is None
        # His next answers, under the new nick, are moves of his seat.
        tapper, people = Tapper(random.Random(2)), {casefold(p.nick): p for p in (ann, bob)}
        for _ in range(60):
            press = await answer_once(bot, channel, people, tapper)
            assert press is not None
            if press.seat == seat and press.end > press.start:
                break
        else:
            raise AssertionError("the renamed player never moved")
        actions = session.game.actions[press.start : press.end]
        assert any(action.player == seat for action in actions)


async def test_a_player_who_left_is_found_unreachable_and_the_room_told_once(
    network: Network, bot_account: BotAccount, tmp_path: Path
) -> None:
    async with AsyncExitStack() as stack:
        bot, channel, (ann, bob) = await open_table(network, bot_account, tmp_path, stack)
        session = bot.session(channel)
        assert session is not None
        name, gone = session.names[seat_of(session, bob)], casefold(bob.nick)
        # He leaves the channel first, so the bot learns he is gone only from the server's
        # answer to its next private message to him (late).
        bob.send("PART", channel)
        await bob.close("gone for lunch")
        tapper, people = Tapper(random.Random(3)), {casefold(ann.nick): ann}
        for _ in range(40):
            if gone in bot.unreachable:
                break
            if await answer_once(bot, channel, people, tapper) is None:
                break  # the game waits for Bob now
        await bot.until(lambda: gone in bot.unreachable, "finding Bob unreachable")
        assert bot.runner is not None and await bot.runner.drain(10)

        def room_told() -> list[str]:
            return [
                h.text
                for h in ann.from_bot(bot.client.nick, private=False)
                if "I cannot write to you privately" in h.text
            ]

        # The room is told when the bot next writes to him (his next decision): the game
        # goes on until then, and a few moves more, after which it was told once.
        for _ in range(40):
            if room_told() or await answer_once(bot, channel, people, tapper) is None:
                break
        await bot.until(lambda: bool(room_told()), "the room hearing Bob cannot be written to")
        for _ in range(5):  # more of the game: the room is not told again
            if await answer_once(bot, channel, people, tapper) is None:
                break
        assert await bot.runner.drain(10)
        told = room_told()
        assert len(told) == 1, told
        assert told[0].startswith(f"{name}: ")
        assert "Stay connected under the nick you joined with" in told[0]
        assert "'!hand'" in told[0]
