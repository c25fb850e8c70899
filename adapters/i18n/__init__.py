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
from importlib import resources
from importlib.resources.abc import Traversable
from typing import IO

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bohnanza.core.app.i18n import LANGUAGES, English, Translator

DOMAIN = "bohnanza"
SOURCE_LANGUAGE = "en"

__all__ = ["DOMAIN", "catalog_path", "load_translator", "load_translators", "read_translator"]


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


def read_translator(po: IO[bytes], language: str) -> gettext.GNUTranslations:
    """A translator from a .po file (fuzzy and untranslated entries are left out: English)."""
    catalog = read_po(po, locale=language, domain=DOMAIN)
    mo = io.BytesIO()
    write_mo(mo, catalog, use_fuzzy=False)
    mo.seek(0)
    return gettext.GNUTranslations(mo)
