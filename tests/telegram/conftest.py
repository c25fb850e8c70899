"""Fixtures for tests against the simulated Bot API.

The server is created unstarted, because it must run in the test's own event loop:
write `run(scenario())` with `async with botapi:` inside the scenario.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.util import find_spec
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .botapi import BotApiServer, World

# Without the Telegram test dependencies this directory is skipped rather than failing.
_MISSING = [name for name in ("aiohttp", "telegram") if find_spec(name) is None]
collect_ignore_glob = ["*.py", "botapi/*"] if _MISSING else []


@pytest.fixture
def world() -> World:
    """A fresh Telegram with one bot and nobody else."""
    from .botapi import World

    return World()


@pytest.fixture
def botapi(world: World) -> Iterator[BotApiServer]:
    """A Bot API server for `world`, started by `async with botapi:` inside the test.

    A test fails if the server itself crashed on some request.
    """
    from .botapi import BotApiServer

    yield BotApiServer(world, webhook_retry_delays=(0.05, 0.1, 0.2))
    assert world.server_errors == []
