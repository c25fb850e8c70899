"""The IRC bot as `bohnanza serve irc` runs it, in the test's event loop, and its runner.

`RunningIrcBot` builds what the platform's `serve` builds (the client, the port, `serve_chat`
on a SQLite store) and keeps hold of the runner, so a test waits for exactly the commands it
sent to be handled and their messages delivered.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from pathlib import Path

from bohnanza.adapters.irc import listen
from bohnanza.adapters.irc.client import IrcClient
from bohnanza.adapters.irc.port import IrcPort
from bohnanza.adapters.irc.protocol import casefold
from bohnanza.adapters.irc.settings import read_settings
from bohnanza.adapters.kit import Inbound, Runner, ServeContext, serve_chat
from bohnanza.adapters.store import open_store
from bohnanza.adapters.store.sql_store import SqlGameStore
from bohnanza.core.app.i18n import English, Translator
from bohnanza.core.app.session import GameSession

from .people import WAIT, Person


def translators() -> dict[str, Translator]:
    try:
        from bohnanza.adapters.i18n import load_translators

        return load_translators()
    except Exception:
        return {"en": English()}


class RunningIrcBot:
    """The bot on the test network, serving its channel from a store in `folder`."""

    def __init__(self, env: dict[str, str], folder: Path, seed: int = 1, burst: int = 8) -> None:
        self.env = env
        self.store: SqlGameStore = open_store(str(folder / "games.db"), create=True)
        self.client = IrcClient(read_settings(env))
        self.port = IrcPort(self.client, burst=burst)
        self.seed = seed
        self.runner: Runner | None = None
        self.task: asyncio.Task[None] | None = None
        self.handled = 0
        """Commands handled to their end: stored, and their messages delivered."""
        self.renamed: list[tuple[str, str]] = []
        self.unreachable: list[str] = []
        self._changed = asyncio.Event()

    async def start(self) -> RunningIrcBot:
        captured: asyncio.Future[Runner] = asyncio.get_running_loop().create_future()

        async def listening(runner: Runner) -> None:
            self._watch(runner)
            captured.set_result(runner)
            await listen(self.client, runner)

        context = ServeContext(self.store, translators(), self.env, stop_timeout=5.0)
        serving = serve_chat(context, self.port, listening, user_id_of=casefold)
        self.task = asyncio.create_task(serving)
        self.runner = await asyncio.wait_for(captured, WAIT)
        async with asyncio.timeout(WAIT):
            await self.client.ready.wait()
        return self

    def _watch(self, runner: Runner) -> None:
        runner.service.rng = random.Random(self.seed)
        submit, rename, unreachable = runner.submit, runner.rename, runner.unreachable

        async def counted(inbound: Inbound, wait: bool = True) -> asyncio.Future[None]:
            def count(_: object = None) -> None:
                self.handled += 1
                self._changed.set()

            try:
                delivered = await submit(inbound, wait)
            except BaseException:
                count()
                raise
            delivered.add_done_callback(count)
            return delivered

        async def renamed(old: str, new: str, name: str) -> None:
            await rename(old, new, name)
            self.renamed.append((old, new))
            self._changed.set()

        async def gone(user_id: str, tell: bool = True) -> None:
            await unreachable(user_id, tell)
            if tell:
                self.unreachable.append(user_id)
            self._changed.set()

        runner.submit = counted  # type: ignore[method-assign]
        runner.rename = renamed  # type: ignore[method-assign]
        runner.unreachable = gone  # type: ignore[method-assign]

    async def until(self, done: Callable[[], bool], what: str) -> None:
        async with asyncio.timeout(WAIT):
            while not done():
                if self.task is not None and self.task.done():
                    raise AssertionError(f"the bot stopped before {what}: {self.task}")
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.5):
                        await self._changed.wait()

    async def say(self, person: Person, target: str, text: str) -> None:
        """`person` says `text` to `target` (the channel, or the bot's nick); return once the
        bot handled it and delivered what it caused."""
        before = self.handled
        await person.say(target, text)
        await self.until(lambda: self.handled > before, f"handling {text!r}")
        assert self.runner is not None
        assert await self.runner.drain(WAIT)

    def session(self, channel: str) -> GameSession | None:
        assert self.runner is not None
        return self.runner.service.games.get(casefold(channel))

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
