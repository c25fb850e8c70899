"""A whole 5-player game on Telegram played by tapping only: four people and a bot, through the
unmodified python-telegram-bot and the local Bot API. Every move is an inline button of the
player's private message, trades included (one-tap offers and the picker). Counted on the
wire: taps per turn, notifying messages per decision that fell to a person, trades made by
buttons, how long a bot on turn kept trading open."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from bohnanza.core.actions import CounterTrade, ProposeTrade
from bohnanza.core.app.session import GameSession
from bohnanza.core.audit import audit_game
from bohnanza.core.state import Step

from ..tapping import (
    Press,
    Tally,
    Tapper,
    command_of,
    decisions_from_record,
    offers_of_people,
    trades_of_people,
)
from .botapi import BotApiServer, World
from .botapi.ptb import run
from .table import Players, RunningBot, hand_leaks, latest_private

pytestmark = pytest.mark.server  # the local Bot API server

SEATS = ["Ann", "Bob", "Cat", "Dan", "bot"]


class BotWindows:
    """How long each bot turn kept trading open, in seconds of the test's wall clock."""

    def __init__(self) -> None:
        self.opened: float | None = None
        self.seconds: list[float] = []

    def watch(self, session: GameSession | None) -> None:
        bot_trades = (
            session is not None
            and session.state.step is Step.TRADE
            and session.seats[session.state.active].bot is not None
        )
        if bot_trades and self.opened is None:
            self.opened = time.monotonic()
        elif not bot_trades and self.opened is not None:
            self.seconds.append(time.monotonic() - self.opened)
            self.opened = None


async def tap_through(
    players: Players, game_id: str, seed: int
) -> tuple[Tally, BotWindows, list[Press]]:
    tapper, tally, windows = Tapper(random.Random(seed)), Tally(), BotWindows()
    presses: list[Press] = []
    for _ in range(5_000):
        session = players.session()
        windows.watch(session)
        if session is None:
            return tally, windows, presses
        order = sorted(session.humans(), key=lambda s: (s not in session.pending(), s))
        for seat in order:
            person = players.person_at(session, seat)
            message = latest_private(person, game_id)
            if message is None:
                continue
            datas = [str(b["callback_data"]) for row in message.inline_keyboard for b in row]
            choice = tapper.choose(session, seat, [command_of(d) for d in datas])
            if choice is None:
                continue
            start, made = len(session.game.actions), offers_of_people(session)
            tally.count_press(session, seat)
            data = next(d for d in datas if command_of(d) == choice)
            await players.press(person, message, data)
            end = players.running.action_count(game_id)
            presses.append(Press(seat, start, end))
            if choice.startswith("send "):
                tally.offers_by_buttons += offers_of_people(session) - made
            break
        else:
            raise AssertionError("nobody can tap, and the game does not move")
    raise AssertionError("the game did not end")


@pytest.mark.slow
def test_a_five_player_game_by_taps_alone_on_telegram(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    names = [seat for seat in SEATS if seat != "bot"]
    people = [world.create_user(name) for name in names]
    group = world.create_group("Bean table", people)
    world.add_bot(group, by=people[0])

    async def scenario() -> tuple[RunningBot, str, Tally, BotWindows, list[Press]]:
        async with botapi, RunningBot(botapi, tmp_path / "games.db", seed=6) as running:
            for person in people:
                person.start_bot()
            await world.settle()
            players = Players(running, group, people, seed=6)
            game_id = await players.gather(SEATS)
            tally, windows, presses = await tap_through(players, game_id, seed=6)
            await world.settle()
            return running, game_id, tally, windows, presses

    running, game_id, tally, windows, presses = run(scenario())

    stored = running.store.load_stored(game_id)
    assert audit_game(stored) is None
    record = stored.record()
    assert record.result is not None
    offers = [a for a in record.actions if isinstance(a, ProposeTrade | CounterTrade)]
    assert len([a for a in offers if a.player < 4]) == tally.offers_by_buttons > 0
    tally.trades_by_buttons = trades_of_people(record, 4)
    assert tally.trades_by_buttons > 0
    fell = decisions_from_record(record, presses, set(range(len(names))))
    for seat, person in enumerate(people):
        name = person.account.first_name
        tally.decisions[name] = fell[seat]
        game_messages = [
            m for m in person.private_messages if (m.text or "").startswith(f"Game {game_id}")
        ]
        tally.notified[name] = sum(not m.silent for m in game_messages)
    print(tally.summary(), f"; bot trading windows max {max(windows.seconds):.2f} s")
    assert tally.median_taps() <= 4
    assert tally.notified == tally.decisions  # exactly one notification per decision
    assert windows.seconds and max(windows.seconds) < 60  # every person passed: it closed
    assert hand_leaks(world, group, people) == []
