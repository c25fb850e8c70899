"""Whole games on Matrix: people type '!bean' commands in the room and plain commands in the
direct rooms the bot opens, bots fill seats, and the result reaches the room."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from bohnanza.core.actions import AcceptTrade, CounterTrade, DeclineTrade, ProposeTrade
from bohnanza.core.audit import audit_game
from bohnanza.core.ports import FINISHED

from .accounts import Account
from .players import Player, open_player
from .synapse import Homeserver
from .table import RunningBot, Seat, Table, everything_received, hand_leaks, texts_of


def trades_by(running: RunningBot, game_id: str) -> Counter[str]:
    """Trading actions of the stored game, by kind and by who made them (person or bot)."""
    stored = running.store.load_stored(game_id)
    seats = stored.game.seats
    kinds: Counter[str] = Counter()
    for action in stored.record().actions:
        if isinstance(action, ProposeTrade | CounterTrade | AcceptTrade | DeclineTrade):
            kinds[f"{seats[action.player].kind} {action.kind}"] += 1
    return kinds


async def seat_people(host: Player, guests: list[Player], bot: str) -> str:
    """The host opens a room, invites the others and the bot; everyone is in when it returns."""
    room = await host.create_room(invite=[bot, *(g.user_id for g in guests)], name="Bean table")
    for guest in guests:
        await guest.wait_for_invite(room)
        await guest.join(room)
    await host.wait_for_member(room, bot)
    return room


@pytest.mark.slow
@pytest.mark.parametrize(
    ("layout", "seed"),
    [("PB", 3), ("PBPBB", 5)],
    ids=["a person and a bot", "two people and three bots"],
)
async def test_people_and_bots_play_a_whole_game_in_a_room_to_its_result(
    synapse: Homeserver,
    new_account: Callable[[str], Account],
    tmp_path: Path,
    layout: str,
    seed: int,
) -> None:
    names = ["ann", "bob", "cat", "dan", "eve"]
    accounts = [new_account(names[i]) for i, kind in enumerate(layout) if kind == "P"]
    running = await RunningBot(synapse, new_account("beanbot"), tmp_path, seed=seed).start()
    async with AsyncExitStack() as stack:
        people = [await stack.enter_async_context(open_player(synapse, a)) for a in accounts]
        room = await seat_people(people[0], people[1:], running.user_id)
        table = Table(running, room, people, seed=seed)
        queue = iter(people)
        seats: list[Seat] = [next(queue) if kind == "P" else "bot" for kind in layout]
        game_id = await table.gather(seats)
        await table.play()
        result = await people[-1].wait_for_message(
            lambda m: m.room_id == room and m.body.startswith(f"Game {game_id} is over.")
        )
        received = {p.user_id: await everything_received(p) for p in people}
    await running.stop()

    assert "Winner: " in result.body
    assert result.sender == running.user_id and result.msgtype == "m.notice"
    greetings = {
        m.event_id: text
        for m in received[people[0].user_id]
        for text in texts_of(m)[:1]
        if m.room_id == room and text.startswith("Hello! I run games")
    }
    assert len(greetings) == 1 and "'!bean new'" in next(iter(greetings.values()))
    summary = next(s for s in running.store.list_games() if s.game_id == game_id)
    assert summary.status == FINISHED
    assert audit_game(running.store.load_stored(game_id)) is None
    assert table.in_room > 10 and table.in_private > 10
    assert hand_leaks(running.user_id, table.direct, received) == []
    if len(layout) > 2:  # two players play the bean duel, which has no trading
        trades = trades_by(running, game_id)
        assert trades["human propose-trade"] > 0, trades
        answers = sum(n for k, n in trades.items() if k.endswith(("accept-trade", "decline-trade")))
        assert answers > 0, trades
