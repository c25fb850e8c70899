"""The store finds games by room and by player, keeps lobbies with versions, and migrates
games stored before rooms had columns."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine

from bohnanza.adapters.store import database_url, open_store
from bohnanza.adapters.store.database import _MIGRATIONS
from bohnanza.core.ports import NewGame, SeatIdentity
from bohnanza.core.table_setup import setup_for

from .postgres import postgres_url

NOW = datetime(2025, 1, 1, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "games.db") if request.param == "sqlite" else postgres_url()


def chat_game(game_id: str, room: str, users: tuple[str, ...]) -> NewGame:
    seats = tuple(SeatIdentity("sim", user, user) for user in users)
    options: dict[str, str | int] = {"platform": "sim", "room": room, "language": "en"}
    return NewGame(game_id, seats, tuple(setup_for(len(users)).cards_in_play()), NOW, options)


def test_games_are_found_by_room_and_by_player(target: str) -> None:
    with open_store(target, create=True) as store:
        store.add_game(chat_game("G1", "room-1", ("ann", "bob")))
        store.add_game(chat_game("G2", "room-2", ("bob", "cat")))
        assert store.active_game_in("sim", "room-1") == "G1"
        assert store.active_game_in("telegram", "room-1") is None
        assert store.active_games_of("sim", "bob") == ["G1", "G2"]
        progress = store.game_progress("G1")
        assert progress is not None and tuple(progress) == ("in-progress", 0, 0)
        assert store.game_progress("nope") is None
        store.ping()


def test_of_two_changes_to_one_lobby_version_only_the_first_lands(target: str) -> None:
    with open_store(target, create=True) as store:
        assert store.save_lobby("sim", "r", {"seats": ["ann"]}, 0, NOW)
        assert not store.save_lobby("sim", "r", {"seats": ["bob"]}, 0, NOW)
        assert store.save_lobby("sim", "r", {"seats": ["ann", "bob"]}, 1, NOW)
        assert not store.save_lobby("sim", "r", {"seats": ["ann", "cat"]}, 1, NOW)
        lobby = store.load_lobby("sim", "r")
        assert lobby is not None and lobby.data == {"seats": ["ann", "bob"]} and lobby.version == 2
        assert not store.drop_lobby("sim", "r", 1)
        assert store.drop_lobby("sim", "r", 2)
        assert store.load_lobby("sim", "r") is None


def test_games_stored_before_revision_0002_are_found_by_room_after_it(target: str) -> None:
    with open_store(target, create=True) as store:
        store.add_game(chat_game("OLD", "room-9", ("ann", "bob")))
    engine = create_engine(database_url(target))
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")
    engine.dispose()
    with open_store(target, create=True) as store:
        assert store.active_game_in("sim", "room-9") == "OLD"
