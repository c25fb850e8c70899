"""A restart in the middle of a game: the stored game is picked up, nothing lost or doubled."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bohnanza.core.app.i18n import English
from bohnanza.core.app.ports import ShownView
from bohnanza.core.app.updates import private_message
from bohnanza.core.audit import audit_game
from bohnanza.core.ports import FINISHED

from .recording import People, Table, hand_leaks

SEATS = ["ann", "bob", "bot", "cat", "bot:random"]
PEOPLE = ["ann", "bob", "cat"]


def half_a_game(tmp_path: Path, moves: int) -> tuple[Table, People]:
    table = Table.open(tmp_path / "games.db", seed=31)
    people = People(table, seed=31)

    async def play() -> None:
        await people.gather("g1", SEATS)
        while people.moves < moves:
            if not await people.move("g1"):
                wake = table.service.next_wakeup()
                assert wake is not None
                table.clock.set(wake)
                await table.runner.tick()

    asyncio.run(play())
    return table, people


@pytest.mark.slow
def test_a_new_service_on_the_same_database_picks_the_game_up_unchanged(tmp_path: Path) -> None:
    table, _ = half_a_game(tmp_path, 120)
    before = table.session("g1")
    game_id = before.game_id

    later = table.restarted()
    assert asyncio.run(later.runner.start()) == 1

    after = later.session("g1")
    assert after.game_id == game_id
    assert after.game.actions == before.game.actions
    assert after.view(None) == before.view(None)
    for seat in range(len(SEATS)):
        assert after.view(seat) == before.view(seat)
        assert after.token(seat) == before.token(seat)
    assert later.action_count(game_id) == len(before.game.actions)
    assert [m.text for m in later.service.hand_of("ann")] == [
        m.text for m in table.service.hand_of("ann")
    ]


def test_a_press_delivered_again_after_a_restart_is_not_applied_twice(tmp_path: Path) -> None:
    table, people = half_a_game(tmp_path, 60)
    session = table.session("g1")
    seat = session.game.waiting_for()[0]
    user = session.seats[seat].identity.user_id
    shown = table.port.hand_message(user, session.game_id)
    assert shown is not None and shown.payloads
    pressed = asyncio.run(people.press(user, shown.payloads[0]))
    count = table.action_count(session.game_id)

    later = table.restarted()
    asyncio.run(later.runner.start())
    answers, sent = len(later.port.answers), len(later.port.private[user])
    asyncio.run(later.runner.submit(pressed))

    # Its delivery id was stored with the move: the press is skipped, not refused anew.
    assert later.action_count(session.game_id) == count
    assert len(later.port.answers) == answers
    assert len(later.port.private[user]) == sent


@pytest.mark.slow
def test_after_a_restart_the_game_is_played_to_its_audited_end(tmp_path: Path) -> None:
    table, _ = half_a_game(tmp_path, 150)
    game_id = table.session("g1").game_id
    played = table.action_count(game_id)
    first_part = table.store.load_record(game_id).actions

    later = table.restarted()
    asyncio.run(later.runner.start())
    asyncio.run(People(later, seed=32).play(["g1"]))

    record = later.store.load_record(game_id)
    assert record.actions[:played] == first_part
    assert len(record.actions) > played
    summary = next(s for s in later.store.list_games() if s.game_id == game_id)
    assert summary.status == FINISHED
    assert summary.actions == len(record.actions)
    assert audit_game(later.store.load_stored(game_id)) is None
    assert later.port.last_room_text("g1").startswith(f"Game {game_id} is over.")
    assert hand_leaks(later.port, "g1", PEOPLE) == []


def test_a_game_altered_in_the_store_is_not_continued_and_says_why(tmp_path: Path) -> None:
    table, _ = half_a_game(tmp_path, 20)
    game_id = table.session("g1").game_id
    with sqlite3.connect(tmp_path / "games.db") as connection:
        connection.execute(
            "UPDATE seats SET name = 'Mallory' WHERE game_id = ? AND position = 0", (game_id,)
        )

    later = table.restarted()
    assert asyncio.run(later.runner.start()) == 0
    assert "seating" in later.service.refused[game_id]
    before = later.action_count(game_id)
    asyncio.run(People(later).say("ann", "table", "g1"))
    assert later.action_count(game_id) == before
    assert later.port.last_answer("ann") == "You are not playing in a game here."


@pytest.mark.slow
def test_a_message_sent_but_not_noted_before_a_crash_leaves_no_stale_message_below(
    tmp_path: Path,
) -> None:
    """The store took no note of a new private message (locked, then the process was killed):
    after the restart the player's newest message about the game shows it as it stands, not
    an older message edited above a stale one."""
    table, people = half_a_game(tmp_path, 60)
    session = table.session("g1")
    game_id = session.game_id
    user = "ann"

    noted = table.store.save_view

    def locked_once_sent(platform: str, chat: str, slot: str, view: ShownView, at: Any) -> None:
        if view.message_id:  # the store is locked from the moment the message went out
            raise sqlite3.OperationalError("database is locked")
        noted(platform, chat, slot, view, at)

    table.store.save_view = locked_once_sent  # type: ignore[method-assign]
    before = len(table.port.private[user])
    asyncio.run(people.say(user, "hand", private=True))  # posted anew, below the last one
    assert len(table.port.private[user]) == before + 1

    later = table.restarted()
    asyncio.run(later.runner.start())
    later_people = People(later, seed=32)
    moved = later.action_count(game_id)
    while later.action_count(game_id) == moved:  # the game goes on after the restart
        assert asyncio.run(later_people.move("g1"))
    now = later.session("g1")
    seat = now.seat_of(user)
    assert seat is not None
    wanted = private_message(now, seat, English(), later.port.capabilities)
    newest = later.port.hand_message(user, game_id)
    assert newest is not None and newest.text == wanted.text
