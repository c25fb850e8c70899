"""The same words as plain text or as HTML, with a marker for each bean variety.

The HTML is the subset that Telegram reads (`<b>` and `<i>`, lines separated by newlines) and
Matrix clients read too once the newlines are `<br>`. All that is not a tag is escaped: player
names are user input and show exactly as typed, `<b>` and `&amp;` included.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import Any

from ..cards import Variety
from .i18n import Translator, bean_name

BEAN_MARKS: dict[Variety, str] = {
    Variety.COFFEE: "☕",
    Variety.WAX: "🕯️",
    Variety.BLUE: "🔵",
    Variety.CHILI: "🌶️",
    Variety.STINK: "💨",
    Variety.GREEN: "🟢",
    Variety.SOY: "🌱",
    Variety.BLACK_EYED: "👁️",
    Variety.RED: "🔴",
    Variety.GARDEN: "🌼",
    Variety.COCOA: "🍫",
}
"""One emoji per variety, each in every common emoji font (the ones that would be drawn as a
symbol on their own carry the emoji variation selector)."""


@dataclass(frozen=True)
class Markup:
    """How a renderer marks its words up: as plain text, or as HTML."""

    html: bool

    def __reduce__(self) -> tuple[Any, ...]:
        # Compiled (setup.py), a frozen dataclass is copied and pickled through its constructor.
        return (Markup, (self.html,))

    def text(self, text: str) -> str:
        """Text shown as written (a name, a translation), escaped for HTML."""
        return _escaped(text) if self.html else text

    def bold(self, marked: str) -> str:
        """Already marked-up text, in bold."""
        return f"<b>{marked}</b>" if self.html else marked

    def italic(self, marked: str) -> str:
        """Already marked-up text, in italics."""
        return f"<i>{marked}</i>" if self.html else marked

    def name(self, name: str) -> str:
        """A player's name: bold in HTML."""
        return self.bold(self.text(name))

    def fill(self, template: str, **values: object) -> str:
        """A translated template with its placeholders filled by already marked-up values."""
        return self.text(template).format(**values)

    def bean(self, tr: Translator, variety: Variety) -> str:
        """A variety's name, after its marker in HTML."""
        return _bean_label(self.html, tr, variety)


# Every message names a few dozen beans and fills a dozen translated templates: their marked-up
# forms are kept rather than escaped and looked up again each time (a catalog never changes;
# the bounds only keep a long-running server's memory in check).


@lru_cache(maxsize=4096)
def _escaped(text: str) -> str:
    return escape(text, quote=False)


@lru_cache(maxsize=1024)
def _bean_label(html: bool, tr: Translator, variety: Variety) -> str:
    name = bean_name(tr, variety)
    return f"{BEAN_MARKS[variety]} {_escaped(name)}" if html else name


PLAIN = Markup(html=False)
HTML = Markup(html=True)
