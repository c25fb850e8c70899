"""A whole 4-player game on a real IRC server: two people and two bots, every move of the
people the number of a choice listed in their private messages, trades between the people
included. Counted in the people's clients: the bot's IRC lines per turn (printed)."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from bohnanza.adapters.irc.protocol import casefold
from bohnanza.adapters.pacing import PACKED
from bohnanza.core.actions import AcceptTrade, CounterTrade, ProposeTrade
from bohnanza.core.app.picker import Draft
from bohnanza.core.app.screens import screen_message
from bohnanza.core.app.session import GameSession
from bohnanza.core.app.updates import hand_key
from bohnanza.core.audit import audit_game
from bohnanza.core.cards import Variety
from bohnanza.core.ports import FINISHED
from bohnanza.core.view import PlayerView

from ..tapping import Press, Tapper, command_of, listed_numbers
from .conftest import BotAccount, bot_env, unique
from .ircd import Network
from .people import Person, connected
from .table import RunningIrcBot


class PeopleTapper(Tapper):
    """People who trade with each other too: offers they build go to another person, and a
    person accepts what another person offers him."""

    def __init__(self, rng: random.Random, people: set[int]) -> None:
        super().__init__(rng)
        self.people = people

    def _offer_plan(
        self, view: PlayerView, seat: int, mine: set[Variety], commands: list[str]
    ) -> list[str] | None:
        """A gift of a hand card that fits none of his fields, to another person: one he can
        always accept."""
        people = [c.split()[1] for c in commands if c.startswith("pick s")]
        people = [target for target in people if self._person(target, seat)]
        spare = [p for p, variety in enumerate(view.hand) if variety not in mine]
        if not people or not spare or self.rng.random() >= self.offer_rate:
            return None
        start, card = Draft(people[0]), Draft(people[0], frozenset({spare[0]}))
        return [f"pick {start.words()}", f"pick {card.words()}", f"send {card.words()}"]

    def _person(self, target: str, seat: int) -> bool:
        return int(target[1:]) - 1 in self.people - {seat}

    def _trade(
        self, session: GameSession, view: PlayerView, seat: int, commands: list[str]
    ) -> str | None:
        for offer in view.offers:
            accept = f"accept {offer.id}"
            mine = offer.receiver == seat and offer.proposer in self.people
            if mine and not offer.stale and accept in commands:
                return accept
        quick = [
            c for c in commands if c.startswith("send s") and not self._person(c.split()[1], seat)
        ]
        return super()._trade(session, view, seat, [c for c in commands if c not in quick])


def shows_choice(text: str, choice: str) -> bool:
    """Whether a line the bot sent lists a choice, alone or packed with others (`a // b`)."""
    return choice in text.split(PACKED) or text.startswith(choice + PACKED.rstrip())


async def seat_people(bot: RunningIrcBot, channel: str, people: list[Person], bots: int) -> str:
    """The first person opens a game in the channel, the others join, bots fill the rest."""
    host = people[0]
    await bot.say(host, channel, "!new")
    for person in people[1:]:
        await bot.say(person, channel, f"{bot.client.nick}: join")
    for _ in range(bots):
        await bot.say(host, channel, "!bot")
    await bot.say(host, channel, "!set deadline off")
    await bot.say(host, channel, "!start")
    session = bot.session(channel)
    assert session is not None, "the game did not start"
    return session.game_id


async def answer_once(
    bot: RunningIrcBot, channel: str, people: dict[str, Person], tapper: Tapper
) -> Press | None:
    """One person answers his private messages' latest choices with a number."""
    session = bot.session(channel)
    assert session is not None and bot.runner is not None
    tr = bot.runner.service.translator(session.language)
    for seat in sorted(session.humans(), key=lambda s: (s not in session.pending(), s)):
        person = people.get(session.seats[seat].identity.user_id)
        if person is None:
            continue  # he is not at the keyboard
        buttons = [b for row in screen_message(session, seat, tr).buttons for b in row]
        commands = [command_of(b.payload) for b in buttons]
        choice = tapper.choose(session, seat, commands)
        if choice is None:
            continue
        caps = bot.runner.port.capabilities
        if session.hand_tokens.get(seat) != hand_key(session, seat, caps):
            # His choices changed without a word (lines cost): he asks for them first.
            await bot.say(person, bot.client.nick, "hand")
        number, label = listed_numbers(session, seat, tr)[choice]
        line = f"{number} · {label}"
        # He answers what his client shows: the choices the bot sent him.
        await person.wait_for(lambda h, line=line: shows_choice(h.text, line))
        start = len(session.game.actions)
        await bot.say(person, bot.client.nick, str(number))
        return Press(seat, start, len(session.game.actions))
    return None


