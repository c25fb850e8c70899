"""Numbered answers on a real IRC server: a number answering a list that another's move
renumbered does nothing and brings the list as it stands; the list he then got is taken."""

from __future__ import annotations

import re
from pathlib import Path

from bohnanza.adapters.irc.protocol import casefold
from bohnanza.adapters.pacing import PACKED
from bohnanza.core.state import Step

from .conftest import BotAccount, bot_env, unique
from .ircd import Network
from .people import Person, connected
from .table import RunningIrcBot

MOVED_ON = "Your choices changed meanwhile; here they are as they stand."
CHOICE = re.compile(r"^(\d+) · (.+)$")


def choices_heard(person: Person, bot: str, after: int) -> dict[str, str]:
    """The numbered choices the bot sent the person privately since `after` (a later list's
    number over an earlier one's): label by number."""
    out: dict[str, str] = {}
    for heard in person.heard[after:]:
        if heard.line.command not in ("PRIVMSG", "NOTICE") or casefold(heard.line.nick) != bot:
            continue
        if casefold(heard.target) != casefold(person.nick):
            continue
        for part in heard.text.split(PACKED):
            match = CHOICE.match(part.strip())
            if match:
                out[match.group(1)] = match.group(2)
    return out


def number_of(choices: dict[str, str], label: str) -> str:
    found = [n for n, shown in choices.items() if shown.startswith(label)]
    assert found, f"no choice {label!r} in {choices}"
    return found[0]


async def test_a_number_answering_a_list_another_renumbered_does_nothing_on_irc(
    network: Network, bot_account: BotAccount, tmp_path: Path
) -> None:
    channel = "#" + unique("beans")
    bot = await RunningIrcBot(bot_env(network, bot_account, channel), tmp_path, seed=4).start()
    async with (
        connected(network.host, network.port, unique("ann")) as ann,
        connected(network.host, network.port, unique("bob")) as bob,
    ):
        for person in (ann, bob):
            await person.join(channel)
        nick = bot.client.nick
        await bot.say(ann, channel, "!new")
        await bot.say(bob, channel, f"{nick}: join")
        await bot.say(ann, channel, "!bot")
        await bot.say(ann, channel, "!set deadline off")
        await bot.say(ann, channel, "!start")
        session = bot.session(channel)
        assert session is not None
        game_id = session.game_id
        await bot.say(ann, nick, "plant 1")
        await bot.say(ann, nick, "done")
        assert session.state.step is Step.TRADE
        mark = len(bob.heard)
        await bot.say(bob, nick, "hand")
        await bob.wait_for(lambda h: "· No trade" in h.text, mark)
        no_trade = number_of(choices_heard(bob, casefold(nick), mark), "No trade")
        # Meanwhile Ann offers Bob a card: Accept and Decline come first in his list.
        mark = len(bob.heard)
        await bot.say(ann, nick, "offer 2 1")
        await bob.wait_for(lambda h: "· Decline #" in h.text, mark)
        renumbered = choices_heard(bob, casefold(nick), mark)
        assert renumbered[no_trade] != "No trade", renumbered
        before = len(session.game.actions)

        # Bob answers the list he read.
        mark = len(bob.heard)
        await bot.say(bob, nick, no_trade)

        session = bot.session(channel)
        assert session is not None and session.game_id == game_id
        assert len(session.game.actions) == before
        assert session.seats[1].passed is None
        await bob.wait_for(lambda h: MOVED_ON in h.text, mark)
        await bob.wait_for(lambda h: "· Decline #" in h.text, mark)
        now = choices_heard(bob, casefold(nick), mark)
        assert now == renumbered
        # The list he got is the one he reads now: its numbers are taken.
        await bot.say(bob, nick, number_of(now, "Decline #"))
        assert len(session.game.actions) == before + 1
    await bot.stop()
