"""The web platform's settings, from the environment (`BOHNANZA_WEB_*`), checked before
anything starts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from bohnanza.adapters.kit import SettingsError, settings_by_rules

RULES = {
    "LISTEN": ("127.0.0.1", r"[0-9A-Za-z.:\[\]-]+", "must be an address to listen on"),
    "PORT": ("8090", r"\d{1,5}", "must be a port number"),
    "URL": (
        "",
        r"(https?://[^\s/?#]+(/[^\s?#]*)?)?",
        "must be the board's public address, like https://beans.example.org",
    ),
    "SECRET": (
        None,
        r"\S{32,}",
        "must be at least 32 characters (python3 -c "
        "'import secrets; print(secrets.token_urlsafe(32))' makes one)",
    ),
    "TABLES": ("on", r"on|off", "must be on or off"),
    "LINK_DAYS": ("7", r"[1-9]\d{0,2}", "must be a number of days (1-999)"),
    "INIT_MAX_AGE": ("86400", r"[1-9]\d{1,6}", "must be seconds (10 or more)"),
}
"""Per setting (`BOHNANZA_WEB_` left out): its default (None: required), the form of a valid
value, and what is wrong with another."""

TELEGRAM_TOKEN = "BOHNANZA_TELEGRAM_TOKEN"
"""Telegram's init data is signed with the bot's token: the board checks it with the same."""


@dataclass(frozen=True)
class WebSettings:
    """Where the boards are served, and what signs and checks who opens them. The secret and
    the bot token are never part of the repr."""

    listen: str
    port: int
    url: str
    """The public address before every page's path (behind HTTPS in production), no slash
    at the end."""
    secret: bytes
    tables: bool
    """Tables of the web alone (a lobby page, invitations, bots), besides the boards of the
    chat platforms."""
    link_days: int
    """How long a private link to a board holds (Matrix, IRC)."""
    init_max_age: int
    """The oldest Telegram init data taken, in seconds."""
    telegram_token: str = ""

    def __repr__(self) -> str:
        return (
            f"WebSettings(listen={self.listen!r}, port={self.port}, url={self.url!r}, "
            f"tables={self.tables}, secrets hidden)"
        )

    @property
    def mini_app(self) -> bool:
        """Telegram opens a Mini App only over HTTPS."""
        return self.url.startswith("https://") and bool(self.telegram_token)


def read_settings(env: Mapping[str, str]) -> WebSettings:
    """The settings, or SettingsError naming the first one that is missing or wrong; the same
    function is the platform's `check`, run before any store is opened."""
    found = settings_by_rules(env, "web", RULES)
    port = int(found["PORT"])
    if not 0 < port < 65536:
        raise SettingsError("BOHNANZA_WEB_PORT must be a port number (1-65535)")
    url = found["URL"].rstrip("/")
    if not url:
        host = found["LISTEN"]
        host = f"[{host}]" if ":" in host and not host.startswith("[") else host
        url = f"http://{host}:{port}"
    elif urlsplit(url).hostname is None:
        raise SettingsError("BOHNANZA_WEB_URL must name a host")
    return WebSettings(
        listen=found["LISTEN"].strip("[]"),
        port=port,
        url=url,
        secret=found["SECRET"].encode(),
        tables=found["TABLES"] == "on",
        link_days=int(found["LINK_DAYS"]),
        init_max_age=int(found["INIT_MAX_AGE"]),
        telegram_token=env.get(TELEGRAM_TOKEN, "").strip(),
    )
