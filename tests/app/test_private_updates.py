"""Where nothing can be edited, a person is written to privately for decisions only: counted
over a whole game, private messages per person per turn, and those that answer no input of
his (printed; docs/adapters.md keeps the figures)."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from pathlib import Path

from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.ports import Capabilities

from .recording import People, Table

PEOPLE = ["ann", "bob", "cat", "dan"]


def private_messages_per_turn(path: Path, caps: Capabilities) -> tuple[float, float]:
    """All private messages per person per turn, and those not answering his own input."""
    table = Table.open(path, caps, seed=3)
    people = People(table, seed=3)
    answering: Counter[str] = Counter()
    submit = table.runner.submit

    async def counted(inbound: Inbound, wait: bool = True) -> asyncio.Future[None]:
        before = len(table.port.private.get(inbound.user_id, []))
        done = await submit(inbound, wait=wait)
        answering[inbound.user_id] += len(table.port.private.get(inbound.user_id, [])) - before
        return done

    table.runner.submit = counted  # type: ignore[method-assign]

    async def game() -> str:
        game_id = await people.gather("g1", PEOPLE)
        await people.play(["g1"])
        return game_id

    game_id = asyncio.run(game())
    tables = [t for t in table.port.room_texts("g1") if t.startswith(f"Bohnanza · game {game_id}")]
    match = re.search(r"· turn (\d+) ·", tables[-1])
    assert match is not None
    person_turns = len(PEOPLE) * int(match.group(1))
    sent = sum(len(table.port.private.get(user, [])) for user in PEOPLE)
    unasked = sent - sum(answering[user] for user in PEOPLE)
    return sent / person_turns, unasked / person_turns


def test_without_edits_a_person_is_written_to_for_decisions_and_answers_only(
    tmp_path: Path,
) -> None:
    every, every_unasked = private_messages_per_turn(
        tmp_path / "every.db", Capabilities(private_updates="every change")
    )
    decisions, unasked = private_messages_per_turn(tmp_path / "decisions.db", Capabilities())
    print(
        f"private messages per person per turn: every change {every:.2f} "
        f"({every_unasked:.2f} unasked), decisions {decisions:.2f} ({unasked:.2f} unasked)"
    )
    assert decisions < every * 0.7
    assert unasked <= 3 < every_unasked
