"""Messages that read well on a phone: HTML beside the plain text, plurals, relative deadlines."""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import replace
from datetime import timedelta

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from bohnanza.adapters.i18n import load_translators, read_translator
from bohnanza.adapters.runner import digest
from bohnanza.core.app.i18n import English, Translator, bean_name
from bohnanza.core.app.markup import BEAN_MARKS
from bohnanza.core.app.messages import Button, Message
from bohnanza.core.app.render import (
    FIELDS_INDENT,
    relative_time,
    result_text,
    table_html,
    table_text,
)
from bohnanza.core.cards import Variety
from bohnanza.core.state import Step
from bohnanza.core.view import PlayerView

from .formatted import GAME, NAMES, NOW, Sample, crowded_view, read_html, samples, unmarked
from .formatted import utf16_length as telegram_length

TRANSLATORS = load_translators()
LANGUAGES = sorted(TRANSLATORS)


@pytest.fixture(scope="module", params=LANGUAGES)
def rendered(request: pytest.FixtureRequest) -> list[Sample]:
    """A five-player game and a crowded seven-player moment, in one language."""
    return samples(TRANSLATORS[request.param])


def test_every_message_has_well_formed_html(rendered: list[Sample]) -> None:
    for sample in rendered:
        assert sample.message.html is not None, sample.kind
        read_html(sample.message.html)  # fails on a stray tag, an unescaped < or &


def test_names_show_exactly_as_typed_in_bold(rendered: list[Sample]) -> None:
    for sample in rendered:
        assert sample.message.html is not None
        read = read_html(sample.message.html)
        for name in sample.names:
            if name in sample.message.text:
                assert name in read.text, (sample.kind, name)
    table = rendered[0].message.html
    assert table is not None
    assert "<b>&lt;b&gt;</b>" in table and "<b>Bruno &amp; Co</b>" in table
    assert "<b>Dora &amp;amp; Eve</b>" in table and "<b>[/x]</b>" in table


def test_the_html_says_what_the_plain_text_says(rendered: list[Sample]) -> None:
    """Only the layout differs: markers before the beans, a seat's fields on their own line,
    a blank line before the seats, a cup before the winner."""
    for sample in rendered:
        assert sample.message.html is not None
        shown = unmarked(read_html(sample.message.html).text).replace("🏆 ", "")
        if "table" in sample.kind:
            lines = [line for line in shown.split("\n") if line]
            shown = "\n".join(lines).replace("\n" + FIELDS_INDENT, " · ")
        assert shown == sample.message.text, sample.kind


def test_each_variety_has_a_marker_of_its_own() -> None:
    assert set(BEAN_MARKS) == set(Variety)
    assert len(set(BEAN_MARKS.values())) == len(Variety)
    view = crowded_view()
    html = table_html(English(), GAME, view, NAMES, [], None)
    for variety in (Variety.CHILI, Variety.COCOA, Variety.GARDEN, Variety.BLACK_EYED):
        assert f"{BEAN_MARKS[variety]} {bean_name(English(), variety)}" in html


