"""Log lines, text or JSON, never hold a secret: not in a message, its arguments, a traceback."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bohnanza.adapters.logs import configure_logging

TOKEN = "123456789:AAH-abcdefghijklmnopqrstuvwxyz0123456"


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def test_json_lines_hold_no_token_password_or_url_password(restore_logging: None) -> None:
    stream = io.StringIO()
    configure_logging("INFO", "json", ["matrix-password"], stream)
    log = logging.getLogger("bohnanza.test")
    log.info("POST https://api.telegram.org/bot%s/getUpdates", TOKEN)
    log.warning("login as @bot:example.org with %s failed", "matrix-password")
    log.info("store postgresql://bot:db-secret@db/games opened")
    try:
        raise RuntimeError(f"request to bot{TOKEN} failed")
    except RuntimeError:
        log.exception("delivering failed")
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [line["level"] for line in lines] == ["INFO", "WARNING", "INFO", "ERROR"]
    assert lines[0]["message"] == "POST https://api.telegram.org/bot***/getUpdates"
    assert lines[1]["message"] == "login as @bot:example.org with *** failed"
    assert lines[2]["message"] == "store postgresql://bot:***@db/games opened"
    assert "RuntimeError" in lines[3]["error"]
    text = stream.getvalue()
    for secret in (TOKEN, "matrix-password", "db-secret"):
        assert secret not in text


def test_text_lines_are_redacted_too(restore_logging: None) -> None:
    stream = io.StringIO()
    configure_logging("INFO", "text", ["hook-secret"], stream)
    logging.getLogger("x").info("webhook secret is %s", "hook-secret")
    assert stream.getvalue().rstrip().endswith("x: webhook secret is ***")
