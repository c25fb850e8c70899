"""The Telegram settings, from the environment (`BOHNANZA_TELEGRAM_*`), checked before anything
starts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bohnanza.adapters.kit import SettingsError, settings_by_rules

URL = r"(https?://[^\s/?#]+(/\S*)?)?"
RULES = {
    "TOKEN": (None, r"\d+:[\w-]+", "is not a bot token (like 123456:ABC-DEF1234ghIkl)"),
    "MODE": ("polling", r"polling|webhook", "must be polling or webhook"),
    "WEBHOOK_URL": ("", URL, "must be an http(s) URL"),
    "WEBHOOK_SECRET": (
        "",
        r"[A-Za-z0-9_-]{0,256}",
        "may hold only letters, digits, _ and - (at most 256)",
    ),
    "LISTEN": ("127.0.0.1", r"[0-9A-Za-z.:\[\]-]+", "must be an address to listen on"),
    "PORT": ("8443", r"\d{1,5}", "must be a port number"),
    "BASE_URL": ("", URL, "must be an http(s) URL"),
}
"""Per setting (`BOHNANZA_TELEGRAM_` left out): its default (None: required), the form of a
valid value, and what is wrong with another."""


@dataclass(frozen=True)
class TelegramSettings:
    """Where and how to reach Telegram. The token is a secret: it is never logged."""

    token: str
    mode: str = "polling"
    base_url: str | None = None
    """Another Bot API server (a local one), as python-telegram-bot's base_url."""
    webhook_url: str | None = None
    webhook_secret: str | None = None
    listen: str = "127.0.0.1"
    port: int = 8443

    def __repr__(self) -> str:
        return f"TelegramSettings(mode={self.mode!r}, base_url={self.base_url!r}, token=***)"

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> TelegramSettings:
        """The settings, or SettingsError naming the first one that is missing or wrong; the
        same is the platform's `check`, run before any store is opened."""
        found = settings_by_rules(env, "telegram", RULES)
        if found["MODE"] == "webhook" and not found["WEBHOOK_URL"]:
            raise SettingsError("webhook mode needs BOHNANZA_TELEGRAM_WEBHOOK_URL")
        port = int(found["PORT"])
        if not 0 < port < 65536:
            raise SettingsError("BOHNANZA_TELEGRAM_PORT must be a port number")
        return cls(
            token=found["TOKEN"],
            mode=found["MODE"],
            base_url=found["BASE_URL"] or None,
            webhook_url=found["WEBHOOK_URL"] or None,
            webhook_secret=found["WEBHOOK_SECRET"] or None,
            listen=found["LISTEN"],
            port=port,
        )
