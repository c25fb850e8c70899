"""The IRC settings, from the environment (`BOHNANZA_IRC_*`), checked before anything starts."""

from __future__ import annotations

from collections.abc import Mapping

from bohnanza.adapters.kit import PlatformSettings, SettingsError, connection_settings

NAME = r"[A-Za-z\[\]\\`_^{|}][\w\[\]\\`^{|}-]{0,29}"
RULES = {
    "NICK": ("bohnanza", NAME, "is not a valid nick"),
    "SASL_USER": ("", f"({NAME})?", "is not a valid account name"),
    "SASL_PASSWORD": ("", r".*", ""),
    "CHANNELS": ("", r"([#&][^\s,\x00-\x1f]+(,|$))*", "must be channels, like #beans,#games"),
    "PREFIX": ("!", r"\S+", "may not hold a space"),
    "PACE": ("2", r"\d{1,2}(\.\d+)?", "must be seconds per line, such as 2"),
}
"""Per setting (`BOHNANZA_IRC_` left out) beside the connection's (server, port, TLS): its
default (None: required), the form of a valid value, and what is wrong with another."""


def read_settings(env: Mapping[str, str]) -> PlatformSettings:
    """The settings, or SettingsError naming the first one that is missing or wrong; the
    same function is the platform's `check`, run before any store is opened."""
    found = connection_settings(env, "irc", RULES, ports=(6697, 6667))
    if bool(found["SASL_USER"]) != bool(found["SASL_PASSWORD"]):
        raise SettingsError("set both BOHNANZA_IRC_SASL_USER and BOHNANZA_IRC_SASL_PASSWORD")
    return found
