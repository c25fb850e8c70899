"""Stores to run the same tests against: the in-memory fake, a SQLite file, PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bohnanza.adapters.store import open_store
from bohnanza.core.ports import GameStore

from .fakes import FakeGameStore
from .postgres import postgres_url


@pytest.fixture(params=["fake", "sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    if request.param == "fake":
        yield FakeGameStore()
        return
    target = str(tmp_path / "games.db") if request.param == "sqlite" else postgres_url()
    with open_store(target, create=True) as sql_store:
        yield sql_store
