"""The message catalogs: every message of the sources translated, placeholders kept, loadable."""

from __future__ import annotations

import io
import string
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from bohnanza.adapters.i18n import load_translator, load_translators, read_translator
from bohnanza.core.app.i18n import LANGUAGES, English

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "adapters" / "i18n"
TEMPLATE = I18N / "locales" / "bohnanza.pot"
TRANSLATED = [language for language in LANGUAGES if language != "en"]

MessageId = str | tuple[str, ...]


@cache
def source_messages() -> dict[MessageId, str]:
    """Every message the sources mark, extracted now with babel.cfg, and where it is written."""
    with (I18N / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    found: dict[MessageId, str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        ROOT, method_map, options_map
    ):
        found.setdefault(message, f"{filename}:{lineno}")
    return found


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=language)


def catalog_of(language: str) -> Catalog:
    return read_catalog(I18N / "locales" / language / "LC_MESSAGES" / "bohnanza.po", language)


def entries(catalog: Catalog) -> dict[MessageId, Message]:
    return {message.id: message for message in catalog if message.id}


def placeholders(text: str) -> set[str]:
    """The replacement fields of a str.format text: '{name}', '{coins:>3}'."""
    return {
        "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
        for _text, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    }


def forms(message: Message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def listing(ids: Iterable[MessageId]) -> str:
    where = source_messages()
    return "\n".join(f"  {where.get(i, '?')}: {i!r}" for i in ids)


def test_extraction_finds_the_messages_of_every_kind() -> None:
    found = source_messages()
    assert "Blue Bean" in found  # N_
    assert "Buy the 3rd field" in found  # gettext
    assert "You have already joined." in found  # LobbyError


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_in_the_sources_is_translated(language: str) -> None:
    catalog = entries(catalog_of(language))
    missing = [i for i in source_messages() if i not in catalog]
    empty = [i for i in source_messages() if i in catalog and not all(forms(catalog[i]))]
    fuzzy = [i for i in source_messages() if i in catalog and catalog[i].fuzzy]
    problems = [
        f"{label} in {language} ({len(ids)}):\n{listing(ids)}"
        for label, ids in (("missing", missing), ("untranslated", empty), ("fuzzy", fuzzy))
        if ids
    ]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_exactly_the_placeholders(language: str) -> None:
    catalog = entries(catalog_of(language))
    wrong = []
    for message_id in source_messages():
        message = catalog.get(message_id)
        if message is None:
            continue
        english = message_id if isinstance(message_id, str) else message_id[-1]
        expected = placeholders(english)
        for form in forms(message):
            if form and placeholders(form) != expected:
                wrong.append(f"  {message_id!r}\n    -> {form!r}")
    if wrong:
        pytest.fail(f"other placeholders in {language}:\n" + "\n".join(wrong), pytrace=False)


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogs_hold_no_message_the_sources_dropped(language: str) -> None:
    stale = [i for i in entries(catalog_of(language)) if i not in source_messages()]
    if stale:
        pytest.fail(
            f"{language} holds messages the sources dropped:\n{listing(stale)}", pytrace=False
        )


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogs_use_babels_plural_rules(language: str) -> None:
    assert catalog_of(language).plural_forms == Catalog(locale=language).plural_forms


def test_the_template_is_current() -> None:
    template = set(entries(read_catalog(TEMPLATE)))
    new = [i for i in source_messages() if i not in template]
    gone = [i for i in template if i not in source_messages()]
    if new or gone:
        pytest.fail(
            "bohnanza.pot is out of date (see adapters/i18n/README.md)\n"
            f"not in it:\n{listing(new)}\nno longer in the sources:\n{listing(gone)}",
            pytrace=False,
        )


def test_every_language_has_a_translator() -> None:
    translators = load_translators()
    assert set(translators) == set(LANGUAGES)
    assert isinstance(translators["en"], English)


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogs_are_installed_with_the_package(language: str) -> None:
    po = resources.files("bohnanza.adapters.i18n") / "locales" / language / "LC_MESSAGES"
    assert (po / "bohnanza.po").is_file()


@pytest.mark.parametrize(
    ("language", "english", "translated"),
    [
        ("it", "Buy the 3rd field", "Compra il 3° campo"),
        ("it", "Blue Bean", "Blue Bean"),
        ("ru", "Blue Bean", "Синий боб"),  # noqa: RUF001 (Cyrillic, on purpose)
        ("ru", "Stink Bean", "Боб-вонючка"),
        ("de", "Blue Bean", "Blaue Bohne"),
        ("de", "Chili Bean", "Feuerbohne"),
        ("en", "Blue Bean", "Blue Bean"),
    ],
)
def test_variety_and_game_words_follow_each_edition(
    language: str, english: str, translated: str
) -> None:
    assert load_translators()[language].gettext(english) == translated


def test_each_catalog_is_read_once() -> None:
    assert load_translator("ru") is load_translator("ru")


def test_translated_messages_format_with_the_english_parameters() -> None:
    text = load_translator("de").gettext("Game {game} begins: {names}.")
    assert text.format(game="ABC123", names="Anna, Bruno") == (
        "Die Partie ABC123 beginnt: Anna, Bruno."
    )


def russian_po() -> io.BytesIO:
    """A small Russian catalog written by Babel: one plural message and one fuzzy entry."""
    catalog = Catalog(locale="ru")
    catalog.add(
        ("{count} coin", "{count} coins"), ("{count} монета", "{count} монеты", "{count} монет")
    )
    catalog.add("Start", "Начать", flags=["fuzzy"])
    po = io.BytesIO()
    write_po(po, catalog)
    po.seek(0)
    return po


@pytest.mark.parametrize(
    ("n", "expected"),
    [(1, "монета"), (2, "монеты"), (4, "монеты"), (5, "монет"), (11, "монет"), (21, "монета")],
)
def test_russian_plurals_take_the_form_of_the_number(n: int, expected: str) -> None:
    russian = read_translator(russian_po(), "ru")
    assert russian.ngettext("{count} coin", "{count} coins", n) == "{count} " + expected


def test_fuzzy_and_missing_entries_stay_english() -> None:
    russian = read_translator(russian_po(), "ru")
    assert russian.gettext("Start") == "Start"
    assert russian.gettext("Leave") == "Leave"
    assert russian.ngettext("one bot", "{count} bots", 3) == "{count} bots"
