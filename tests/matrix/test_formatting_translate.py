"""Formatted messages on Matrix: the plain text as body, the HTML as formatted body."""

from __future__ import annotations

import pytest

from bohnanza.adapters.i18n import load_translators
from bohnanza.adapters.matrix.translate import (
    HTML_FORMAT,
    MAX_FORMATTED,
    edit_content,
    formatted_body,
    message_content,
)
from bohnanza.core.app.messages import Message

from ..app.formatted import read_html, samples

TABLE = Message(
    "1. Ann & Co: 1 coin · Chili Bean x3",
    html="1. <b>Ann &amp; Co</b>: 1 coin\n    🌶️ Chili Bean x3",
)
MATRIX_TAGS = ("b", "i", "br")


def test_a_message_with_html_has_it_as_its_formatted_body() -> None:
    content = message_content(TABLE)
    assert content == {
        "msgtype": "m.notice",
        "body": "1. Ann & Co: 1 coin · Chili Bean x3",
        "format": HTML_FORMAT,
        "formatted_body": "1. <b>Ann &amp; Co</b>: 1 coin<br>" + "&nbsp;" * 4 + "🌶️ Chili Bean x3",
    }


def test_a_message_without_html_is_a_body_alone() -> None:
    assert message_content(Message("<b>Ann</b> & [/x]")) == {
        "msgtype": "m.notice",
        "body": "<b>Ann</b> & [/x]",
    }
    assert "format" not in edit_content("$table", Message("plain"))


def test_an_edit_carries_the_formatted_body_new_and_starred() -> None:
    content = edit_content("$table", TABLE)
    assert content["m.new_content"] == message_content(TABLE)
    assert content["body"] == "* 1. Ann & Co: 1 coin · Chili Bean x3"
    assert content["format"] == HTML_FORMAT
    assert content["formatted_body"] == "* " + message_content(TABLE)["formatted_body"]
    assert content["m.relates_to"] == {"rel_type": "m.replace", "event_id": "$table"}


def test_a_message_meant_to_notify_is_formatted_text() -> None:
    alert = Message("Your move", alert=True, html="<b>Your move</b>")
    assert message_content(alert)["msgtype"] == "m.text"
    assert message_content(alert)["formatted_body"] == "<b>Your move</b>"


def test_html_too_big_for_an_event_is_left_out() -> None:
    big = Message("many beans", html="🫘" * MAX_FORMATTED)
    assert message_content(big) == {"msgtype": "m.notice", "body": "many beans"}


def test_line_breaks_and_indents_survive_html() -> None:
    assert formatted_body("a\n  b\n\nc &amp; d") == "a<br>&nbsp;&nbsp;b<br><br>c &amp; d"


@pytest.mark.parametrize("language", ["en", "it", "ru", "de"])
def test_every_kind_of_message_has_a_well_formed_formatted_body(language: str) -> None:
    for sample in samples(load_translators()[language]):
        content = message_content(sample.message)
        assert content["body"] == sample.message.text
        read = read_html(content["formatted_body"], MATRIX_TAGS)
        assert sample.message.html is not None
        assert read.text == read_html(sample.message.html).text, sample.kind
        for name in sample.names:
            if name in sample.message.text:
                assert name in read.text, (sample.kind, name)