def test_bean_names_come_from_the_catalog_each_table_is_rendered_with() -> None:
    # Rendered names are kept by catalog: one language's must never show in another's table.
    view = crowded_view()
    german = TRANSLATORS["de"]
    chili = (bean_name(English(), Variety.CHILI), bean_name(german, Variety.CHILI))
    assert chili[0] != chili[1]
    for _ in range(2):
        for tr, (shown, other) in ((English(), chili), (german, chili[::-1])):
            for render in (table_text, table_html):
                table = render(tr, GAME, view, NAMES, [], None)
                assert shown in table and other not in table
    assert f"{BEAN_MARKS[Variety.CHILI]} {chili[1]}" in table_html(
        german, GAME, view, NAMES, [], None
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_crowded_table_of_seven_fits_in_a_telegram_message(language: str) -> None:
    tr = TRANSLATORS[language]
    for sample in samples(tr, players=7, seed=11)[:3]:
        assert sample.message.html is not None
        assert telegram_length(read_html(sample.message.html).text) <= 4096, sample.kind
        assert telegram_length(sample.message.text) <= 4096, sample.kind


# --- plurals ---------------------------------------------------------------------------------


def seat_line(text: str, number: int) -> str:
    return next(line for line in text.split("\n") if re.match(rf"(▶ )?{number}\. ", line))


def test_one_coin_and_one_card_are_singular() -> None:
    text = table_text(English(), GAME, crowded_view(), NAMES, [], None)
    assert seat_line(text, 1).startswith("▶ 1. <b>: 0 coins, 0 cards in hand · Chili Bean x3")
    assert "2. Bruno & Co: 1 coin, 1 card in hand · " in seat_line(text, 2)
    assert "3. [/x]: 2 coins, 2 cards in hand · " in seat_line(text, 3)


def test_the_result_says_coin_for_one() -> None:
    view = ended(scores=(1, 0, 2))
    assert result_text(English(), GAME, view, ("Ann", "Bob", "Cid")).split("\n")[1:4] == [
        "Cid: 2 coins",
        "Ann: 1 coin",
        "Bob: 0 coins",
    ]


def russian() -> Translator:
    """The Russian forms of the counted messages, as a catalog Babel writes."""
    catalog = Catalog(locale="ru")
    for english, forms in RUSSIAN.items():
        catalog.add(english, forms)
    po = io.BytesIO()
    write_po(po, catalog)
    po.seek(0)
    return read_translator(po, "ru")


RUSSIAN: dict[str | tuple[str, str], str | tuple[str, str, str]] = {
    ("{count} coin", "{count} coins"): ("{count} монета", "{count} монеты", "{count} монет"),
    ("{count} card in hand", "{count} cards in hand"): (
        "{count} карта на руке",
        "{count} карты на руке",
        "{count} карт на руке",
    ),
    ("{name}: {coins} coin", "{name}: {coins} coins"): (
        "{name}: {coins} монета",
        "{name}: {coins} монеты",
        "{name}: {coins} монет",
    ),
    ("in {count} min", "in {count} min"): ("через {count} мин",) * 3,
    ("in {count} day", "in {count} days"): (
        "через {count} день",
        "через {count} дня",
        "через {count} дней",
    ),
    "(due {time}, at {clock})": "(срок: {time}, в {clock})",
}


def test_russian_counts_take_the_form_of_their_number() -> None:
    tr = russian()
    text = table_text(tr, GAME, crowded_view(), NAMES, [1], NOW + timedelta(minutes=3), NOW)
    assert "1. <b>: 0 монет, 0 карт на руке · " in seat_line(text, 1)
    assert "2. Bruno & Co: 1 монета, 1 карта на руке · " in seat_line(text, 2)
    assert "3. [/x]: 2 монеты, 2 карты на руке · " in seat_line(text, 3)
    assert "6. Gus <3: 5 монет, 2 карты на руке · " in seat_line(text, 6)
    assert text.split("\n")[-2].endswith("(срок: через 3 мин, в 09:03 UTC)")
    result = result_text(tr, GAME, ended(scores=(21, 22, 25)), ("Ann", "Bob", "Cid"))
    assert result.split("\n")[1:4] == ["Cid: 25 монет", "Bob: 22 монеты", "Ann: 21 монета"]
    assert [relative_time(tr, days * 86400) for days in (1, 3, 5)] == [
        "через 1 день",
        "через 3 дня",
        "через 5 дней",
    ]


# --- relative deadlines ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (-30, "now"),
        (0.2, "now"),
        (1, "in 1 s"),
        (30, "in 30 s"),
        (59, "in 59 s"),
        (60, "in 1 min"),
        (4 * 60 - 1, "in 4 min"),
        (59 * 60, "in 59 min"),
        (3600 - 1, "in 1 h"),
        (2 * 3600, "in 2 h"),
        (23 * 3600, "in 23 h"),
        (24 * 3600, "in 1 day"),
        (3 * 86400 + 600, "in 3 days"),
    ],
)
def test_a_deadline_is_told_as_the_time_left(seconds: float, said: str) -> None:
    assert relative_time(English(), seconds) == said


