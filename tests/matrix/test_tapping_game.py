"""A whole 5-player game on Matrix against a real Synapse, four people and a bot, every move
one short answer: the number of a choice listed in the player's direct room (Matrix has no
buttons), trades included. Counted in the clients: answers per turn, notifying messages
(m.text; the rest are m.notice, which default push rules keep quiet) per decision that fell
to a person, trades made that way."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from bohnanza.core.actions import CounterTrade, ProposeTrade
from bohnanza.core.app.screens import screen_message
from bohnanza.core.audit import audit_game

from ..tapping import (
    Press,
    Tally,
    Tapper,
    command_of,
    decisions_from_record,
    listed_numbers,
    offers_of_people,
    trades_of_people,
)
from .accounts import Account
from .messages import current_messages
from .players import open_player
from .synapse import Homeserver
from .table import RunningBot, Seat, Table, everything_received, hand_leaks, texts_of
from .test_adapter_games import seat_people


async def answer_once(table: Table, game_id: str, tapper: Tapper, tally: Tally) -> Press | None:
    """One person answers his direct room's latest message with the number of his choice."""
    session = table.session()
    assert session is not None
    tr = table.bot.service.translator(session.language)
    order = sorted(session.humans(), key=lambda s: (s not in session.pending(), s))
    for seat in order:
        buttons = [b for row in screen_message(session, seat, tr).buttons for b in row]
        choice = tapper.choose(session, seat, [command_of(b.payload) for b in buttons])
        if choice is None:
            continue
        number, label = listed_numbers(session, seat, tr)[choice]
        person = table.person_at(session, seat)
        direct = table.direct[person.user_id]
        line = f"\n{number} · {label}"
        # He answers what his client shows: the newest message of his direct room.
        await person.wait_for_message(
            lambda m, line=line, direct=direct: (
                m.room_id == direct and m.body.startswith(f"Game {game_id}\n") and line in m.body
            )
        )
        tally.count_press(session, seat)
        start, made = len(session.game.actions), offers_of_people(session)
        await table.say(person, str(number), room=direct)
        # People answer at a person's pace: what the answer caused is delivered first (else
        # the runner rightly folds two undelivered notifications of one player into one).
        assert await table.bot.runner.drain(10.0)
        if choice.startswith("send "):
            tally.offers_by_buttons += offers_of_people(session) - made
        return Press(seat, start, table.running.action_count(game_id))
    return None


@pytest.mark.slow
async def test_a_five_player_game_by_numbers_alone_on_matrix(
    synapse: Homeserver, new_account: Callable[[str], Account], tmp_path: Path
) -> None:
    names = ["ann", "bob", "cat", "dan"]
    accounts = [new_account(name) for name in names]
    running = await RunningBot(synapse, new_account("beanbot"), tmp_path, seed=8).start()
    tapper, tally, presses = Tapper(random.Random(8)), Tally(), []
    async with AsyncExitStack() as stack:
        people = [await stack.enter_async_context(open_player(synapse, a)) for a in accounts]
        room = await seat_people(people[0], people[1:], running.user_id)
        table = Table(running, room, people, seed=8)
        seats: list[Seat] = [*people, "bot"]
        game_id = await table.gather(seats)
        for _ in range(5_000):
            if table.session() is None:
                break
            press = await answer_once(table, game_id, tapper, tally)
            assert press is not None, "nobody can answer, and the game does not move"
            presses.append(press)
        received = {p.user_id: await everything_received(p) for p in people}
    await running.stop()

    stored = running.store.load_stored(game_id)
    assert audit_game(stored) is None
    record = stored.record()
    assert record.result is not None
    offers = [a for a in record.actions if isinstance(a, ProposeTrade | CounterTrade)]
    assert len([a for a in offers if a.player < 4]) == tally.offers_by_buttons > 0
    tally.trades_by_buttons = trades_of_people(record, 4)
    fell = decisions_from_record(record, presses, {0, 1, 2, 3})
    for seat, person in enumerate(people):
        direct = table.direct[person.user_id]
        # From the room's whole history: a busy sync may skip events a client then fetches.
        history = [e for e in received[person.user_id] if e.room_id == direct]
        mine = [
            m
            for m in current_messages(history)
            if m.sender == running.user_id and m.original_body.startswith(f"Game {game_id}\n")
        ]
        tally.notified[person.user_id] = sum(
            m.original_content.get("msgtype") == "m.text" for m in mine
        )
        tally.decisions[person.user_id] = fell[seat]
    # The group room: the table kept current by edits, about twice a turn (turn, trading).
    tables = {
        e.event_id
        for e in received[people[0].user_id]
        if e.room_id == room
        and e.sender == running.user_id
        and any(f"Bohnanza · game {game_id}" in text for text in texts_of(e))
    }
    per_turn = len(tables) / len(tally.taps)
    print(tally.summary(), f"; the table shown {len(tables)} times, {per_turn:.2f} a turn")
    assert per_turn <= 2.3  # 2.27 before the outbound queue (same seed): no worse
    assert tally.trades_by_buttons > 0
    assert tally.median_taps() <= 4
    assert tally.notified == tally.decisions
    assert hand_leaks(running.user_id, running.bot.state.direct_rooms, received) == []
