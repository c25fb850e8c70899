"""Pure translation between Matrix events and the chat application's values."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bohnanza.adapters.prefix import command_text as addressed
from bohnanza.core.app.inbound import Inbound, Named
from bohnanza.core.app.messages import Message
from bohnanza.core.app.names import MAX_NAME, name_key

PLATFORM = "matrix"
_USER_ID = re.compile(r"@[^:\s]+:[^\s]+")
MAX_NAME_WORDS = MAX_NAME // 2
"""The most words a display name said in a command is looked for in (a name is at most
`MAX_NAME` characters)."""
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
    sender: str,
    name: str,
    room_id: str,
    event_id: str,
    body: str,
    prefix: str,
    private: bool,
    members: Mapping[str, str | None] | None = None,
) -> Inbound | None:
    """The application's input for a text event, or None if it holds no command. `members`:
    the room's people (user id, display name), for the names the command says."""
    text = command_text(body, prefix, private)
    if text is None:
        return None
    named = members_named(text, sender, members or {})
    return Inbound(
        PLATFORM, sender, name, room_id, text, delivery_id=event_id, private=private, named=named
    )


def members_named(text: str, sender: str, members: Mapping[str, str | None]) -> tuple[Named, ...]:
    """The room's people (other than the sender) whose display name a command says after its
    verb, as words of their own: the way Matrix clients write a mention in a message's body."""
    words = text.split()[1:]
    said = {
        name_key(" ".join(words[start:end])): " ".join(words[start:end])
        for start in range(len(words))
        for end in range(start + 1, min(len(words), start + MAX_NAME_WORDS) + 1)
    }
    named = []
    for user_id, display_name in members.items():
        key = name_key(display_name or "")
        if user_id != sender and key in said:
            named.append(Named(user_id, display_name or user_id, said[key]))
    return tuple(named)


def with_reply_author(inbound: Inbound, author: str, name: str) -> Inbound:
    """The input with the author of the message it answers among the people it names."""
    if author == inbound.user_id:
        return inbound
    return replace(inbound, named=(Named(author, name), *inbound.named))


def replied_event(content: Mapping[str, Any]) -> str | None:
    """The id of the event a message answers, if it is a reply."""
    relation = content.get("m.relates_to")
    reply = relation.get("m.in_reply_to") if isinstance(relation, dict) else None
    event_id = reply.get("event_id") if isinstance(reply, dict) else None
    return event_id if isinstance(event_id, str) else None


def account_id(word: str) -> str:
    """The account a typed word names on Matrix: a user id ('@name:server'); '' for any other
    word (a display name is resolved among the room's people: `members_named`)."""
    word = word.strip()
    return word if _USER_ID.fullmatch(word) else ""


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
