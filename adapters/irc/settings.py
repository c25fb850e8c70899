"""The IRC settings, from the environment (`BOHNANZA_IRC_*`), checked before anything starts."""

from __future__ import annotations

import ssl
from collections.abc import Mapping
from pathlib import Path

from bohnanza.adapters.kit import SettingsError, settings_by_rules

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


class IrcSettings(dict[str, str]):
    """The settings by name (`NICK`), checked, defaults filled in. The SASL password is a
    secret: it is never logged, nor shown in the settings' repr."""

    def __repr__(self) -> str:
        return f"IrcSettings({self['SERVER']}:{self['PORT']}, nick={self['NICK']}, ***)"


def read_settings(env: Mapping[str, str]) -> IrcSettings:
    """The settings, or SettingsError naming the first one that is missing or wrong."""
    found = IrcSettings(settings_by_rules(env, "irc", RULES))
    found["PORT"] = found["PORT"] or ("6697" if found["TLS"] == "1" else "6667")
    if bool(found["SASL_USER"]) != bool(found["SASL_PASSWORD"]):
        raise SettingsError("set both BOHNANZA_IRC_SASL_USER and BOHNANZA_IRC_SASL_PASSWORD")
    if found["TLS_CA"] and not Path(found["TLS_CA"]).is_file():
        raise SettingsError("BOHNANZA_IRC_TLS_CA names no file")
    return found


def check(env: Mapping[str, str]) -> None:
    """SettingsError, in one line naming the setting, if the IRC settings are not usable."""
    read_settings(env)


def tls_context(settings: IrcSettings) -> ssl.SSLContext | None:
    """How to wrap the connection: None in plain text; unverified only when asked."""
    context = ssl.create_default_context(cafile=settings["TLS_CA"] or None)
    if settings["TLS_VERIFY"] == "0":
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    return context if settings["TLS"] == "1" else None
