"""Many open games on one worker: the clock wakes only the games with something due, found by
the moment the store keeps with each game; memory holds a bounded number of games, and a game
it dropped (or never read, after a restart) goes on where it was when it is next asked for.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bohnanza.adapters.store import open_store
from bohnanza.core.app import turns
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Outbound, ToRoom
from bohnanza.core.app.ports import Capabilities
from bohnanza.core.app.service import ChatService
from bohnanza.core.app.session import GameSession
from bohnanza.core.state import Step

PLATFORM = "test"
CAPS = Capabilities()
NOW = datetime(2025, 1, 1, tzinfo=UTC)
DEADLINE = timedelta(minutes=10)


def say(
    service: ChatService, user: str, room: str, text: str, now: datetime = NOW
) -> list[Outbound]:
    return service.handle(Inbound(PLATFORM, user, user, room, text), now)


def open_games(service: ChatService, rooms: list[str], now: datetime = NOW) -> None:
    """A game with 10-minute deadlines in each room: its opener, a bot and a second person."""
    for room in rooms:
        opener, other = f"{room}-ann", f"{room}-bob"
        say(service, opener, room, "new", now)
        say(service, opener, room, "bot", now)
        say(service, other, room, "join", now)
        say(service, opener, room, "set deadline 10m", now)
        say(service, opener, room, "start", now)


def service_on(path: Path, kept: int = 500, seed: int = 1) -> ChatService:
    store = open_store(str(path), create=True)
    service = ChatService(PLATFORM, CAPS, store, rng=random.Random(seed))
    service.ctx.tables.kept = kept
    return service


def test_the_store_keeps_each_games_next_due_moment(tmp_path: Path) -> None:
    service = service_on(tmp_path / "games.db")
    open_games(service, ["r1"])
    session = service.games["r1"]
    stored = service.store.load_chat_state(session.game_id)

    assert stored is not None
    assert stored.due_at is not None
    assert stored.due_at == turns.next_wakeup(session)
    assert service.next_wakeup() == stored.due_at
    assert NOW < stored.due_at <= NOW + DEADLINE


def test_a_tick_with_nothing_due_reads_no_game(tmp_path: Path) -> None:
    open_games(service_on(tmp_path / "games.db"), ["r1", "r2", "r3"])
    later = service_on(tmp_path / "games.db", seed=2)  # a restart: memory holds nothing

    assert later.tick(NOW + timedelta(minutes=1)) == []
    assert later.games == {}
    assert later.next_wakeup() is not None


def test_a_deadline_is_played_in_a_game_memory_does_not_hold(tmp_path: Path) -> None:
    open_games(service_on(tmp_path / "games.db"), ["r1", "r2", "r3"])
    later = service_on(tmp_path / "games.db", seed=2)
    due = later.next_wakeup()
    assert due is not None

    out = later.tick(NOW + DEADLINE + timedelta(seconds=1))

    # Every game was due at once (all three started at NOW): each was read and moved on.
    assert sorted(later.games) == ["r1", "r2", "r3"]
    for session in later.games.values():
        assert len(session.game.actions) > 0
        assert session.seats[0].misses == 1 or session.state.active != 0
    assert any(isinstance(o, ToRoom) for o in out)
    following = later.next_wakeup()
    assert following is not None and following > NOW + DEADLINE


def test_memory_keeps_the_games_used_last_and_takes_up_the_others_again(
    tmp_path: Path,
) -> None:
    service = service_on(tmp_path / "games.db", kept=2)
    rooms = ["r1", "r2", "r3", "r4"]
    open_games(service, rooms)
    later = service_on(tmp_path / "games.db", kept=2, seed=2)

    for room in rooms:
        later.views(room, NOW)
        assert len(later.games) <= 2
    assert list(later.games) == ["r3", "r4"]

    # The first game was dropped from memory: its player goes on where he was.
    first = service.ctx.tables.room_session("r1")
    assert first is not None
    active = first.state.active
    player = first.seats[active].identity.user_id
    assert first.state.step is Step.PLANT
    said = say(later, player, "r1", "plant 1")
    assert said
    session = later.games["r1"]
    assert len(session.game.actions) == len(first.game.actions) + 1
    assert len(later.games) <= 2

    # What the boards look up by id or room finds a game memory dropped, and no other.
    dropped = next(room for room in rooms if room not in later.games)
    found = later.ctx.tables.game_in_room(dropped)
    assert found is not None and found.room == dropped
    assert later.ctx.tables.game_in_progress(found.game_id) is found
    assert later.ctx.tables.game_in_progress("NOSUCH") is None
    assert later.ctx.tables.game_in_room("nowhere") is None


def _two_workers(tmp_path: Path) -> tuple[ChatService, ChatService, GameSession]:
    """Two services on one store, and the second one's copy of the game of room r1."""
    one = service_on(tmp_path / "games.db")
    open_games(one, ["r1"])
    two = service_on(tmp_path / "games.db", seed=2)
    copy = two.ctx.tables.room_session("r1")
    assert copy is not None
    return one, two, copy


