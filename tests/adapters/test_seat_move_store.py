"""The store keeps who plays a moved seat with who asked and why, and the claims waiting for
a seat, on SQLite and PostgreSQL; seat moves stored before these were kept stay readable."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text

from bohnanza.adapters.store import database_url, open_store
from bohnanza.adapters.store.database import _MIGRATIONS
from bohnanza.core.app.ports import SeatClaim
from bohnanza.core.ports import SeatIdentity, UnknownGame

from .test_chat_queries import NOW, chat_game, target

__all__ = ["target"]


def claim(game_id: str = "G1", seat: int = 1, user: str = "robert") -> SeatClaim:
    return SeatClaim(game_id, seat, "sim", user, user.title(), "d" * 64, "bob", NOW)


def test_a_seat_move_is_kept_with_who_asked_and_why(target: str) -> None:
    with open_store(target, create=True) as store:
        store.add_game(chat_game("G1", "room-1", ("ann", "bob")))
        robert = SeatIdentity("sim", "robert", "Robert")
        store.move_seat("G1", 1, robert, NOW, asked_by="bob", reason="claimed")
        assert store.seat_moves("G1") == {1: robert}
        assert store.active_games_of("sim", "robert") == ["G1"]
        engine = create_engine(database_url(target))
        with engine.connect() as connection:
            row = connection.execute(text("SELECT asked_by, reason FROM seat_moves")).one()
        engine.dispose()
        assert tuple(row) == ("bob", "claimed")
        with pytest.raises(UnknownGame):
            store.move_seat("NOPE", 0, robert, NOW, asked_by="bob", reason="claimed")


def test_a_claim_waits_for_its_claimant_until_dropped_or_the_seat_moves(target: str) -> None:
    with open_store(target, create=True) as store:
        store.add_game(chat_game("G1", "room-1", ("ann", "bob")))
        store.add_game(chat_game("G2", "room-2", ("bob", "cat")))
        store.save_seat_claim(claim())
        store.save_seat_claim(replace(claim("G2", 0), asked_at=NOW + timedelta(minutes=1)))
        assert store.seat_claims_of("sim", "robert") == [
            claim(),
            replace(claim("G2", 0), asked_at=NOW + timedelta(minutes=1)),
        ]
        assert store.seat_claims_of("sim", "eve") == []
        # A wrong try is kept in place of the claim; a new ask replaces it.
        store.save_seat_claim(replace(claim(), wrong=2))
        assert store.seat_claims_of("sim", "robert")[0].wrong == 2
        store.drop_seat_claim("G2", 0)
        assert store.seat_claims_of("sim", "robert") == [replace(claim(), wrong=2)]
        # The seat moving drops the claim that waited for it.
        robert = SeatIdentity("sim", "robert", "Robert")
        store.move_seat("G1", 1, robert, NOW, asked_by="bob", reason="claimed")
        assert store.seat_claims_of("sim", "robert") == []
        with pytest.raises(UnknownGame):
            store.save_seat_claim(claim("NOPE"))


def test_seat_moves_stored_before_revision_0006_read_back_with_no_reason(target: str) -> None:
    with open_store(target, create=True) as store:
        store.add_game(chat_game("OLD", "room-9", ("ann", "bob")))
    engine = create_engine(database_url(target))
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0005")
        connection.execute(
            text(
                "INSERT INTO seat_moves (game_id, position, platform, user_id, name, moved_at) "
                "VALUES ('OLD', 1, 'sim', 'bob_', 'Bob_', :now)"
            ),
            {"now": NOW},
        )
    with open_store(target, create=True) as store:
        assert store.seat_moves("OLD") == {1: SeatIdentity("sim", "bob_", "Bob_")}
    with engine.connect() as connection:
        row = connection.execute(text("SELECT asked_by, reason FROM seat_moves")).one()
    engine.dispose()
    assert tuple(row) == ("", "")
