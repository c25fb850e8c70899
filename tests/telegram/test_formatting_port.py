"""Formatted messages on Telegram: HTML parse mode, names as typed, the 4096-character limit."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from telegram.error import BadRequest

from bohnanza.adapters.i18n import load_translators
from bohnanza.adapters.telegram.translate import MAX_TEXT, fit, shown_text, text_and_mode
from bohnanza.core.app.messages import Message

from ..app.formatted import NAMES, read_html, samples, utf16_length
from .botapi import ApiCall, BotApiServer, StoredMessage, World
from .botapi.formatting import utf16_slice
from .test_adapter_port import TelegramHarness

pytestmark = pytest.mark.server  # the local Bot API server

TABLE = Message(
    "Ann & Co: 1 coin\nChili Bean x3",
    html="<b>Ann &amp; Co</b>: 1 coin\n🌶️ <i>Chili Bean</i> x3",
)


@pytest.fixture
def telegram(world: World, botapi: BotApiServer) -> Iterator[TelegramHarness]:
    harness = TelegramHarness(world, botapi)
    yield harness
    harness.close()


def last_call(harness: TelegramHarness, method: str) -> ApiCall:
    return harness.world.calls_since(0, method)[-1]


def test_a_message_with_html_is_sent_in_html_parse_mode(telegram: TelegramHarness) -> None:
    telegram.run(telegram.port.send(telegram.room, TABLE))
    call = last_call(telegram, "sendMessage")
    assert call.status == 200 and call.params["parse_mode"] == "HTML"
    shown = telegram.group.bot_messages[-1]
    assert shown.text == "Ann & Co: 1 coin\n🌶️ Chili Bean x3"
    assert shown.entities == [
        {"offset": 0, "length": 8, "type": "bold"},
        # The pepper and its variation selector are three UTF-16 code units.
        {"offset": 21, "length": 10, "type": "italic"},
    ]


def test_an_edit_and_a_private_message_are_formatted_too(telegram: TelegramHarness) -> None:
    message_id = telegram.run(telegram.port.send(telegram.room, Message("table")))
    telegram.run(telegram.port.edit(telegram.room, message_id, TABLE))
    assert last_call(telegram, "editMessageText").params["parse_mode"] == "HTML"
    edited = telegram.group.bot_messages[-1]
    assert edited.text == "Ann & Co: 1 coin\n🌶️ Chili Bean x3" and edited.versions
    # The same formatted text again is no change, and no error.
    telegram.run(telegram.port.edit(telegram.room, message_id, TABLE))
    refused = last_call(telegram, "editMessageText")
    assert refused.status == 400 and "message is not modified" in (refused.description or "")

    telegram.run(telegram.port.send_private(telegram.player, TABLE))
    private = telegram.world.users[int(telegram.player)].private_messages[-1]
    assert private.text == "Ann & Co: 1 coin\n🌶️ Chili Bean x3"
    assert [e["type"] for e in private.entities] == ["bold", "italic"]


def test_a_message_without_html_shows_its_text_as_typed(telegram: TelegramHarness) -> None:
    telegram.run(telegram.port.send(telegram.room, Message("<b>Ann</b> & [/x]")))
    assert "parse_mode" not in last_call(telegram, "sendMessage").params
    shown = telegram.group.bot_messages[-1]
    assert shown.text == "<b>Ann</b> & [/x]"
    assert all(entity["type"] != "bold" for entity in shown.entities)


@pytest.mark.parametrize("language", ["en", "it", "ru", "de"])
def test_every_kind_of_message_is_accepted_and_shows_the_names_as_typed(
    telegram: TelegramHarness, language: str
) -> None:
    tr = load_translators()[language]
    rendered = samples(tr, players=4, seed=5)
    kinds = [rendered[0], rendered[1], *rendered[2:8], rendered[-2], rendered[-1]]
    for sample in kinds:
        telegram.run(telegram.port.send(telegram.room, sample.message))
        call = last_call(telegram, "sendMessage")
        assert call.status == 200 and call.params["parse_mode"] == "HTML", sample.kind
        shown: StoredMessage = telegram.group.bot_messages[-1]
        assert sample.message.html is not None
        assert shown.text == read_html(sample.message.html).text, sample.kind
        assert {e["type"] for e in shown.entities} <= {"bold", "italic", "bot_command"}
        for name in sample.names:
            if name in sample.message.text:
                assert name in (shown.text or ""), (sample.kind, name)
    table = telegram.group.bot_messages[-len(kinds)]  # the crowded table names everyone
    bold = {
        utf16_slice(table.text or "", e["offset"], e["length"])
        for e in table.entities
        if e["type"] == "bold"
    }
    assert set(NAMES) <= bold


def test_html_that_would_show_too_much_is_sent_as_its_plain_text(
    telegram: TelegramHarness,
) -> None:
    # 2049 beans are 4098 UTF-16 code units: one message cannot show them.
    beans = Message("too many beans", html="<b>" + "🫘" * 2049 + "</b>")
    telegram.run(telegram.port.send(telegram.room, beans))
    assert "parse_mode" not in last_call(telegram, "sendMessage").params
    assert telegram.group.bot_messages[-1].text == "too many beans"


def test_the_limit_counts_what_telegram_shows_not_the_markup() -> None:
    fits = Message("plain", html="<b>" + "&amp;" * MAX_TEXT + "</b>")
    assert text_and_mode(fits) == (fits.html, "HTML")
    over = Message("plain", html="&amp;" * (MAX_TEXT + 1))
    assert text_and_mode(over) == ("plain", None)
    assert shown_text("<b>a &lt;b&gt; &amp;amp; &#128072; &#x1F448;</b>") == "a <b> &amp; 👈 👈"


def test_plain_text_is_cut_at_the_limit_never_inside_a_character() -> None:
    cut = fit("🫘" * 3000)
    assert cut == "🫘" * 2048 and utf16_length(cut) == MAX_TEXT
    assert fit("x" + "🫘" * 3000) == "x" + "🫘" * 2047
    assert text_and_mode(Message("short")) == ("short", None)


def test_telegram_refuses_html_that_a_name_left_unescaped_would_break(
    telegram: TelegramHarness,
) -> None:
    """Why every name is escaped: the same HTML with a name as typed is refused."""
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        telegram.run(
            telegram.port.bot.send_message(
                int(telegram.room), "<b>Gus <3</b>: 1 coin", parse_mode="HTML"
            )
        )
    assert last_call(telegram, "sendMessage").status == 400
