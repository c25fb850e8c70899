"""Folding received events into messages, without a server."""

from __future__ import annotations

from typing import Any

from .messages import TimelineEvent, current_messages

ROOM = "!table:localhost"
OTHER_ROOM = "!other:localhost"


def text(sequence: int, event_id: str, sender: str, body: str, room: str = ROOM) -> TimelineEvent:
    content = {"msgtype": "m.text", "body": body}
    return TimelineEvent(sequence, room, _event(event_id, sender, content))


def edit(sequence: int, event_id: str, sender: str, target: str, body: str) -> TimelineEvent:
    content = {
        "msgtype": "m.text",
        "body": f"* {body}",
        "m.new_content": {"msgtype": "m.text", "body": body},
        "m.relates_to": {"rel_type": "m.replace", "event_id": target},
    }
    return TimelineEvent(sequence, ROOM, _event(event_id, sender, content))


def _event(event_id: str, sender: str, content: dict[str, Any]) -> dict[str, Any]:
    return {"type": "m.room.message", "event_id": event_id, "sender": sender, "content": content}


def test_the_latest_edit_by_the_sender_is_the_current_text() -> None:
    events = [
        text(0, "$offer", "@bot:localhost", "Offer: 1 Coffee Bean"),
        edit(1, "$e1", "@bot:localhost", "$offer", "Offer: 2 Coffee Beans"),
        edit(2, "$e2", "@bot:localhost", "$offer", "Offer withdrawn"),
    ]

    [message] = current_messages(events)

    assert (message.body, message.original_body) == ("Offer withdrawn", "Offer: 1 Coffee Bean")
    assert (message.edit_ids, message.sequence) == (("$e1", "$e2"), 2)


def test_an_edit_by_someone_else_is_ignored() -> None:
    events = [
        text(0, "$offer", "@bot:localhost", "Offer: 1 Coffee Bean"),
        edit(1, "$e1", "@mallory:localhost", "$offer", "Offer: 9 Coffee Beans"),
    ]

    [message] = current_messages(events)

    assert (message.body, message.edited) == ("Offer: 1 Coffee Bean", False)


def test_an_edit_that_arrived_before_its_original_still_applies() -> None:
    events = [
        edit(0, "$e1", "@bot:localhost", "$offer", "Offer: 2 Coffee Beans"),
        text(1, "$offer", "@bot:localhost", "Offer: 1 Coffee Bean"),
    ]

    assert [m.body for m in current_messages(events)] == ["Offer: 2 Coffee Beans"]


def test_messages_keep_the_order_they_first_arrived_in() -> None:
    events = [
        text(0, "$a", "@bot:localhost", "first"),
        text(1, "$b", "@bot:localhost", "second", room=OTHER_ROOM),
        edit(2, "$e", "@bot:localhost", "$a", "first, edited"),
    ]

    assert [m.body for m in current_messages(events)] == ["first, edited", "second"]


def test_a_redacted_message_disappears() -> None:
    redaction = {"type": "m.room.redaction", "event_id": "$r", "sender": "@bot:localhost"}
    events = [
        text(0, "$prompt", "@bot:localhost", "Plant a bean?"),
        TimelineEvent(1, ROOM, {**redaction, "content": {"redacts": "$prompt"}}),
    ]

    assert current_messages(events) == []
