"""Message catalogs: one `Translator` per language, read from the .po files shipped here.

Each language's catalog is `locales/<language>/LC_MESSAGES/bohnanza.po`. Babel reads it and
compiles it in memory; the standard library's `gettext` then answers with the plural rules of the
catalog's header (Babel writes them from its locale data). Entries that are missing, empty or
fuzzy stay English. English itself needs no catalog.
"""

from __future__ import annotations

import functools
import gettext
import io
from collections.abc import Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from typing import IO

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bohnanza.core.app.i18n import LANGUAGES, English, Translator

DOMAIN = "bohnanza"
SOURCE_LANGUAGE = "en"

__all__ = [
    "DOMAIN",
    "catalog_path",
    "load_translator",
    "load_translators",
    "plugin_translators",
    "read_translator",
]


def load_translators() -> dict[str, Translator]:
    """A translator for each language the game offers (each catalog is read once)."""
    return {language: load_translator(language) for language in LANGUAGES}


@functools.cache
def load_translator(language: str) -> Translator:
    """The translator of one language; `FileNotFoundError` if no catalog ships for it."""
    if language == SOURCE_LANGUAGE:
        return English()
    with catalog_path(language).open("rb") as po:
        return read_translator(po, language)


def catalog_path(language: str) -> Traversable:
    """Where the package keeps a language's catalog."""
    return resources.files(__name__) / "locales" / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_translator(po: IO[bytes], language: str, domain: str = DOMAIN) -> gettext.GNUTranslations:
    """A translator from a .po file (fuzzy and untranslated entries are left out: English)."""
    catalog = read_po(po, locale=language, domain=domain)
    mo = io.BytesIO()
    write_mo(mo, catalog, use_fuzzy=False)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


def plugin_translators(
    translators: Mapping[str, Translator], catalogs: Traversable, domain: str
) -> dict[str, Translator]:
    """`translators` with a plugin's own catalogs before them: where the plugin ships
    `catalogs/<language>/LC_MESSAGES/<domain>.po`, a sentence is looked up there first, then
    in the game's catalog of that language (so the game's sentences stay translated)."""
    chained: dict[str, Translator] = {}
    for language, tr in translators.items():
        path = catalogs / language / "LC_MESSAGES" / f"{domain}.po"
        if not path.is_file():
            chained[language] = tr
            continue
        with path.open("rb") as po:
            own = read_translator(po, language, domain)
        own.add_fallback(_Then(tr))
        chained[language] = own
    return chained


class _Then(gettext.NullTranslations):
    """A translator asked when a plugin's catalog has no entry."""

    def __init__(self, tr: Translator) -> None:
        super().__init__()
        self._tr = tr

    def gettext(self, message: str) -> str:
        return self._tr.gettext(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self._tr.ngettext(msgid1, msgid2, n)
