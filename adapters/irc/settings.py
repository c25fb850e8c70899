"""The IRC settings, from the environment (`BOHNANZA_IRC_*`), checked before anything starts."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from bohnanza.adapters.kit import PlatformSettings, SettingsError, settings_by_rules

NAME = r"[A-Za-z\[\]\\`_^{|}][\w\[\]\\`^{|}-]{0,29}"
RULES = {
    "SERVER": (None, r"[\w.:-]+", "is not a host name"),
    "NICK": ("bohnanza", NAME, "is not a valid nick"),
    "TLS": ("1", "[01]", "must be 1 or 0"),
    "PORT": ("", r"\d{0,5}", "must be a port number"),
    "TLS_VERIFY": ("1", "[01]", "must be 1 or 0"),
    "TLS_CA": ("", r".*", ""),
    "SASL_USER": ("", f"({NAME})?", "is not a valid account name"),
    "SASL_PASSWORD": ("", r".*", ""),
    "CHANNELS": ("", r"([#&][^\s,\x00-\x1f]+(,|$))*", "must be channels, like #beans,#games"),
    "PREFIX": ("!", r"\S+", "may not hold a space"),
    "PACE": ("2", r"\d{1,2}(\.\d+)?", "must be seconds per line, such as 2"),
}
"""Per setting (`BOHNANZA_IRC_` left out): its default (None: required), the form of a valid
value, and what is wrong with another."""


def read_settings(env: Mapping[str, str]) -> PlatformSettings:
    """The settings, or SettingsError naming the first one that is missing or wrong; the
    same function is the platform's `check`, run before any store is opened."""
    found = settings_by_rules(env, "irc", RULES)
    found["PORT"] = found["PORT"] or ("6697" if found["TLS"] == "1" else "6667")
    if bool(found["SASL_USER"]) != bool(found["SASL_PASSWORD"]):
        raise SettingsError("set both BOHNANZA_IRC_SASL_USER and BOHNANZA_IRC_SASL_PASSWORD")
    if found["TLS_CA"] and not Path(found["TLS_CA"]).is_file():
        raise SettingsError("BOHNANZA_IRC_TLS_CA names no file")
    return found


check = read_settings
