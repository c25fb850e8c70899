"""The table tells what happened lately, in one line per event, and a restart tells the same."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bohnanza.core.app.i18n import English
from bohnanza.core.app.updates import table_message
from bohnanza.core.events import FieldHarvested, TradeAccepted

from .recording import BUTTONS_AND_EDITS, People, Table


def test_the_table_tells_the_latest_sales_and_trades_and_a_restart_tells_the_same(
    tmp_path: Path,
) -> None:
    table = Table.open(tmp_path / "games.db", seed=4)
    people = People(table, seed=4)

    async def until_a_sale_and_a_trade() -> None:
        await people.gather("g1", ["ann", "bob", "bot", "cat"])
        sold = traded = False
        for _ in range(3000):
            session = table.session("g1")
            sold = sold or any(isinstance(e, FieldHarvested) for e in session.story.recent)
            traded = traded or any(isinstance(e, TradeAccepted) for e in session.story.recent)
            if sold and traded and len(session.story.recent) == 3:
                return
            if not await people.move("g1"):
                wake = table.service.next_wakeup()
                assert wake is not None
                table.clock.set(wake)
                await table.runner.tick()
        raise AssertionError("no sale and trade came")

    asyncio.run(until_a_sale_and_a_trade())
    session = table.session("g1")
    text = table_message(session, English(), BUTTONS_AND_EDITS).text
    told = [line for line in text.splitlines() if line.startswith("· ")]
    assert 1 <= len(told) <= 3
    assert all(" sold " in line or " gave " in line or "deck" in line for line in told)

    later = table.restarted()
    asyncio.run(later.runner.start())
    again = table_message(later.session("g1"), English(), BUTTONS_AND_EDITS).text
    assert [line for line in again.splitlines() if line.startswith("· ")] == told
