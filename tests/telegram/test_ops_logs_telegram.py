"""A whole Telegram game with the bot's logging at DEBUG, text and JSON: python-telegram-bot and
httpx would log every request's URL (the token) and body (the hands) at DEBUG and INFO; none of
it reaches the log, and neither does anything of bohnanza's own about a hand."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bohnanza.adapters.logs import LIBRARY_FLOORS, configure_logging
from bohnanza.core.ports import FINISHED

from ..adapters.test_ops_logs import card_names
from .botapi import BotApiServer, World
from .botapi.ptb import run
from .table import Players, RunningBot

pytestmark = pytest.mark.server  # the local Bot API server


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in LIBRARY_FLOORS}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, old in levels.items():
        logging.getLogger(name).setLevel(old)


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_a_whole_game_on_telegram_at_debug_logs_no_card_and_no_token(
    world: World, botapi: BotApiServer, tmp_path: Path, restore_logging: None, log_format: str
) -> None:
    stream = io.StringIO()
    # No secrets handed to the filter: what keeps the token out here is the libraries' floor.
    configure_logging("DEBUG", log_format, [], stream)
    people = [world.create_user(name) for name in ("Ann", "Bob")]
    group = world.create_group("Bean table", people)
    world.add_bot(group, by=people[0])

    async def scenario() -> tuple[RunningBot, str]:
        async with botapi, RunningBot(botapi, tmp_path / "games.db", seed=3) as running:
            for person in people:
                person.start_bot()
            await world.settle()
            players = Players(running, group, people, seed=3)
            game_id = await players.gather(["Ann", "Bob"])
            await players.play()
            await world.settle()
            return running, game_id

    running, game_id = run(scenario())
    summary = next(s for s in running.store.list_games() if s.game_id == game_id)
    assert summary.status == FINISHED
    text = stream.getvalue()
    assert "Application started" in text  # the log was live, python-telegram-bot's INFO in it
    lines = text.splitlines()
    if log_format == "json":
        assert all(isinstance(json.loads(line), dict) for line in lines)
    secret = world.token.split(":")[1]
    assert [line for line in lines if secret in line] == []
    pattern = card_names()
    assert [line[:200] for line in lines if pattern.search(line)] == []
