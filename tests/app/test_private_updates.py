"""Where nothing can be edited, a person is written to privately only when a decision is his,
when it answers what he did, or when an offer to him or of his changed. Counted over a whole
game of four people, with the capabilities of a plain line platform, of IRC and of the
terminal: private messages per person per turn, those that answer no input of his, his inputs,
and of those typed as the number of a choice, how many were refused (printed; docs/adapters.md
keeps the figures)."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from bohnanza.adapters.irc.port import CAPABILITIES as IRC
from bohnanza.adapters.terminal.port import CAPABILITIES as TERMINAL
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.ports import Capabilities

from .recording import People, Table

PEOPLE = ["ann", "bob", "cat", "dan"]
NUMBERS = 0.7
"""How often a person whose latest message lists his move answers with its number."""


@dataclass(frozen=True)
class Tally:
    """What four people were sent privately over one game, per person per turn."""

    messages: float
    unasked: float
    """Messages that came while he was not sending an input: not an answer to him."""
    inputs: float
    most_per_input: int
    """The most private messages one input of his brought him."""
    numbered: int
    """His inputs that were the number of a choice."""
    refused: list[str]
    """What he was told for each number not taken."""
    turns: int

    @property
    def refused_share(self) -> float:
        return len(self.refused) / self.numbered if self.numbered else 0.0


def tally(path: Path, caps: Capabilities) -> Tally:
    table = Table.open(path, caps, seed=3)
    # Where choices are numbered, a person mostly answers with the number of the line he reads.
    people = People(table, seed=3, numbers=NUMBERS)
    answering: Counter[str] = Counter()
    inputs: Counter[str] = Counter()
    most = 0
    submit = table.runner.submit

    async def counted(inbound: Inbound, wait: bool = True) -> asyncio.Future[None]:
        nonlocal most
        before = len(table.port.private.get(inbound.user_id, []))
        done = await submit(inbound, wait=wait)
        brought = len(table.port.private.get(inbound.user_id, [])) - before
        answering[inbound.user_id] += brought
        inputs[inbound.user_id] += 1
        most = max(most, brought)
        return done

    table.runner.submit = counted  # type: ignore[method-assign]

    async def game() -> None:
        await people.gather("g1", PEOPLE)
        await people.play(["g1"])

    asyncio.run(game())
    tables = [t for t in table.port.room_texts("g1") if t.startswith("Bohnanza · game ")]
    match = re.search(r"· turn (\d+) ·", tables[-1])
    assert match is not None
    person_turns = len(PEOPLE) * int(match.group(1))
    sent = sum(len(table.port.private.get(user, [])) for user in PEOPLE)
    unasked = sent - sum(answering[user] for user in PEOPLE)
    typed = sum(inputs[user] for user in PEOPLE)
    return Tally(
        sent / person_turns,
        unasked / person_turns,
        typed / person_turns,
        most,
        people.numbered,
        people.refusals,
        person_turns // len(PEOPLE),
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "platform, caps",
    [("no edits", Capabilities()), ("IRC", IRC), ("terminal", TERMINAL)],
)
def test_without_edits_a_person_is_written_to_for_decisions_and_answers_only(
    tmp_path: Path, platform: str, caps: Capabilities
) -> None:
    every = tally(tmp_path / "every.db", replace(caps, private_updates="every change"))
    decisions = tally(tmp_path / "decisions.db", caps)
    print(
        f"{platform}, {decisions.turns} turns: private messages per person per turn: "
        f"every change {every.messages:.2f} "
        f"({every.unasked:.2f} unasked), decisions {decisions.messages:.2f} "
        f"({decisions.unasked:.2f} unasked); his inputs {decisions.inputs:.2f}, "
        f"at most {decisions.most_per_input} message(s) for one; numbers refused "
        f"{len(decisions.refused)} of {decisions.numbered} ({decisions.refused_share:.1%})"
    )
    for told in sorted(set(decisions.refused))[:5]:
        print(f"  refused: {told}")
    assert decisions.messages < every.messages * 0.7
    assert decisions.unasked <= 3 < every.unasked
    # An input is answered by one private message at most: where the answer comes with his new
    # list, it heads the list.
    assert decisions.most_per_input == 1
    # A number he reads in his latest list is taken; refused only where the choice it named
    # was shown, since his last input, doing something else.
    assert decisions.numbered >= 200
    assert decisions.refused_share <= 0.02, decisions.refused
