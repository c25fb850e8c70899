"""Chat platforms, found through the entry-point group `bohnanza.adapters`.

Every platform, the built-in ones included, is a `Platform` registered under that group in its
package's metadata, so a platform installed beside the bot is found without editing the bot:

    [project.entry-points."bohnanza.adapters"]
    irc = "bohnanza_irc:platform"
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points

from bohnanza.adapters.settings import SettingsError
from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.ports import ChatStore

ENTRY_POINT_GROUP = "bohnanza.adapters"


@dataclass(frozen=True)
class ServeContext:
    """What `bohnanza serve` hands every platform: the store, the catalogs and the settings."""

    store: ChatStore
    translators: Mapping[str, Translator]
    settings: Mapping[str, str]
    """The environment (and configuration file) the bot was started with."""
    stop_timeout: float = 10.0
    """Seconds a platform has, once cancelled, to finish the input in hand and deliver what
    is queued (`BOHNANZA_STOP_TIMEOUT`)."""


@dataclass(frozen=True)
class Platform:
    """A chat platform the bot can serve."""

    name: str
    summary: str
    serve: Callable[[ServeContext], Awaitable[None]]
    """Connect, then run the platform's games until cancelled."""
    check: Callable[[Mapping[str, str]], object] | None = None
    """Check the platform's settings before any store is opened: raise `SettingsError` with
    one line naming what is missing or wrong (`bohnanza serve` prints it and exits)."""


__all__ = ["Platform", "ServeContext", "SettingsError", "UnknownPlatform", "platform_named"]


class UnknownPlatform(LookupError):
    """No installed platform has that name."""


def platforms() -> dict[str, Platform]:
    """Every installed platform by name."""
    found: dict[str, Platform] = {}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        platform = entry.load()
        if isinstance(platform, Platform):
            found[platform.name] = platform
    return found


def platform_named(name: str) -> Platform:
    """The installed platform called `name`, or UnknownPlatform naming the ones there are."""
    known = platforms()
    if name not in known:
        raise UnknownPlatform(
            f"no chat platform {name!r} is installed (installed: {', '.join(sorted(known))})"
        )
    return known[name]
