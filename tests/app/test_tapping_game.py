"""A whole 5-player game played by tapping only: four people and a bot, every move a button
of the player's private message (trades built with the picker). Counted: taps per turn,
notifications per decision that fell to a person, trades made by buttons."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bohnanza.core.actions import AcceptTrade, CounterTrade, ProposeTrade
from bohnanza.core.app.session import GameSession
from bohnanza.core.record import GameRecord

from ..tapping import Tally, Tapper, command_of, fallen, pending_people
from .recording import People, Table, user_of

SEATS = ["ann", "bob", "cid", "dan", "bot"]


def play_by_taps(table: Table, people: People, seed: int) -> Tally:
    tapper = Tapper(random.Random(seed))
    tally = Tally()
    game_id = table.session("g1").game_id
    for _ in range(5_000):
        session = table.service.games.get("g1")
        if session is None:
            return tally
        assert tap_once(table, people, session, game_id, tapper, tally), "nobody can tap"
    raise AssertionError("the game did not end")


def tap_once(
    table: Table, people: People, session: GameSession, game_id: str, tapper: Tapper, tally: Tally
) -> bool:
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
        before = pending_people(session)
        tally.count_press(session, seat)
        made = offer_count(session)
        asyncio.run(people.press(user, payload))
        if choice.startswith("send "):
            tally.offers_by_buttons += offer_count(session) - made
        after = table.service.games.get("g1")
        for other in fallen(before, pending_people(after) if after else set(), seat):
            tally.decisions[user_of(session, other)] += 1
        return True
    return False


def offer_count(session: GameSession) -> int:
    """Offers made so far by people (an offer to anyone counts once per partner)."""
    return sum(
        isinstance(a, ProposeTrade | CounterTrade) and session.seats[a.player].is_human
        for a in session.game.actions
    )


def trades_of_people(record: GameRecord, people: int) -> int:
    """Trades a person made: he accepted an offer, or one he made was accepted (offers are
    numbered from 1 in the order they were made)."""
    offers = [a for a in record.actions if isinstance(a, ProposeTrade | CounterTrade)]
    accepted = [a for a in record.actions if isinstance(a, AcceptTrade)]
    return sum(a.player < people or offers[a.offer - 1].player < people for a in accepted)


def test_a_five_player_game_by_taps_alone(tmp_path: Path) -> None:
    table = Table.open(tmp_path / "games.db")
    people = People(table, seed=5)
    game_id = asyncio.run(people.gather("g1", SEATS))
    tally = play_by_taps(table, people, seed=5)

    record = table.store.load_record(game_id)
    assert record.result is not None
    offers = [a for a in record.actions if isinstance(a, ProposeTrade | CounterTrade)]
    assert len([a for a in offers if a.player < 4]) == tally.offers_by_buttons > 0
    tally.trades_by_buttons = trades_of_people(record, 4)
    assert tally.trades_by_buttons > 0
    for user in SEATS[:4]:
        alerts = sum(1 for shown in table.port.private[user] if shown.history[0].alert)
        tally.notified[user] = alerts
    print(tally.summary())
    assert tally.median_taps() <= 4
    assert tally.notified == tally.decisions
