"""`bohnanza serve matrix` killed with SIGKILL just after a person sends a move.

The real command runs as a subprocess against the test homeserver. A person opens a game with a
bot seat in a room, gets his hand in the direct room the bot opens, and sends a legal move; a few
milliseconds later (0 to 60) the process is killed, so the move may be unseen, seen but not
stored, stored but not answered, or answered. Started again on the same database and state
folder, the bot settles: the move is stored exactly once, `bohnanza audit` passes, and the
person's hand message reads as the application renders the stored game. A SIGTERM then stops
the second process cleanly.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bohnanza.adapters.matrix.port import CAPABILITIES
from bohnanza.adapters.matrix.translate import PLATFORM, message_content
from bohnanza.adapters.store import open_store
from bohnanza.core.actions import Action, Plant
from bohnanza.core.app.service import ChatService
from bohnanza.core.app.session import GameSession
from bohnanza.core.app.updates import private_message
from bohnanza.core.notation import action_text

from .accounts import Account
from .messages import ReceivedMessage, TimelineEvent, current_messages
from .players import Player, open_player
from .synapse import Homeserver
from .table import room_history, translators

BOHNANZA = Path(sys.executable).with_name("bohnanza")
TABLE_START = "Bohnanza · game"
WELCOME_START = "Hello! I run games of Bohnanza"
SETTLE = 30.0


class Serve:
    """`bohnanza serve matrix` on a database and state folder; its output goes to `log`."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> Serve:
        with self.log.open("wb") as out:
            self.process = await asyncio.create_subprocess_exec(
                str(BOHNANZA),
                "serve",
                "matrix",
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        return self

    @property
    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    def signal(self, number: int) -> None:
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(number)

    async def wait(self, timeout: float = 20.0) -> int:
        assert self.process is not None
        return await asyncio.wait_for(self.process.wait(), timeout)

    async def close(self) -> None:
        """Kill it if it still runs (a test that failed half-way)."""
        if self.running():
            assert self.process is not None
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()


def serve_environment(homeserver: Homeserver, bot: Account, folder: Path) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("BOHNANZA_")}
    return clean | {
        "BOHNANZA_MATRIX_HOMESERVER": homeserver.base_url,
        "BOHNANZA_MATRIX_USER": bot.user_id,
        "BOHNANZA_MATRIX_PASSWORD": bot.password,
        "BOHNANZA_MATRIX_STATE": str(folder / "matrix"),
        "BOHNANZA_DB": str(folder / "games.db"),
        "BOHNANZA_STOP_TIMEOUT": "5",
        "BOHNANZA_LOG_LEVEL": "INFO",
    }