def test_a_copy_behind_another_worker_catches_up_by_the_actions_it_lacks(
    tmp_path: Path,
) -> None:
    one, two, copy = _two_workers(tmp_path)
    played = one.games["r1"]
    # The first worker plays on as the deadlines decide for the people: planting, trading,
    # the bot's turn, stand-ins taking over.
    for ticks in range(1, 5):
        one.tick(NOW + ticks * DEADLINE)
    played = one.games["r1"]
    assert len(played.game.actions) > len(copy.game.actions) + 10

    caught = two.ctx.tables.room_session("r1")

    assert caught is copy  # the same game in memory, brought forward, not rebuilt
    assert caught.game.actions == played.game.actions
    assert caught.state == played.state
    assert caught.chat_state().data == played.chat_state().data
    assert caught.story.table_story == played.story.table_story


def test_a_command_to_a_copy_behind_reads_what_it_lacks_with_its_delivery_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two, copy = _two_workers(tmp_path)
    one.tick(NOW + DEADLINE)  # the first worker plays the deadlines on
    played = one.games["r1"]
    assert len(played.game.actions) > len(copy.game.actions)
    reads: list[str] = []
    for name in ("delivery_seen", "game_progress", "delivery_seen_and_since", "game_since"):
        method = getattr(two.store, name)
        monkeypatch.setattr(
            two.store, name, lambda *args, _m=method, _n=name: reads.append(_n) or _m(*args)
        )

    said = two.handle(Inbound(PLATFORM, "r1-ann", "r1-ann", "r1", "hand", "u-1"), NOW + DEADLINE)

    assert said
    assert reads == ["delivery_seen_and_since"]
    assert two.games["r1"] is copy  # brought forward, not rebuilt
    assert copy.game.actions == played.game.actions
    assert copy.state == played.state


def test_a_command_to_a_game_memory_does_not_hold_finds_it_with_its_delivery_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = service_on(tmp_path / "games.db")
    open_games(first, ["r1"])
    later = service_on(tmp_path / "games.db", seed=2)  # a restart: memory holds nothing
    reads: list[str] = []
    for name in ("delivery_seen", "active_game_in", "delivery_seen_and_room_game"):
        method = getattr(later.store, name)
        monkeypatch.setattr(
            later.store, name, lambda *args, _m=method, _n=name: reads.append(_n) or _m(*args)
        )

    said = later.handle(Inbound(PLATFORM, "r1-ann", "r1-ann", "r1", "hand", "u-1"), NOW)

    assert said
    assert reads == ["delivery_seen_and_room_game"]
    assert later.games["r1"].game.actions == first.games["r1"].game.actions
    reads.clear()
    assert later.handle(Inbound(PLATFORM, "r2-ann", "r2-ann", "r2", "new", "u-2"), NOW)
    assert reads == ["delivery_seen_and_room_game"]  # no game there: a lobby opens
    assert "r2" in later.lobbies


def test_a_due_moment_altered_in_the_store_hides_no_other_and_is_written_anew(
    tmp_path: Path,
) -> None:
    open_games(service_on(tmp_path / "games.db"), ["r1", "r2"])
    with sqlite3.connect(tmp_path / "games.db") as connection:
        connection.execute(
            "UPDATE chat_states SET due_at = '!not a time' WHERE game_id = "
            "(SELECT id FROM games WHERE room = 'r1')"
        )
    later = service_on(tmp_path / "games.db", seed=2)
    other = later.store.load_chat_state(later.store.active_game_in(PLATFORM, "r2") or "")
    assert other is not None and other.due_at is not None

    assert later.next_wakeup() == other.due_at
    later.tick(NOW + timedelta(minutes=1))  # the altered one is looked at, and nothing breaks
    session = later.ctx.tables.room_session("r1")
    assert session is not None
    stored = later.store.load_chat_state(session.game_id)
    assert stored is not None
    assert stored.due_at == turns.next_wakeup(session)
