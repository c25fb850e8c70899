"""A player's rename on the platform (an IRC nick change) is stored before memory keeps it, and,
while the store refuses, tried again as an input would be until it is stored: the platform says
it only once. Through the runner with IRC's capabilities and its line translation."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

from bohnanza.core.ports import StoreError

from .platform_people import IrcPeople, platform_table, restarted
from .recording import Table

ROOM = "#beans"


@contextlib.contextmanager
def refusing_store(table: Table) -> Iterator[None]:
    """The store refuses every write meanwhile (a database that is locked or away)."""
    atomic = table.store.atomic

    def refused() -> contextlib.AbstractContextManager[None]:
        raise StoreError("games.db: database is locked")

    table.store.atomic = refused  # type: ignore[method-assign]
    try:
        yield
    finally:
        table.store.atomic = atomic  # type: ignore[method-assign]


def irc_game(tmp_path: Path) -> tuple[Table, IrcPeople]:
    table = platform_table(tmp_path / "games.db", "irc")
    people = IrcPeople(table)
    asyncio.run(people.gather(ROOM, ["ann", "bob", "cat"]))
    return table, people


async def nick_change(table: Table, old: str, new: str) -> None:
    """NICK as the IRC adapter hands it on; a line that fails is only logged there."""
    with contextlib.suppress(StoreError):
        await table.runner.rename(old, new, new.title())


def test_a_nick_change_the_store_refused_is_kept_out_of_memory_and_stored_with_the_next_input(
    tmp_path: Path,
) -> None:
    table, people = irc_game(tmp_path)

    game_id = table.session(ROOM).game_id
    with refusing_store(table):
        asyncio.run(nick_change(table, "bob", "robert"))
        # Memory holds no move the store lacks (the game is read from the store anew).
        assert table.service.sessions_of("robert") == []
        assert table.store.active_games_of("irc", "bob") == [game_id]

    asyncio.run(people.say("robert", "hand", ROOM))  # the store is back

    session = table.session(ROOM)
    assert (session.seat_of("bob"), session.seat_of("robert")) == (None, 1)
    assert "bob's seat is now played by Robert." in table.port.room_texts(ROOM)
    again = restarted(table)
    asyncio.run(again.runner.start())
    assert again.service.games[ROOM].seat_of("robert") == 1
    assert again.store.active_games_of("irc", "robert") == [game_id]


def test_the_deadline_loop_stores_a_waiting_nick_change_once_the_store_is_back(
    tmp_path: Path,
) -> None:
    table, _ = irc_game(tmp_path)

    async def scenario() -> None:
        with refusing_store(table):
            await nick_change(table, "bob", "robert")
            await nick_change(table, "robert", "rob")  # a second, in order after the first
            with contextlib.suppress(StoreError):
                await table.runner.tick()
        await table.runner.tick()

    asyncio.run(scenario())
    session = table.session(ROOM)
    assert session.seat_of("rob") == 1 and session.seat_of("bob") is None
    said = table.port.room_texts(ROOM)
    assert "bob's seat is now played by Robert." in said
    assert "Robert's seat is now played by Rob." in said
    assert restarted(table).store.active_games_of("irc", "rob") == [session.game_id]
