"""On IRC a nick is anyone's to take: the game's opener moves another's seat only once its
player is gone (he quit), for the nick he came back under; the channel is told."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path

from bohnanza.adapters.irc.protocol import casefold

from .conftest import BotAccount, unique
from .ircd import Network
from .people import connected
from .test_irc_people import open_table, seat_of


async def test_the_opener_moves_the_seat_of_a_player_who_quit_and_no_other(
    network: Network, bot_account: BotAccount, tmp_path: Path
) -> None:
    async with AsyncExitStack() as stack:
        bot, channel, (ann, bob) = await open_table(network, bot_account, tmp_path, stack)
        session = bot.session(channel)
        assert session is not None and bot.runner is not None
        seat, old = seat_of(session, bob), casefold(bob.nick)
        name = session.seats[seat].identity.name
        back = unique("bob")

        mark = len(ann.heard)
        await bot.say(ann, channel, f"!move {bob.nick} {back}")
        refused = await ann.wait_for(lambda h: "is still here" in h.text, mark)
        assert refused.text.endswith(
            f"{name} is still here: the opener moves only the seat of a player who is gone."
        )
        assert session.seat_of(old) == seat

        await bob.close("connection lost")
        service = bot.runner.service
        await bot.until(lambda: old in service.gone, "seeing Bob quit")
        again = await stack.enter_async_context(connected(network.host, network.port, back))
        await again.join(channel)
        mark = len(ann.heard)
        await bot.say(ann, channel, f"!move {bob.nick} {back}")

        told = await ann.wait_for(lambda h: "seat is now played by" in h.text, mark)
        assert f"{name}'s seat is now played by {back}." in told.text
        assert f"The game's opener moved it: {name} was gone." in told.text
        assert session.seat_of(casefold(back)) == seat and session.seat_of(old) is None
