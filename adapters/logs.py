"""Logging for a running bot: text or JSON lines, and never a secret.

`RedactingFilter` replaces every secret it was given (tokens, passwords) and anything shaped like
a Telegram bot token or a password in a URL with `***`, in the message, its arguments and any
traceback, before a handler formats the record.

The chosen level is bohnanza's own. Libraries never log below `LIBRARY_FLOORS` (INFO for any
other): at DEBUG, python-telegram-bot, httpx and matrix-nio write request URLs and bodies (the
token, the players' hands) and SQLAlchemy writes statements with their parameters and rows.
`LevelFloor` drops such records at the handler too, whatever level a library set itself.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TextIO

MASK = "***"
_PATTERNS = (
    # A Telegram bot token (python-telegram-bot and httpx log request URLs that hold it).
    re.compile(r"(?<![0-9])\d{5,}:[A-Za-z0-9_-]{30,}"),
    # A password in a URL: scheme://user:password@host.
    re.compile(r"(?<=://)([^:/@\s]+):([^@\s]+)(?=@)"),
)


class RedactingFilter(logging.Filter):
    """Hides secrets in every record that passes through."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self._secrets = sorted({s for s in secrets if len(s) >= 4}, key=len, reverse=True)

    def redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, MASK)
        text = _PATTERNS[0].sub(MASK, text)
        return _PATTERNS[1].sub(lambda m: f"{m.group(1)}:{MASK}", text)

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self.redact(record.getMessage())
        record.args = None
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = self.redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        return True


OWN_LOGGERS = "bohnanza"
"""bohnanza's loggers (`bohnanza.*`) log at the chosen level; they never log what players say."""
LIBRARY_FLOOR = logging.INFO
"""The lowest level any library logs at."""
LIBRARY_FLOORS: dict[str, int] = {
    "telegram": logging.INFO,
    "alembic": logging.INFO,
    # INFO and below hold request URLs (the bot token in them), headers or bodies.
    "httpx": logging.WARNING,
    "httpcore": logging.WARNING,
    "h11": logging.WARNING,
    "h2": logging.WARNING,
    "hpack": logging.WARNING,
    "aiohttp": logging.WARNING,
    "urllib3": logging.WARNING,
    "nio": logging.WARNING,
    # INFO and below hold SQL parameters and result rows (the stored actions).
    "sqlalchemy": logging.WARNING,
    "psycopg": logging.WARNING,
    "peewee": logging.WARNING,
}


def library_floor(name: str) -> int | None:
    """The lowest level the logger `name` may write at; None for bohnanza's own loggers."""
    top = name.split(".", 1)[0]
    if top == OWN_LOGGERS:
        return None
    return LIBRARY_FLOORS.get(top, LIBRARY_FLOOR)


class LevelFloor(logging.Filter):
    """Drops a library's records below its floor, even if the library lowered its own level."""

    def filter(self, record: logging.LogRecord) -> bool:
        floor = library_floor(record.name)
        return floor is None or record.levelno >= floor


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message (and the traceback, if any)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["error"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False)


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(
    level: str = "INFO",
    log_format: str = "text",
    secrets: Iterable[str] = (),
    stream: TextIO | None = None,
) -> logging.Handler:
    """Send every log record to `stream` (stderr), formatted and with secrets hidden."""
    handler = logging.StreamHandler(stream or sys.stderr)
    formatter = JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    handler.setFormatter(formatter)
    handler.addFilter(LevelFloor())
    handler.addFilter(RedactingFilter(secrets))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    quiet_libraries(logging.getLevelNamesMapping()[level])
    return handler


def quiet_libraries(level: int) -> None:
    """Set the known libraries' loggers to their floor, or to `level` if that is higher, so that
    they do not even build the records the handler would drop."""
    for name, floor in LIBRARY_FLOORS.items():
        logging.getLogger(name).setLevel(max(floor, level))
