"""What every command handler of one platform's chat application works with: the platform and
its capabilities, the games and lobbies in memory, the store to read, the catalogs, and the
random sources."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .i18n import English, Translator
from .picker import ShortBeanNames
from .ports import Capabilities, ChatStore
from .tables import Tables

_ENGLISH = English()
"""The catalog when none is configured: one, so that what is rendered with it is kept."""


@dataclass
class Context:
    platform: str
    capabilities: Capabilities
    store: ChatStore
    """Read by handlers; written only through a `work.Work`."""
    tables: Tables
    translators: Mapping[str, Translator]
    rng: random.Random
    codes: random.Random
    """Where the one-time codes of seat claims come from (a bot passes a system one)."""
    user_id_of: Callable[[str], str]
    """A platform's user id from a name as a player types it (`move NEW`); IRC folds a
    nick's case."""
    gone: set[str] = field(default_factory=set)
    """Players the platform found gone or unreachable (the runner keeps it), whose seats the
    opener may move where ids are nicks."""
    _short_names: dict[int, tuple[Translator, ShortBeanNames]] = field(default_factory=dict)
    """Each catalog's short-names wrapper (compact platforms), made once: messages keep what
    they render by catalog (`markup`)."""

    def translator(self, language: str) -> Translator:
        tr = self.translators.get(language) or self.translators.get("en") or _ENGLISH
        if not self.capabilities.compact:
            return tr
        kept = self._short_names.get(id(tr))
        if kept is None or kept[0] is not tr:
            kept = self._short_names[id(tr)] = (tr, ShortBeanNames(tr))
        return kept[1]

    def room_language(self, room: str) -> str:
        if room in self.tables.games:
            return self.tables.games[room].language
        if room in self.tables.lobbies:
            return self.tables.lobbies[room].language
        return "en"
