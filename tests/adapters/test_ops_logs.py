"""Logs never hold secrets or game secrets at any level, DEBUG included: libraries are held at
INFO or WARNING whatever bohnanza's level, and a whole game leaves no card name in the log."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bohnanza.adapters.i18n import load_translators
from bohnanza.adapters.logs import LIBRARY_FLOORS, configure_logging
from bohnanza.core.app.i18n import bean_name
from bohnanza.core.app.ports import Capabilities
from bohnanza.core.cards import Variety
from bohnanza.core.ports import FINISHED

from ..app.recording import BUTTONS_AND_EDITS, TEXT_ONLY, People, Table

TOKEN = "7000000001:AAtest-token-BohnanzaTestBot"


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """The root handlers and every library logger's level as they were before the test."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    names = [*LIBRARY_FLOORS, "sqlalchemy.engine", "sqlalchemy.engine.Engine"]
    levels = {name: logging.getLogger(name).level for name in names}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, old in levels.items():
        logging.getLogger(name).setLevel(old)


def card_names() -> re.Pattern[str]:
    """Every bean's name in every language, and the English one-word names ('Chili', 'Red')."""
    words = {v.value for v in Variety} | {
        bean_name(tr, v) for tr in load_translators().values() for v in Variety
    }
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


def leaks(text: str) -> list[str]:
    """Card names and the token, each with the log line it is in."""
    pattern = card_names()
    found = []
    for line in text.splitlines():
        match = pattern.search(line)
        if match or TOKEN.split(":")[1] in line:
            found.append(f"{match.group(0) if match else 'the token'} in {line[:200]!r}")
    return found


# --- the floors --------------------------------------------------------------------------


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_at_debug_bohnanza_logs_debug_and_libraries_log_info_or_warning_at_most(
    restore_logging: None, log_format: str
) -> None:
    stream = io.StringIO()
    configure_logging("DEBUG", log_format, [], stream)
    logging.getLogger("bohnanza.adapters.runner").debug("game g1: seat 2 planted")
    logging.getLogger("telegram.ext.ExtBot").debug("sendMessage {'text': 'Chili Bean'}")
    logging.getLogger("telegram.ext.Application").info("Application started")
    logging.getLogger("httpx").info(f"HTTP Request: POST https://x/bot{TOKEN}/getMe")
    logging.getLogger("httpx").warning("the connection pool is full")
    logging.getLogger("nio.http").info("Handling Http2 event: DataReceived(Red Bean)")
    logging.getLogger("some.library").debug("a body: Soy Bean")
    logging.getLogger("some.library").info("a library's news")
    # A library that lowers its own level (SQLAlchemy's echo does) is still held back.
    engine = logging.getLogger("sqlalchemy.engine.Engine")
    engine.setLevel(logging.DEBUG)
    engine.info("INSERT INTO actions VALUES (?) ['Cocoa Bean']")
    lines = stream.getvalue().splitlines()
    if log_format == "json":
        lines = [f"{e['logger']}: {e['message']}" for e in map(json.loads, lines)]
    said = [line.split(" ", 3)[-1] if log_format == "text" else line for line in lines]
    assert said == [
        "bohnanza.adapters.runner: game g1: seat 2 planted",
        "telegram.ext.Application: Application started",
        "httpx: the connection pool is full",
        "some.library: a library's news",
    ]


def test_the_libraries_stay_quiet_at_a_higher_level_of_ours(restore_logging: None) -> None:
    configure_logging("ERROR", "text", [], io.StringIO())
    assert not logging.getLogger("telegram").isEnabledFor(logging.WARNING)
    assert logging.getLogger("telegram").isEnabledFor(logging.ERROR)
    configure_logging("DEBUG", "text", [], io.StringIO())
    assert not logging.getLogger("httpx").isEnabledFor(logging.INFO)
    assert not logging.getLogger("sqlalchemy.engine").isEnabledFor(logging.INFO)
    assert logging.getLogger("bohnanza.adapters.telegram").isEnabledFor(logging.DEBUG)


def test_the_card_name_pattern_finds_names_in_every_language() -> None:
    pattern = card_names()
    translated = [bean_name(tr, Variety.RED) for tr in load_translators().values()]
    for text in ("Chili", "a Black-eyed Bean", "RED", "soy", *translated):
        assert pattern.search(text), text
    for text in ("stored", "started", "greenlet", "Blueprint"):
        assert not pattern.search(text), text


# --- a whole game --------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("log_format", "seats", "capabilities", "seed"),
    [
        ("text", ["ann", "bot", "bob"], BUTTONS_AND_EDITS, 5),
        ("json", ["ann", "bob", "bot:random", "cat"], TEXT_ONLY, 6),
    ],
    ids=["text", "json"],
)
def test_a_whole_game_at_debug_leaves_no_card_name_in_the_log(
    restore_logging: None,
    tmp_path: Path,
    log_format: str,
    seats: list[str],
    capabilities: Capabilities,
    seed: int,
) -> None:
    stream = io.StringIO()
    configure_logging("DEBUG", log_format, [TOKEN], stream)
    # As `create_engine(echo="debug")` would: statements, their parameters and result rows.
    logging.getLogger("sqlalchemy.engine").setLevel(logging.DEBUG)
    table = Table.open(tmp_path / "games.db", capabilities, seed=seed)
    people = People(table, seed=seed)

    async def scenario() -> str:
        game_id = await people.gather("g1", seats)
        await people.play(["g1"])
        return game_id

    game_id = asyncio.run(scenario())
    summary = next(s for s in table.store.list_games() if s.game_id == game_id)
    assert summary.status == FINISHED and people.moves > 20
    text = stream.getvalue()
    assert "a new store, at schema version" in text  # the log was live: the store's start is in it
    if log_format == "json":
        assert all(isinstance(json.loads(line), dict) for line in text.splitlines())
    assert leaks(text) == []