@pytest.mark.slow  # a whole game over the real IRC network
async def test_two_people_and_two_bots_play_a_whole_game_by_numbers_on_irc(
    network: Network, bot_account: BotAccount, tmp_path: Path
) -> None:
    channel = "#" + unique("beans")
    began = time.monotonic()
    bot = await RunningIrcBot(bot_env(network, bot_account, channel), tmp_path, seed=4).start()
    presses, turns = list[Press](), list[tuple[float, int]]()
    async with AsyncExitStack() as stack:
        people = [
            await stack.enter_async_context(connected(network.host, network.port, unique(name)))
            for name in ("ann", "bob")
        ]
        for person in people:
            await person.join(channel)
        game_id = await seat_people(bot, channel, people, bots=2)
        session = bot.session(channel)
        assert session is not None
        tapper = PeopleTapper(random.Random(4), set(session.humans()))
        by_id = {casefold(p.nick): p for p in people}
        for _ in range(3_000):
            session = bot.session(channel)
            if session is None:
                break
            turns.append((time.monotonic(), session.state.turn))
            press = await answer_once(bot, channel, by_id, tapper)
            assert press is not None, "nobody can answer, and the game does not move"
            presses.append(press)
        heard = {casefold(p.nick): list(p.heard) for p in people}
        nick = bot.client.nick
    await bot.stop()

    stored = bot.store.load_stored(game_id)
    assert stored.status == FINISHED
    assert audit_game(stored) is None
    record = stored.record()
    seats = stored.game.seats
    made_by: dict[int, int] = {}
    for press in presses:
        for index in range(press.start, press.end):
            made_by[index] = press.seat
    for index, action in enumerate(record.actions):
        if seats[action.player].kind == "human":
            # Every person's move was made by an answer he sent from his own nick.
            assert made_by.get(index) == action.player, (index, action)
    print(f"{len(presses)} answers in {time.monotonic() - began:.0f} s")
    offers = [a for a in record.actions if isinstance(a, ProposeTrade | CounterTrade)]
    between_people = [
        a
        for a in record.actions
        if isinstance(a, AcceptTrade)
        and seats[a.player].kind == "human"
        and seats[offers[a.offer - 1].player].kind == "human"
    ]
    print(f"trades between people: {len(between_people)}")
    assert between_people, "no trade between the people"

    lines = [h for h in heard[casefold(people[0].nick)] if h.line.nick == nick]
    lines += [h for user, log in heard.items() for h in log if casefold(h.target) == user]
    lines = [h for h in lines if h.line.command in ("PRIVMSG", "NOTICE") and h.line.nick == nick]
    assert max(h.size for user in heard for h in heard[user]) <= 512
    assert not [
        h for log in heard.values() for h in log if h.line.command == "QUIT" and h.line.nick == nick
    ]
    per_turn: Counter[int] = Counter()
    for h in lines:
        turn = max((t for at, t in turns if at <= h.at), default=0)
        per_turn[turn] += 1
    counts = sorted(per_turn.values())
    print(
        f"IRC lines per turn: mean {statistics.mean(counts):.1f}, "
        f"p90 {counts[int(len(counts) * 0.9)]}, max {counts[-1]} ({len(counts)} turns, "
        f"{len(lines)} lines)"
    )
