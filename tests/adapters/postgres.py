"""The PostgreSQL server for the tests, found through BOHNANZA_TEST_POSTGRES_URL."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import create_engine, text

from bohnanza.adapters.store import database_url

ENV = "BOHNANZA_TEST_POSTGRES_URL"
SKIP_REASON = f"no PostgreSQL server: set {ENV} to a database URL (.ci/run starts one)"


def postgres_url() -> str:
    """The URL of an empty test database, or skip the test and say why."""
    url = os.environ.get(ENV)
    if not url:
        pytest.skip(SKIP_REASON)
    engine = create_engine(database_url(url))
    with engine.begin() as connection:
        connection.execute(
            text(
                "DROP TABLE IF EXISTS ratings, rating_boards, seat_claims, seat_moves, deliveries, "
                "chat_states, views, "
                "player_settings, actions, "
                "seats, games, lobbies, alembic_version"
            )
        )
    engine.dispose()
    return url
