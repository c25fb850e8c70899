"""What a client has received, folded into messages as a person sees them: edits applied."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

JsonDict = Mapping[str, Any]


@dataclass(frozen=True)
class TimelineEvent:
    """One room event as a client received it, decrypted where it came encrypted."""

    sequence: int
    room_id: str
    source: JsonDict
    encrypted: bool = False

    @property
    def type(self) -> str:
        return str(self.source.get("type", ""))

    @property
    def event_id(self) -> str:
        return str(self.source.get("event_id", ""))

    @property
    def sender(self) -> str:
        return str(self.source.get("sender", ""))

    @property
    def content(self) -> JsonDict:
        content: JsonDict = self.source.get("content") or {}
        return content


@dataclass(frozen=True)
class ReceivedMessage:
    """An m.room.message with its current content; `sequence` moves on with every edit."""

    room_id: str
    event_id: str
    sender: str
    content: JsonDict
    original_content: JsonDict
    encrypted: bool
    sequence: int
    edit_ids: tuple[str, ...] = field(default=())

    @property
    def body(self) -> str:
        return str(self.content.get("body", ""))

    @property
    def original_body(self) -> str:
        return str(self.original_content.get("body", ""))

    @property
    def msgtype(self) -> str:
        return str(self.content.get("msgtype", ""))

    @property
    def formatted_body(self) -> str | None:
        formatted = self.content.get("formatted_body")
        return None if formatted is None else str(formatted)

    @property
    def edited(self) -> bool:
        return bool(self.edit_ids)

    @property
    def in_reply_to(self) -> str | None:
        """The event this message answers, from the original's m.in_reply_to."""
        relation = self.original_content.get("m.relates_to") or {}
        reply = relation.get("m.in_reply_to") or {}
        target = reply.get("event_id")
        return None if target is None else str(target)


def replaced_event_id(event: TimelineEvent) -> str | None:
    """The event that `event` edits, when it is a well-formed m.replace."""
    relation = event.content.get("m.relates_to") or {}
    if relation.get("rel_type") != "m.replace" or "m.new_content" not in event.content:
        return None
    target = relation.get("event_id")
    return None if target is None else str(target)


def redacted_event_id(event: TimelineEvent) -> str | None:
    """The event that a redaction removes (older rooms name it at top level, v11 in content)."""
    if event.type != "m.room.redaction":
        return None
    target = event.source.get("redacts") or event.content.get("redacts")
    return None if target is None else str(target)


def current_messages(events: Iterable[TimelineEvent]) -> list[ReceivedMessage]:
    """Messages in first-arrival order with their latest valid edit; redacted ones left out."""
    ordered = sorted(events, key=lambda event: event.sequence)
    messages: dict[str, ReceivedMessage] = {}
    for event in ordered:
        if event.type == "m.room.message" and replaced_event_id(event) is None:
            messages[event.event_id] = ReceivedMessage(
                room_id=event.room_id,
                event_id=event.event_id,
                sender=event.sender,
                content=event.content,
                original_content=event.content,
                encrypted=event.encrypted,
                sequence=event.sequence,
            )
    # Edits are applied after every original is known, so an edit that arrived
    # before its original (a gappy sync) still counts.
    for event in ordered:
        target = replaced_event_id(event) if event.type == "m.room.message" else None
        original = messages.get(target) if target else None
        # The spec accepts only edits by the original sender in the same room.
        if original and original.sender == event.sender and original.room_id == event.room_id:
            messages[original.event_id] = replace(
                original,
                content=event.content["m.new_content"],
                sequence=max(original.sequence, event.sequence),
                edit_ids=(*original.edit_ids, event.event_id),
            )
    for event in ordered:
        removed = redacted_event_id(event)
        if removed:
            messages.pop(removed, None)
    return list(messages.values())
