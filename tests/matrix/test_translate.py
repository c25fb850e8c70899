"""Reading commands out of Matrix message bodies."""

from __future__ import annotations

from bohnanza.adapters.matrix.translate import command_text, message_content
from bohnanza.core.app.messages import Message


def test_a_command_sent_as_a_reply_is_read_without_the_quote() -> None:
    body = "> <@bot:example.org> Game AB12CD\n> Your hand: Chili\n\n!bean done"
    assert command_text(body, "!bean", private=False) == "done"
    assert command_text("> <@bot:x> Game AB\n\nplant 1", "!bean", private=True) == "plant 1"


def test_a_quote_alone_or_talk_is_not_a_command() -> None:
    assert command_text("> <@bot:x> Game AB12CD", "!bean", private=False) is None
    assert command_text("> !bean done\n\nI agree", "!bean", private=False) is None
    assert command_text("!beans please", "!bean", private=False) is None


def test_a_message_meant_to_notify_is_text_and_the_others_are_notices() -> None:
    assert message_content(Message("your move", alert=True))["msgtype"] == "m.text"
    assert message_content(Message("the table"))["msgtype"] == "m.notice"
