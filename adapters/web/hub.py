"""The live boards of a process: the pages open, what each was sent, and what every runner
says of its games (`BoardListener`).

A runner tells the hub of everything it is about to send (`posted`). The answers to inputs made
on a board are taken aside for that board; the private messages of a chat platform's games get
the entry to the board (a Mini App button on Telegram, a private link elsewhere); the web
platform's own messages are not sent at all (its pages show the game as it stands). Then the
boards open on that platform are worked out again, under the runner's lock, and each page whose
state changed is woken to send it. Inputs from a board go to its platform's runner like any
other input, with the delivery id the page gave them, so one sent twice is applied once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import AsyncGenerator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from bohnanza.adapters.boards import Boards
from bohnanza.adapters.runner import Runner
from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Button, Outbound, Reply, ToPlayer
from bohnanza.core.app.service import ChatService
from bohnanza.core.record import GameRecord

from .passes import BoardLink, Refused, link_token
from .places import WEB, Place, Places, finished_game, state_text
from .settings import WebSettings

log = logging.getLogger(__name__)

KEEPALIVE = 15.0
"""Seconds between two keep-alive lines of a page's stream (proxies close idle ones)."""
DAY = 86400


class NotServed(Exception):
    """The platform of a board does not run in this process (or stopped)."""


@dataclass(eq=False)
class Page:
    """One open board: where it looks, and the state waiting to be sent to it."""

    place: Place
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    pending: str | None = None
    sent: str | None = None


