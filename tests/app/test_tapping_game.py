"""A whole 5-player game played by tapping only: four people and a bot, every move a button
of the player's private message (trades built with the picker). Counted: taps per turn,
notifications per decision that fell to a person, trades made by buttons."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bohnanza.core.actions import CounterTrade, ProposeTrade
from bohnanza.core.app.session import GameSession

from ..tapping import (
    Press,
    Tally,
    Tapper,
    command_of,
    decisions_from_record,
    offers_of_people,
    trades_of_people,
)
from .recording import People, Table, user_of

SEATS = ["ann", "bob", "cid", "dan", "bot"]


def play_by_taps(table: Table, people: People, seed: int) -> tuple[Tally, list[Press]]:
    tapper = Tapper(random.Random(seed))
    tally, presses = Tally(), []
    game_id = table.session("g1").game_id
    for _ in range(5_000):
        session = table.service.games.get("g1")
        if session is None:
            return tally, presses
        press = tap_once(table, people, session, game_id, tapper, tally)
        assert press is not None, "nobody can tap"
        presses.append(press)
    raise AssertionError("the game did not end")


def tap_once(
    table: Table, people: People, session: GameSession, game_id: str, tapper: Tapper, tally: Tally
) -> Press | None:
    order = sorted(session.humans(), key=lambda s: (s not in session.pending(), s))
    for seat in order:
        user = user_of(session, seat)
        shown = table.port.hand_message(user, game_id)
        if shown is None:
            continue
        buttons = [b for row in shown.message.buttons for b in row]
        commands = [command_of(b.payload) for b in buttons]
        choice = tapper.choose(session, seat, commands)
        if choice is None:
            continue
        payload = buttons[commands.index(choice)].payload
        tally.count_press(session, seat)
        start, made = len(session.game.actions), offers_of_people(session)
        asyncio.run(people.press(user, payload))
        if choice.startswith("send "):
            tally.offers_by_buttons += offers_of_people(session) - made
        return Press(seat, start, table.action_count(game_id))
    return None


@pytest.mark.slow
def test_a_five_player_game_by_taps_alone(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table, seed=5)
    game_id = asyncio.run(people.gather("g1", SEATS))
    tally, presses = play_by_taps(table, people, seed=5)

    record = table.store.load_record(game_id)
    assert record.result is not None
    offers = [a for a in record.actions if isinstance(a, ProposeTrade | CounterTrade)]
    assert len([a for a in offers if a.player < 4]) == tally.offers_by_buttons > 0
    tally.trades_by_buttons = trades_of_people(record, 4)
    assert tally.trades_by_buttons > 0
    fell = decisions_from_record(record, presses, {0, 1, 2, 3})
    for seat, user in enumerate(SEATS[:4]):
        alerts = sum(1 for shown in table.port.private[user] if shown.history[0].alert)
        tally.notified[user] = alerts
        tally.decisions[user] = fell[seat]
    print(tally.summary())
    assert tally.median_taps() <= 4
    assert tally.notified == tally.decisions
