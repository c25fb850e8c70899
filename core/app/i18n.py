"""Translation: the application writes English and asks a `Translator` for the player's language.

Catalogs are read by an adapter (`bohnanza.adapters.i18n`); the core only names the messages.
`N_` marks a text for translation where it is written, `Translator.gettext` translates it where it
is shown.
"""

from __future__ import annotations

from typing import Protocol

from ..cards import Variety

LANGUAGES: tuple[str, ...] = ("en", "it", "ru", "de")
"""The languages a game can be played in; English is the source."""


def N_(message: str) -> str:
    """Mark a text for translation without translating it (it is translated where shown)."""
    return message


class Translator(Protocol):
    """One language's catalog. Catalogs are hashable (by identity, as objects are): rendered
    texts are kept by catalog."""

    def __hash__(self) -> int: ...

    def gettext(self, message: str) -> str:
        """The translation of `message`, or `message` itself."""
        ...

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The translation of the form that fits the number `n`."""
        ...


class English:
    """The source language: every message is its own translation."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural


BEAN_NAMES: dict[Variety, str] = {
    Variety.COFFEE: N_("Coffee Bean"),
    Variety.WAX: N_("Wax Bean"),
    Variety.BLUE: N_("Blue Bean"),
    Variety.CHILI: N_("Chili Bean"),
    Variety.STINK: N_("Stink Bean"),
    Variety.GREEN: N_("Green Bean"),
    Variety.SOY: N_("Soy Bean"),
    Variety.BLACK_EYED: N_("Black-eyed Bean"),
    Variety.RED: N_("Red Bean"),
    Variety.GARDEN: N_("Garden Bean"),
    Variety.COCOA: N_("Cocoa Bean"),
}


def bean_name(tr: Translator, variety: Variety) -> str:
    """The variety's name in the game's language."""
    return tr.gettext(BEAN_NAMES[variety])