async def audit(db: Path) -> tuple[int, str]:
    """`bohnanza audit DB`: its exit code and output."""
    process = await asyncio.create_subprocess_exec(
        str(BOHNANZA),
        "audit",
        str(db),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode is not None
    return process.returncode, out.decode(errors="replace")


@contextlib.contextmanager
def rebuilt(db: Path, room: str) -> Iterator[tuple[ChatService, GameSession]]:
    """The room's game as a freshly started application would hold it, from the store."""
    store = open_store(str(db))
    try:
        service = ChatService(PLATFORM, CAPABILITIES, store, translators(), rng=random.Random(1))
        service.resume(datetime.now(UTC))
        session = service.games.get(room)
        assert session is not None, "no game in progress in the room"
        yield service, session
    finally:
        store.close()


def seat_of(session: GameSession, user_id: str) -> int:
    return next(s for s, control in enumerate(session.seats) if control.identity.user_id == user_id)


def rendered_hand(db: Path, room: str, user_id: str) -> str:
    """The body of the person's private message as the application renders the stored game."""
    with rebuilt(db, room) as (service, session):
        tr = service.translator(session.language)
        message = private_message(session, seat_of(session, user_id), tr, CAPABILITIES)
        return str(message_content(message)["body"])


def person_actions(db: Path, game_id: str, user_id: str) -> list[Action]:
    """The stored actions of the person's seat, in order."""
    store = open_store(str(db))
    try:
        stored = store.load_stored(game_id)
        seats = [s for s, seat in enumerate(stored.game.seats) if seat.user_id == user_id]
        return [a for a in store.load_record(game_id).actions if a.player in seats]
    finally:
        store.close()


def hand_message(messages: list[ReceivedMessage], bot: str, game_id: str) -> str | None:
    """The current body of the bot's latest hand message about the game, if any."""
    for message in reversed(messages):
        if message.sender == bot and message.body.startswith(f"Game {game_id}"):
            return message.body
    return None


async def hand_in_history(person: Player, direct: str, bot: str, game_id: str) -> str | None:
    """The hand message as the homeserver holds the direct room (edits applied)."""
    events = await room_history(person, direct)
    ordered = [TimelineEvent(n, e.room_id, e.source, e.encrypted) for n, e in enumerate(events)]
    return hand_message(current_messages(ordered), bot, game_id)


async def bot_says(
    person: Player, room: str, bot: str, after: int, starts: str = ""
) -> ReceivedMessage:
    return await person.wait_for_message(
        lambda m: m.room_id == room and m.sender == bot and m.body.startswith(starts),
        after=after,
        timeout=20.0,
    )


async def command(person: Player, room: str, bot: str, text: str, starts: str = "") -> None:
    """Say `text` in the room and wait for the bot's answer there."""
    mark = person.checkpoint()
    await person.send_text(room, text)
    await bot_says(person, room, bot, mark, starts)


async def until(done: Callable[[], object], timeout: float, person: Player) -> bool:
    """Sync the person until `done()` holds, or `timeout` passes; whether it held."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done():
            return True
        await person.sync(500)
    return False


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
@pytest.mark.parametrize("delay_ms", [0, 5, 20, 60])
async def test_a_kill_9_just_after_a_move_stores_it_once_and_shows_it(
    synapse: Homeserver, new_account: Callable[[str], Account], tmp_path: Path, delay_ms: int
) -> None:
    bot_account = new_account("beanbot")
    bot = bot_account.user_id
    env = serve_environment(synapse, bot_account, tmp_path)
    db = Path(env["BOHNANZA_DB"])
    first = Serve(env, tmp_path / "first.log")
    second = Serve(env, tmp_path / "second.log")
    try:
        await first.start()
        async with open_player(synapse, new_account("ann")) as ann:
            room = await ann.create_room(invite=[bot], name="Bean table")
            await ann.wait_for_member(room, bot, timeout=30.0)
            await bot_says(ann, room, bot, 0, WELCOME_START)
            await command(ann, room, bot, "!bean new")
            await command(ann, room, bot, "!bean bot")
            await command(ann, room, bot, "!bean set deadline off")
            await command(ann, room, bot, "!bean start", TABLE_START)
            invite = await ann.wait_for_invite(timeout=20.0)
            assert (invite.inviter, invite.is_direct) == (bot, True)
            direct = invite.room_id
            await ann.join(direct)
            await bot_says(ann, direct, bot, 0, "Game ")

            with rebuilt(db, room) as (_, session):
                game_id = session.game_id
                seat = seat_of(session, ann.user_id)
                assert seat == 0 and session.state.active == 0
                move = next(a for a in session.legal(seat).actions if isinstance(a, Plant))
            assert action_text(move) == "plant 1"
            assert person_actions(db, game_id, ann.user_id) == []

            # The move, and the kill a moment later.
            await ann.send_text(room, f"!bean {action_text(move)}")
            if delay_ms:
                await asyncio.sleep(delay_ms / 1000)
            first.signal(signal.SIGKILL)
            assert await first.wait() == -signal.SIGKILL, first.output

            await second.start()
            assert await until(lambda: "serving Matrix as" in second.output, SETTLE, ann), (
                second.output
            )
            # Answered only once the restarted bot has synced past the move, which comes first.
            probe = await ann.send_text(room, "!bean help")
            await ann.wait_for_message(
                lambda m: m.sender == bot and m.in_reply_to == probe, timeout=SETTLE
            )

            def settled() -> bool:
                if not second.running():
                    raise AssertionError(f"the restarted bot ended:\n{second.output}")
                if not person_actions(db, game_id, ann.user_id):
                    return False
                shown = hand_message(ann.messages(direct), bot, game_id)
                return shown == rendered_hand(db, room, ann.user_id)

            assert await until(settled, SETTLE, ann), second.output

            assert person_actions(db, game_id, ann.user_id) == [move], second.output
            shown = await hand_in_history(ann, direct, bot, game_id)
            assert shown == rendered_hand(db, room, ann.user_id), second.output
            code, report = await audit(db)
            assert code == 0, report

        second.signal(signal.SIGTERM)
        code = await second.wait()
        assert code == 0, second.output
        assert "Traceback" not in second.output, second.output
    finally:
        await first.close()
        await second.close()
