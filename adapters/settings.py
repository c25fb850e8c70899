"""The bot's settings: a TOML file and the environment, checked once at start.

The file (`--config FILE` or `BOHNANZA_CONFIG`) holds top-level keys and one table per
platform; each becomes the environment variable of the same name, so both spell a setting
alike and the environment wins:

    db = "postgresql://bohnanza@db/bohnanza"   # BOHNANZA_DB
    log_format = "json"                          # BOHNANZA_LOG_FORMAT
    [telegram]
    mode = "webhook"                             # BOHNANZA_TELEGRAM_MODE

Platforms read their own keys from the merged mapping (`ServeContext.settings`). Secrets (tokens,
passwords, the database password) are never part of a repr or a log line.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from .store.database import display_name

PREFIX = "BOHNANZA_"
LOG_FORMATS = ("text", "json")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
SECRET_WORDS = ("TOKEN", "PASSWORD", "SECRET")
"""A setting whose name holds one of these is a secret."""


class SettingsError(ValueError):
    """A setting is missing or wrong; the message is one line naming it."""


@dataclass(frozen=True)
class Settings:
    """What `bohnanza serve` itself needs; the platforms' own keys stay in `values`."""

    db: str | None = None
    log_level: str = "INFO"
    log_format: str = "text"
    health_port: int | None = None
    health_listen: str = "0.0.0.0"
    stop_timeout: float = 10.0
    """Seconds a stop (SIGTERM, SIGINT) may take to finish the input in hand and deliver."""
    values: Mapping[str, str] = field(default_factory=dict, repr=False)
    """Every setting, file and environment merged, by its environment name."""

    def __repr__(self) -> str:
        db = None if self.db is None else display_name(self.db)
        return (
            f"Settings(db={db!r}, log_level={self.log_level!r}, log_format={self.log_format!r}, "
            f"health_port={self.health_port!r}, health_listen={self.health_listen!r})"
        )

    def secrets(self) -> list[str]:
        """The secret values, for the log filter to hide."""
        found = [
            value
            for name, value in self.values.items()
            if name.startswith(PREFIX) and any(word in name for word in SECRET_WORDS) and value
        ]
        if self.db and "://" in self.db:
            password = _url_password(self.db)
            if password:
                found.append(password)
        return found


def load_settings(env: Mapping[str, str], config: str | None = None) -> Settings:
    """Settings from the file (`config`, else `BOHNANZA_CONFIG`) under the environment."""
    path = config or env.get(PREFIX + "CONFIG") or None
    merged: dict[str, str] = {}
    if path:
        merged.update(read_config(Path(path)))
    merged.update(env)
    return _checked(merged)


def read_config(path: Path) -> dict[str, str]:
    """A TOML file's settings by their environment names; SettingsError in one line."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise SettingsError(f"{path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise SettingsError(f"{path}: not a text file") from None
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"{path}: not valid TOML: {error}") from None
    out: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            for inner, item in value.items():
                out[_name(path, f"{key}_{inner}", item)] = _text(path, f"{key}.{inner}", item)
        else:
            out[_name(path, key, value)] = _text(path, key, value)
    return out


def _name(path: Path, key: str, value: object) -> str:
    if isinstance(value, dict):
        raise SettingsError(f"{path}: {key}: tables go one level deep ([telegram], [matrix])")
    return PREFIX + key.upper().replace("-", "_").replace(".", "_")


def _text(path: Path, key: str, value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return str(value)
    raise SettingsError(f"{path}: {key} must be a string, a number or true/false")


def _checked(values: dict[str, str]) -> Settings:
    level = values.get(PREFIX + "LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise SettingsError(f"BOHNANZA_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
    log_format = values.get(PREFIX + "LOG_FORMAT", "text").strip().lower() or "text"
    if log_format not in LOG_FORMATS:
        raise SettingsError("BOHNANZA_LOG_FORMAT must be text or json")
    port_text = values.get(PREFIX + "HEALTH_PORT", "").strip()
    port = None
    if port_text:
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise SettingsError("BOHNANZA_HEALTH_PORT must be a port number (1-65535)")
        port = int(port_text)
    stop_text = values.get(PREFIX + "STOP_TIMEOUT", "10").strip() or "10"
    try:
        stop_timeout = float(stop_text) if stop_text.isascii() else -1.0
    except ValueError:
        stop_timeout = -1.0
    if not 0 < stop_timeout <= 3600:
        raise SettingsError("BOHNANZA_STOP_TIMEOUT must be a number of seconds (0-3600]")
    db = values.get(PREFIX + "DB", "").strip() or None
    return Settings(
        db=db,
        log_level=level,
        log_format=log_format,
        health_port=port,
        health_listen=values.get(PREFIX + "HEALTH_LISTEN", "0.0.0.0").strip() or "0.0.0.0",
        stop_timeout=stop_timeout,
        values=values,
    )


def _url_password(url: str) -> str | None:
    try:
        password = make_url(url).password
    except ArgumentError:
        return None
    return None if password is None else str(password)


def setting(settings: Mapping[str, str], name: str, default: str | None = None) -> str:
    """A setting's value, stripped; `default` when it is not set (SettingsError naming it
    when there is no default)."""
    value = settings.get(name, "").strip()
    if value:
        return value
    if default is None:
        raise SettingsError(f"set {name}")
    return default


class PlatformSettings(dict[str, str]):
    """A platform's settings by name (`SERVER`), checked; its repr leaves secrets out (a
    name holding TOKEN, PASSWORD or SECRET), so it may be logged."""

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.items() if not any(w in k for w in SECRET_WORDS)}
        return f"PlatformSettings({shown}, secrets hidden)"


def settings_by_rules(
    settings: Mapping[str, str], platform: str, rules: Mapping[str, tuple[str | None, str, str]]
) -> PlatformSettings:
    """A platform's settings by name (`SERVER` for `BOHNANZA_IRC_SERVER`), each checked by
    its rule: the default (None: required), the form of a valid value (a regular expression)
    and what is wrong with another; SettingsError naming the first setting that is not."""
    found = PlatformSettings()
    for name, (default, form, why) in rules.items():
        variable = f"BOHNANZA_{platform.upper()}_{name}"
        found[name] = setting(settings, variable, default)
        if not re.fullmatch(form, found[name]):
            raise SettingsError(f"{variable} {why}")
    return found
