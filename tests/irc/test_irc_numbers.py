"""Numbered answers on a real IRC server: another's offer gives its choices new numbers and
leaves his to theirs, whatever he sends in between; a number of an offer withdrawn is refused
saying so, with his list; `²` is refused in one line."""

from __future__ import annotations

import re
from pathlib import Path

from bohnanza.adapters.irc.protocol import casefold
from bohnanza.adapters.pacing import PACKED
from bohnanza.core.actions import AcceptTrade, DeclineTrade
from bohnanza.core.state import Step

from .conftest import BotAccount, bot_env, unique
from .ircd import Network
from .people import Person, connected
from .table import RunningIrcBot

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


async def test_another_s_offer_leaves_his_numbers_to_their_choices_on_irc(
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
        seen = choices_heard(bob, casefold(nick), mark)
        no_trade = number_of(seen, "No trade")
        # Meanwhile Ann offers Bob a card: Accept and Decline come as new numbers.
        mark = len(bob.heard)
        await bot.say(ann, nick, "offer 2 1")
        await bob.wait_for(lambda h: "· Decline #" in h.text, mark)
        now = choices_heard(bob, casefold(nick), mark)
        assert now[no_trade] == "No trade", now
        assert number_of(now, "Accept #") not in seen
        # He asks for something else first: nothing new is sent to him.
        await bot.say(bob, nick, "help")

        await bot.say(bob, nick, no_trade)

        session = bot.session(channel)
        assert session is not None and session.game_id == game_id
        assert session.seats[1].passed is not None
        assert not any(isinstance(a, AcceptTrade) for a in session.game.actions)
        # His pass declined the offer to him: its number is refused saying so, with his list.
        accept = number_of(now, "Accept #")
        offer = now[accept].removeprefix("Accept #")
        declined = [a for a in session.game.actions if isinstance(a, DeclineTrade)]
        assert [(a.player, a.offer) for a in declined] == [(1, int(offer))]
        mark = len(bob.heard)
        before = len(session.game.actions)
        await bot.say(bob, nick, accept)
        await bob.wait_for(lambda h: f"Offer #{offer} was declined." in h.text, mark)
        assert len(session.game.actions) == before
        # Digits that are not 0-9 are refused in one line.
        mark = len(bob.heard)
        await bot.say(bob, nick, "²")
        heard = await bob.wait_for(lambda h: "0 to 9" in h.text, mark)
        assert heard.text.strip() == "Write numbers with the digits 0 to 9."
    await bot.stop()