def test_the_table_tells_the_time_left_when_it_is_given_the_moment() -> None:
    view = crowded_view()
    due = NOW + timedelta(minutes=4)
    relative = table_text(English(), GAME, view, NAMES, [1, 4], due, NOW)
    assert "Waiting for: Bruno & Co, <i>Fe</i> (due in 4 min, at 09:04 UTC)" in relative
    html = table_html(English(), GAME, view, NAMES, [1, 4], due, NOW)
    assert "(due in 4 min, at 09:04 UTC)" in html


def test_without_the_moment_the_table_tells_the_time_of_day_as_before() -> None:
    view = crowded_view()
    due = NOW + timedelta(minutes=4)
    assert "(until 09:04 UTC)" in table_text(English(), GAME, view, NAMES, [1], due)
    assert "(until 09:04 UTC)" in table_text(English(), GAME, view, NAMES, [1], "09:04 UTC")


# --- the message itself ----------------------------------------------------------------------


def test_a_line_added_to_a_message_is_escaped_in_its_html() -> None:
    message = Message("Game A\nYour hand", html="<b>Game A</b>\nYour hand")
    moved = message.with_line("▶ Your move <now> & here", at=1)
    assert moved.text == "Game A\n▶ Your move <now> & here\nYour hand"
    assert moved.html == "<b>Game A</b>\n▶ Your move &lt;now&gt; &amp; here\nYour hand"
    assert message.with_line("Done?").html == "<b>Game A</b>\nYour hand\nDone?"
    assert Message("plain").with_line("<b>").html is None


def test_lines_added_at_once_are_the_lines_added_one_by_one() -> None:
    message = Message("Game A\nYour hand", html="<b>Game A</b>\nYour hand")
    lines = ["· Anna plants <Blue> & more", "· Bruno trades"]
    assert message.with_lines(lines) == message.with_line(lines[0]).with_line(lines[1])
    assert message.with_lines(lines).html == (
        "<b>Game A</b>\nYour hand\n· Anna plants &lt;Blue&gt; &amp; more\n· Bruno trades"
    )
    assert message.with_lines([]) == message
    assert Message("plain").with_lines(["<b>"]) == Message("plain\n<b>")


def test_a_message_changed_in_one_part_keeps_the_others() -> None:
    button = Button("Plant", "g A x plant 1")
    message = Message("Game A\nYour hand", (), False, "<b>Game A</b>\nYour hand")
    assert message.with_buttons(((button,),)) == replace(message, buttons=((button,),))
    assert message.with_alert(True) == replace(message, alert=True)
    assert message.cut(6) == replace(message, text="Game A")
    assert message.cut(len(message.text)) is message


def test_messages_that_differ_only_in_their_html_are_shown_anew() -> None:
    plain = Message("Ann: 1 coin")
    bold = Message("Ann: 1 coin", html="<b>Ann</b>: 1 coin")
    assert plain != bold and digest(plain) != digest(bold)
    assert digest(bold) == digest(Message("Ann: 1 coin", html="<b>Ann</b>: 1 coin"))
    # A message without HTML keeps the fingerprint stored before messages had any.
    before = hashlib.blake2s(repr(("Ann: 1 coin", ())).encode(), digest_size=12).hexdigest()
    assert digest(plain) == before


def ended(scores: tuple[int, ...]) -> PlayerView:
    """A finished game of as many players as scores."""
    view = crowded_view()
    best = max(scores)
    return replace(
        view,
        seat=None,
        hand=(),
        seats=view.seats[: len(scores)],
        step=Step.GAME_OVER,
        offers=(),
        scores=scores,
        winners=tuple(i for i, s in enumerate(scores) if s == best),
    )