class BoardHub:
    """Shows the boards of every platform of a process (see the module's docstring)."""

    def __init__(
        self, settings: WebSettings, boards: Boards, translators: Mapping[str, Translator]
    ) -> None:
        self.settings = settings
        self.boards = boards
        self.translators = translators
        self.places = Places(translators)
        self.pages: set[Page] = set()
        self._answers: dict[str, list[str]] = {}
        self._dirty: set[str] = set()
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self._stopping = False

    # --- what runners send -------------------------------------------------------------------

    def posted(self, runner: Runner, out: Sequence[Outbound]) -> list[Outbound]:
        platform = runner.port.platform
        kept: list[Outbound] = []
        for item in out:
            if isinstance(item, Reply) and item.to.delivery_id in self._answers:
                self._answers[item.to.delivery_id].append(item.text)
            elif platform == WEB:
                continue  # a web table's pages show the game as it stands
            elif isinstance(item, ToPlayer):
                kept.append(self._with_entry(runner, item))
            else:
                kept.append(item)
        self.changed(platform)
        return kept

    def _with_entry(self, runner: Runner, item: ToPlayer) -> ToPlayer:
        """A game's private message with the way to its board: a Mini App button on
        Telegram, a private link (on every message where messages are edited, else on those
        that ask for a decision or were asked for)."""
        slot = item.slot or ""
        if not slot.startswith("hand:"):
            return item
        # Read between two inputs (posting follows the runner's work at once): no other
        # thread is using the service.
        session = runner.service.games.get(item.room)
        if session is None or session.game_id != slot[5:]:
            return item
        seat = session.seat_of(item.user_id)
        if seat is None:
            return item
        tr = self.translators.get(session.language) or self.translators["en"]
        label = tr.gettext("Open the board")
        platform = runner.port.platform
        message = item.message
        if platform == "telegram":
            if not self.settings.mini_app:
                return item
            url = f"{self.settings.url}/tg/{session.game_id}"
            button = Button(label, "", url=url)
            return replace(item, message=message.with_buttons((*message.buttons, (button,))))
        if not (runner.port.capabilities.edits or item.fresh or message.alert):
            return item  # each message is a new one: the link comes with the decisions
        link = BoardLink(platform, item.user_id, session.game_id, seat, self.link_expiry())
        url = f"{self.settings.url}/b/{link_token(self.settings.secret, link)}"
        return replace(item, message=message.with_line(f"{label}: {url}"))

    def link_expiry(self) -> int:
        """A link made today holds for the days set from the end of today (UTC): the same
        link all day long, so a message that shows one is not edited for it."""
        today = int(time.time()) // DAY * DAY
        return today + (self.settings.link_days + 1) * DAY

    # --- the pages ---------------------------------------------------------------------------

    def changed(self, platform: str) -> None:
        """The games of `platform` may have moved: its boards are worked out again soon."""
        self._dirty.add(platform)
        if platform not in self._refreshing and any(
            page.place.platform == platform for page in self.pages
        ):
            self._refreshing[platform] = asyncio.ensure_future(self._refresh(platform))

    async def _refresh(self, platform: str) -> None:
        try:
            while platform in self._dirty and not self._stopping:
                self._dirty.discard(platform)
                pages = [page for page in self.pages if page.place.platform == platform]
                places = {page.place.group: page.place for page in pages}
                runner = self.boards.runners.get(platform)
                if runner is None or not places:
                    continue
                texts = await runner.read(partial(self._texts, places=places))
                for page in pages:
                    self._send(page, texts.get(page.place.group))
        finally:
            del self._refreshing[platform]

    def _texts(
        self, service: ChatService, *, places: Mapping[tuple[Any, ...], Place]
    ) -> dict[tuple[Any, ...], str]:
        texts = {}
        moments: dict[int, str] = {}
        for group, place in places.items():
            try:
                texts[group] = self.places.text(service, place, moments)
            except Refused as refused:
                texts[group] = state_text({"kind": "refused", "reason": refused.reason})
            except Exception:
                log.exception("a board of %s could not be shown", place.platform)
        self.places.forget(service.platform, set(places))
        return texts

    def _send(self, page: Page, text: str | None) -> None:
        if text is not None and text != page.sent and text != page.pending:
            page.pending = text
            page.wake.set()

    def runner_of(self, platform: str) -> Runner:
        runner = self.boards.runners.get(platform)
        if runner is None:
            raise NotServed(platform)
        return runner

    async def state(self, place: Place) -> dict[str, Any]:
        """What a board at `place` shows now (Refused, NotServed)."""
        runner = self.runner_of(place.platform)
        return await runner.read(lambda service: self.places.state(service, place))

    async def language(self, place: Place) -> str:
        """The language of the game or table at `place` ('en' until it is known)."""
        try:
            runner = self.runner_of(place.platform)
            return await runner.read(lambda service: self.places.language(service, place))
        except (NotServed, Refused):
            return "en"

    async def games_of(self, platform: str, user_id: str) -> list[dict[str, str]]:
        """A player's games in progress on a platform: each one's id and language."""
        runner = self.runner_of(platform)
        return await runner.read(
            lambda service: [
                {"game": session.game_id, "language": session.language}
                for session in service.ctx.tables.player_sessions(user_id)
            ]
        )

    async def finished_record(self, place: Place) -> tuple[GameRecord, int | None, str] | None:
        """The finished game of `place` (its `game_id`), the seat of its visitor and its
        language; None when there is none (Refused, NotServed)."""
        runner = self.runner_of(place.platform)
        return await runner.read(lambda service: finished_game(service, place, place.game_id))

    async def stream(self, place: Place) -> AsyncGenerator[str]:
        """The states of a board as they change, the first at once; a keep-alive line (an
        SSE comment) when nothing changed for a while. Refused or NotServed before the first."""
        first = state_text(await self.state(place))
        page = Page(place, sent=first)
        self.pages.add(page)
        try:
            yield _event(first)
            while not self._stopping:
                try:
                    async with asyncio.timeout(KEEPALIVE):
                        await page.wake.wait()
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                page.wake.clear()
                text, page.pending = page.pending, None
                if text is not None and not self._stopping:
                    page.sent = text
                    yield _event(text)
        finally:
            self.pages.discard(page)

    # --- inputs ------------------------------------------------------------------------------

    async def submit(self, place: Place, text: str, button: bool, delivery: str) -> list[str]:
        """An input made on a board, as its visitor's own, to its platform's runner: stored
        with its delivery id before this returns; the answers it got (none when it was
        applied before)."""
        visitor = place.visitor
        assert visitor is not None
        runner = self.runner_of(place.platform)
        digest = hashlib.blake2s(visitor.user_id.encode(), digest_size=6).hexdigest()
        delivery_id = f"board:{digest}:{delivery}"
        private = not place.room
        inbound = Inbound(
            place.platform,
            visitor.user_id,
            visitor.name,
            place.room or visitor.user_id,
            text,
            delivery_id=delivery_id,
            private=private,
            button=button,
        )
        answers = self._answers.setdefault(delivery_id, [])
        try:
            await runner.submit(inbound, wait=False)
        finally:
            self._answers.pop(delivery_id, None)
        return [answer for answer in answers if answer != "✓"]

    async def stop(self) -> None:
        """End every stream (their pages connect again to the next server)."""
        self._stopping = True
        for page in list(self.pages):
            page.wake.set()
        for task in list(self._refreshing.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _event(text: str) -> str:
    return f"data: {text}\n\n"
