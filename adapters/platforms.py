"""Chat platforms, found through the entry-point group `bohnanza.adapters`.

Every platform, the built-in ones included, is a `Platform` registered under that group in its
package's metadata, so a platform installed beside the bot is found without editing the bot:

    [project.entry-points."bohnanza.adapters"]
    irc = "bohnanza_irc:platform"

A platform whose libraries come in an extra names it (`telegram = "...:platform [telegram]"`):
installed without it, it is still listed, and serving it says what to install, in one line.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, PackageNotFoundError, distribution, entry_points

from bohnanza.adapters.boards import Boards
from bohnanza.adapters.runner_ports import AdapterStore
from bohnanza.adapters.settings import SettingsError
from bohnanza.core.app.i18n import Translator

ENTRY_POINT_GROUP = "bohnanza.adapters"


@dataclass(frozen=True)
class ServeContext:
    """What `bohnanza serve` hands every platform: the store, the catalogs and the settings."""

    store: AdapterStore
    translators: Mapping[str, Translator]
    settings: Mapping[str, str]
    """The environment (and configuration file) the bot was started with."""
    stop_timeout: float = 10.0
    """Seconds a platform has, once cancelled, to finish the input in hand and deliver what
    is queued (`BOHNANZA_STOP_TIMEOUT`)."""
    boards: Boards = field(default_factory=Boards)
    """The boards of the process: every platform's runner joins them (`Runner(boards=...)`),
    so that the web platform shows and plays the games of the others."""


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


__all__ = [
    "MissingExtra",
    "Platform",
    "ServeContext",
    "SettingsError",
    "UnknownPlatform",
    "platform_named",
]


class UnknownPlatform(LookupError):
    """No installed platform has that name."""


class MissingExtra(UnknownPlatform):
    """The platform is installed without the extra its libraries come in; the message is one
    line naming the command that installs it."""


def platforms() -> dict[str, Platform]:
    """Every installed platform by name (those missing their extra left out)."""
    found: dict[str, Platform] = {}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if missing_extra(entry) is None:
            platform = entry.load()
            if isinstance(platform, Platform):
                found[platform.name] = platform
    return found


def platform_names() -> dict[str, str | None]:
    """Every platform's name, with the command that installs its extra when that is missing
    (None when it can be served); nothing is imported."""
    return {entry.name: missing_extra(entry) for entry in entry_points(group=ENTRY_POINT_GROUP)}


def platform_named(name: str) -> Platform:
    """The installed platform called `name` (only its own modules imported): UnknownPlatform
    naming the ones there are, or MissingExtra naming what to install."""
    for entry in entry_points(group=ENTRY_POINT_GROUP, name=name):
        needed = missing_extra(entry)
        try:
            platform = entry.load() if needed is None else None
        except ModuleNotFoundError as error:
            own = entry.module.partition(".")[0]
            if not entry.extras or (error.name or own).partition(".")[0] == own:
                raise  # not a library the extra brings
            needed = _install_command(entry)
            platform = None
        if needed is not None:
            raise MissingExtra(f"{name} needs its extra: {needed}")
        if isinstance(platform, Platform):
            return platform
    loaded = platforms()  # a platform registered under another name than its own
    if name in loaded:
        return loaded[name]
    known = ", ".join(sorted(platform_names()))
    raise UnknownPlatform(f"no chat platform {name!r} is installed (installed: {known})")


def missing_extra(entry: EntryPoint) -> str | None:
    """The command that installs the extra the entry point names, when a package it requires
    is not installed; None when none is missing (or it names no extra)."""
    if not entry.extras or entry.dist is None:
        return None
    for requirement in entry.dist.requires or ():
        spec, _, marker = requirement.partition(";")
        extra = re.search(r"""\bextra\s*==\s*["']([^"']+)["']""", marker)
        package = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", spec.strip())
        if extra is None or package is None or extra.group(1) not in entry.extras:
            continue
        try:
            distribution(package.group())
        except PackageNotFoundError:
            return _install_command(entry)
    return None


def _install_command(entry: EntryPoint) -> str:
    project = entry.dist.name if entry.dist is not None else entry.module.partition(".")[0]
    return f"pip install '{project}[{','.join(entry.extras)}]'"
