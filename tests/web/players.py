"""People at a web table, playing by what their boards show, as they would with clicks: the
moves listed, offers answered, now and then an offer of their own built from their hand."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .serving import Browser

Where = Mapping[str, str]


def command_of(payload: str) -> str:
    return " ".join(payload.split()[3:])


def answer_to(command: str, offer: int) -> bool:
    """Whether a move's command answers the offer numbered `offer` (an accept names the
    cards given after it)."""
    words = command.split(";")[0].split()
    return len(words) >= 2 and words[0] in ("accept", "decline") and words[1] == str(offer)


def choice(state: Mapping[str, Any], rng: random.Random) -> tuple[str, str] | None:
    """What a person does on his board now (the payload, and what it is), or None when
    nothing is his to do."""
    viewer = state.get("viewer")
    if state.get("kind") != "game" or viewer is None or viewer not in state["waiting"]:
        return None
    choices = [c["payload"] for c in state.get("choices", [])]
    commands = {command_of(p): p for p in choices}
    for offer in state["offers"]:
        if offer["to"] == viewer:
            verb = "accept" if rng.random() < 0.3 else "decline"
            answering = {c.split()[0]: p for c, p in commands.items() if answer_to(c, offer["id"])}
            payload = answering.get(verb) or answering.get("decline")
            if payload:
                return payload, verb
    if "pass" in commands:
        return commands["pass"], "pass"
    trade = state.get("trade")
    mine = [o for o in state["offers"] if o["from"] == viewer]
    if trade and state["hand"] and not mine and rng.random() < 0.3:
        target = "a" if len(trade["partners"]) > 1 else f"s{trade['partners'][0] + 1}"
        want = format(trade["beans"][rng.randrange(len(trade["beans"]))], "x")
        draft = f"send {target} 1 0 {want}"
        return f"g {state['game']} {state['token']} {draft}", "offer"
    answers = ("accept", "decline", "withdraw")
    moves = [p for p in choices if command_of(p).split()[0] not in answers]
    if not moves:
        return None
    return moves[0], command_of(moves[0])


async def play_to_the_end(
    seated: list[Browser], where: Where, seed: int = 1, most: int = 3000
) -> int:
    """Each person makes the move his board offers until the game is over; how many inputs."""
    rng = random.Random(seed)
    inputs = idle = 0
    while inputs < most:
        acted = False
        for browser in seated:
            status, state = await browser.state(where)
            assert status == 200, state
            if state.get("kind") == "game" and "result" in state:
                return inputs
            chosen = choice(state, rng)
            if chosen is None:
                continue
            status, reply = await browser.send(where, chosen[0])
            assert status == 200, reply
            inputs += 1
            acted = True
        idle = 0 if acted else idle + 1
        assert idle < 200, "nobody could move"
    raise AssertionError("the game did not end")
