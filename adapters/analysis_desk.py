"""The expert's desk: the analyses rooms ask for (`analysis`), worked out beside the rooms'
messages, never in front of them.

A room's request (a `GamePage` with `analysis`) does not wait in the room's outbox: it joins the
desk's line, and the room is told at once where it stands (worked on now, or after how many
others). The line is bounded: with `MAX_WAITING` requests waiting besides the one worked on, a
new one is refused, and its room is told to ask again in a while. One analysis at a time is
worked out in the background process (`background`: minutes of CPU); when it is ready, its
summary and the page with it go to the room's outbox like any other message.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bohnanza.adapters import background
from bohnanza.adapters.analysis_words import summary_lines
from bohnanza.adapters.i18n import load_translator
from bohnanza.adapters.runner_ports import GameRecords
from bohnanza.core.analysis import Analysis
from bohnanza.core.app.i18n import LANGUAGES
from bohnanza.core.app.messages import GamePage, Message, Outbound, ToRoom

log = logging.getLogger("bohnanza.adapters.runner")

MAX_WAITING = 4
"""Requests that may wait while one is worked on; a request beyond them is refused."""
DONE_KEPT = 1_000
"""How many analysed games the desk remembers (asked again, the room is pointed above)."""


@dataclass(frozen=True)
class AnalysedPage(GamePage):
    """A finished game's page with its analysis worked out, ready to be sent."""

    worked_out: Analysis | None = None


class AnalysisDesk:
    """A line of analysis requests, worked on one at a time beside the rooms' messages;
    `post` queues what the rooms are to be told and sent (the runner's outboxes)."""

    def __init__(
        self,
        records: GameRecords,
        post: Callable[[Sequence[Outbound]], object],
        max_waiting: int = MAX_WAITING,
    ) -> None:
        self._records = records
        self._post = post
        self.max_waiting = max_waiting
        self._line: collections.deque[GamePage] = collections.deque()
        """The request worked on first, then those waiting, in order."""
        self._done: collections.OrderedDict[str, None] = collections.OrderedDict()
        self._task: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        """Whether a request is being worked on (or waits)."""
        return bool(self._line)

    def take_requests(self, out: Sequence[Outbound]) -> list[Outbound]:
        """The messages to send, each room's request of an analysis taken into the line and
        what its room is told now in its place."""
        sent: list[Outbound] = []
        for item in out:
            if type(item) is GamePage and item.analysis:
                sent += self.ask(item)
            else:
                sent.append(item)
        return sent

    def ask(self, request: GamePage) -> list[Outbound]:
        """Take a room's request into the line, or refuse it; what its room is told now."""
        tr = load_translator(_language(request))
        game = request.game_id
        if game in self._done or any(r.game_id == game for r in self._line):
            text = tr.gettext("The analysis of game {game} was asked already.").format(game=game)
            return [ToRoom(request.room, Message(text))]
        ahead = len(self._line)
        if ahead > self.max_waiting:
            text = tr.ngettext(
                "The expert has {count} analysis to work out first: ask again in a while.",
                "The expert has {count} analyses to work out first: ask again in a while.",
                ahead,
            ).format(count=ahead)
            return [ToRoom(request.room, Message(text))]
        self._line.append(request)
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._work())
        if ahead == 0:
            text = tr.gettext(
                "The expert looks back at game {game}; its analysis comes here in a few minutes."
            )
        else:
            text = tr.ngettext(
                "The expert looks back at game {game} after {count} other game; its analysis "
                "comes here when it is ready.",
                "The expert looks back at game {game} after {count} other games; its analysis "
                "comes here when it is ready.",
                ahead,
            )
        return [ToRoom(request.room, Message(text.format(game=game, count=ahead)))]

    async def _work(self) -> None:
        """Work out the requests in order, each in the background process, and send each as
        it is ready."""
        while self._line:
            request = self._line[0]
            try:
                record = self._records.load_record(request.game_id)
                analysis = await background.review_in_background(record)
            except Exception:
                log.exception("the analysis of game %s failed", request.game_id)
                tr = load_translator(_language(request))
                text = tr.gettext("The analysis of game {game} could not be made.")
                self._post([ToRoom(request.room, Message(text.format(game=request.game_id)))])
            else:
                self._done[request.game_id] = None
                while len(self._done) > DONE_KEPT:
                    self._done.popitem(last=False)
                self._post(_ready(request, analysis))
            finally:
                if self._line and self._line[0] is request:
                    self._line.popleft()

    async def idle(self) -> None:
        """Wait until every request taken was worked out."""
        while self._task is not None and not self._task.done():
            await asyncio.wait({self._task})

    def close(self) -> None:
        """Stop working: the requests taken are dropped (the background process may finish
        the one in hand; nobody waits for it)."""
        if self._task is not None:
            self._task.cancel()
        self._line.clear()


def _language(request: GamePage) -> str:
    return request.language if request.language in LANGUAGES else "en"


def _ready(request: GamePage, analysis: Analysis) -> list[Outbound]:
    """The summary told in the room, and the page with the analysis."""
    tr = load_translator(_language(request))
    lines = [tr.gettext("Game {game} looked back:").format(game=request.game_id)]
    summary = ToRoom(request.room, Message("\n".join(lines + summary_lines(tr, analysis))))
    page = AnalysedPage(
        request.room,
        request.game_id,
        request.language,
        request.caption,
        analysis=True,
        worked_out=analysis,
    )
    return [summary, page]
