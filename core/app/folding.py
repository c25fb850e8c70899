"""Where lines cost (IRC, the terminal): an answer to a player who gets his private message in
the same go is folded into that message, as its first line."""

from __future__ import annotations

from dataclasses import replace

from .messages import Outbound, Reply, ToPlayer


def folded_answers(out: list[Outbound]) -> list[Outbound]:
    """Where lines cost: an answer to a player who gets his private message in the same go
    becomes that message's first line."""
    answers: dict[str, list[str]] = {}
    for item in out:
        if isinstance(item, Reply) and any(
            isinstance(o, ToPlayer) and o.user_id == item.to.user_id for o in out
        ):
            answers.setdefault(item.to.user_id, []).append(item.text)
    folded: list[Outbound] = []
    told: set[str] = set()
    for item in out:
        if isinstance(item, Reply) and item.to.user_id in answers:
            continue
        if isinstance(item, ToPlayer) and item.user_id in answers and item.user_id not in told:
            told.add(item.user_id)
            message = item.message
            for text in reversed(answers[item.user_id]):
                message = message.with_line(text, at=0)
            item = replace(item, message=message)
        folded.append(item)
    return folded
