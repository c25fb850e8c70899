"""Pure translation between Matrix events and the chat application's values."""

from __future__ import annotations

from typing import Any

from bohnanza.adapters.prefix import command_text as addressed
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Message

PLATFORM = "matrix"
DEFAULT_PREFIX = "!bean"
HTML_FORMAT = "org.matrix.custom.html"
MAX_FORMATTED = 20_000
"""Bytes of formatted body at most: a homeserver refuses events over 64 KiB, and an edit holds
its content twice. A message with more is sent as plain text."""


def command_text(body: str, prefix: str, private: bool) -> str | None:
    """The command in a message body, without the prefix; None when it is not for the bot.

    In a group room only messages that start with the prefix are read; in a direct room with
    the bot every message is a command (the prefix is allowed there too).
    """
    return addressed(without_reply_fallback(body), [prefix], private=private)


def without_reply_fallback(body: str) -> str:
    """A reply's body without the quote of the message it answers: clients put the quoted
    lines first, each starting with '>', then an empty line, then what was written."""
    lines = body.split("\n")
    if not lines or not lines[0].startswith("> "):
        return body
    index = 0
    while index < len(lines) and lines[index].startswith(">"):
        index += 1
    if index < len(lines) and lines[index] == "":
        index += 1
    return "\n".join(lines[index:])


def inbound_from_event(
    sender: str, name: str, room_id: str, event_id: str, body: str, prefix: str, private: bool
) -> Inbound | None:
    """The application's input for a text event, or None if it holds no command."""
    text = command_text(body, prefix, private)
    if text is None:
        return None
    return Inbound(PLATFORM, sender, name, room_id, text, delivery_id=event_id, private=private)


def formatted_body(html: str) -> str:
    """A message's HTML as Matrix clients read it: its lines broken by `<br>`, and the spaces
    that indent a line kept (HTML would collapse them)."""
    lines = []
    for line in html.split("\n"):
        text = line.lstrip(" ")
        lines.append("&nbsp;" * (len(line) - len(text)) + text)
    return "<br>".join(lines)


def message_content(message: Message) -> dict[str, Any]:
    """A notice (bots speak in notices, so other bots do not answer them, and the default push
    rules keep them silent); a message meant to notify (a decision is due) is plain text,
    which the default push rules announce in a direct room. The plain text is the body; a
    message with HTML also has it as the formatted body."""
    content: dict[str, Any] = {
        "msgtype": "m.text" if message.alert else "m.notice",
        "body": message.text,
    }
    if message.html is not None:
        html = formatted_body(message.html)
        if len(html.encode()) <= MAX_FORMATTED:
            content["format"] = HTML_FORMAT
            content["formatted_body"] = html
    return content


def edit_content(event_id: str, message: Message) -> dict[str, Any]:
    """An edit (m.replace) of an earlier notice; clients without edits show the starred body
    (and the starred formatted body)."""
    new = message_content(message)
    content: dict[str, Any] = {"msgtype": "m.notice", "body": f"* {message.text}"}
    if "formatted_body" in new:
        content["format"] = HTML_FORMAT
        content["formatted_body"] = f"* {new['formatted_body']}"
    content["m.new_content"] = new
    content["m.relates_to"] = {"rel_type": "m.replace", "event_id": event_id}
    return content


def reply_content(event_id: str, text: str) -> dict[str, Any]:
    """A notice that replies to the event it answers."""
    return {
        "msgtype": "m.notice",
        "body": text,
        "m.relates_to": {"m.in_reply_to": {"event_id": event_id}},
    }
