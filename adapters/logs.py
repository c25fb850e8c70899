"""Logging for a running bot: text or JSON lines, and never a secret.

`RedactingFilter` replaces every secret it was given (tokens, passwords) and anything shaped like
a Telegram bot token or a password in a URL with `***`, in the message, its arguments and any
traceback, before a handler formats the record.
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
    handler.addFilter(RedactingFilter(secrets))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
