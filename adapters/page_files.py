"""A finished game's page sent to its room as a file.

The page is made from the stored record when its turn in the room's outbox comes (off the event
loop: a long game takes a moment), with the analysis the desk worked out if it comes from there
(`analysis_desk.AnalysedPage`). A platform that takes no files gets none.
"""

from __future__ import annotations

import asyncio

from bohnanza.adapters.analysis_desk import AnalysedPage
from bohnanza.adapters.game_page import game_page
from bohnanza.adapters.runner_ports import GameRecords
from bohnanza.core.app.i18n import LANGUAGES
from bohnanza.core.app.messages import GamePage
from bohnanza.core.app.ports import ChatPort


def page_filename(game_id: str) -> str:
    """The name of a game's page as a file."""
    return f"bohnanza-{game_id}.html"


async def send_game_page(port: ChatPort, records: GameRecords, item: GamePage) -> None:
    """Make the game's page from its stored record and send it to the room as a file."""
    if not port.capabilities.files:
        return
    record = records.load_record(item.game_id)
    language = item.language if item.language in LANGUAGES else "en"
    analysis = item.worked_out if isinstance(item, AnalysedPage) else None
    page = await asyncio.to_thread(game_page, record, language, analysis=analysis)
    await port.send_file(item.room, page_filename(item.game_id), page, item.caption)
