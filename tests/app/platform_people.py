"""The chat application as a platform runs it, and people whose every input comes through that
platform's own translation.

`platform_table` wires a `Table` (SQLite file, runner, recording port) with a platform's name,
its real capabilities and the way it reads a typed account (`user_id_of`), as its bot does.
`TelegramPeople` send python-telegram-bot `Message`s and `CallbackQuery`s through
`inbound_from_message` and `inbound_from_callback` (replies and mentions included);
`MatrixPeople` send event bodies through `inbound_from_event` with the room's members;
`IrcPeople` send PRIVMSG lines through `inbound_of`. Each is a `People`, so whole games can be
played through them.
"""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime
from pathlib import Path

from telegram import CallbackQuery, Chat, MessageEntity, User
from telegram import Message as TelegramMessage

from bohnanza.adapters.irc import inbound_of
from bohnanza.adapters.irc.port import CAPABILITIES as IRC
from bohnanza.adapters.irc.protocol import Line, casefold
from bohnanza.adapters.matrix import translate as matrix
from bohnanza.adapters.matrix.port import CAPABILITIES as MATRIX
from bohnanza.adapters.runner import Runner
from bohnanza.adapters.store import open_store
from bohnanza.adapters.telegram import translate as telegram
from bohnanza.adapters.telegram.port import CAPABILITIES as TELEGRAM
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.service import ChatService

from .recording import FakeClock, People, RecordingPort, Table

BOT_USERNAME = "BeanBot"
MATRIX_PREFIX = "!bean"
IRC_PREFIX = "!"
_IDS = itertools.count(1)


def platform_table(path: Path, platform: str, seed: int = 1) -> Table:
    """The application of `platform` ('telegram', 'matrix', 'irc') on the database at `path`,
    with the platform's capabilities and account reading, as its bot wires it."""
    capabilities, user_id_of = {
        "telegram": (TELEGRAM, telegram.account_id),
        "matrix": (MATRIX, matrix.account_id),
        "irc": (IRC, casefold),
    }[platform]
    store = open_store(str(path), create=True)
    port = RecordingPort(capabilities)
    port.platform = platform
    clock = FakeClock()
    service = ChatService(
        platform, capabilities, store, rng=random.Random(seed), user_id_of=user_id_of
    )
    return Table(path, port, clock, store, service, Runner(service, port, clock, store=store))


def restarted(table: Table, seed: int = 2) -> Table:
    """The same platform's application anew on the same database, port and clock."""
    service = ChatService(
        table.service.platform,
        table.port.capabilities,
        table.store,
        rng=random.Random(seed),
        user_id_of=table.service.ctx.user_id_of,
    )
    runner = Runner(service, table.port, table.clock, store=table.store)
    return Table(table.path, table.port, table.clock, table.store, service, runner)


# --- Telegram ------------------------------------------------------------------------------


class TelegramPeople(People):
    """People on Telegram: user ids are numbers, a group is a negative number, a private chat
    has the user's id; each input is a python-telegram-bot object the adapter translates."""

    def __init__(self, table: Table, seed: int = 7) -> None:
        super().__init__(table, seed)
        self.users: dict[str, User] = {}
        self.sent: list[TelegramMessage] = []
        """Every message people sent, to reply to."""

    def user(self, user_id: str, first_name: str = "", **fields: str) -> User:
        """The Telegram account with this id (made on first use)."""
        if user_id not in self.users or first_name or fields:
            known = self.users.get(user_id)
            name = first_name or (known.first_name if known else f"User{user_id}")
            self.users[user_id] = User(int(user_id), name, False, **fields)
        return self.users[user_id]

    def message(
        self,
        user: str,
        text: str,
        room: str,
        private: bool = False,
        reply_to: TelegramMessage | None = None,
        entities: tuple[MessageEntity, ...] = (),
    ) -> TelegramMessage:
        """A text message as Telegram delivers it to the bot."""
        chat = Chat(int(user), Chat.PRIVATE) if private else Chat(int(room), Chat.GROUP)
        message = TelegramMessage(
            next(_IDS),
            datetime.now(UTC),
            chat,
            from_user=self.user(user),
            text=text,
            reply_to_message=reply_to,
            entities=entities,
        )
        self.sent.append(message)
        return message

    async def send(self, message: TelegramMessage) -> Inbound | None:
        """Hand a message to the runner as the adapter does (if it holds a command)."""
        inbound = telegram.inbound_from_message(message, BOT_USERNAME)
        if inbound is not None:
            await self.runner.submit(inbound)
        return inbound

    async def say(
        self, user: str, text: str, room: str = "-100", private: bool = False, name: str = ""
    ) -> Inbound:
        if name:
            self.user(user, name)
        typed = text if private else f"/{text}"
        inbound = await self.send(self.message(user, typed, room, private))
        assert inbound is not None, typed
        return inbound

    async def press(self, user: str, payload: str) -> Inbound:
        chat = Chat(int(user), Chat.PRIVATE)
        query = CallbackQuery(
            str(next(_IDS)),
            self.user(user),
            "chat",
            message=TelegramMessage(next(_IDS), datetime.now(UTC), chat, text="…"),
            data=payload,
        )
        inbound = telegram.inbound_from_callback(query)
        assert inbound is not None
        await self.runner.submit(inbound)
        return inbound


# --- Matrix --------------------------------------------------------------------------------


class MatrixPeople(People):
    """People in Matrix rooms: user ids `@name:hs`, display names as the room knows them;
    each input is an event body the adapter translates, with the room's members."""

    def __init__(self, table: Table, seed: int = 7) -> None:
        super().__init__(table, seed)
        self.members: dict[str, dict[str, str | None]] = {}
        """Each room's people: user id to display name."""

    def join_room(self, room: str, user_id: str, display_name: str) -> None:
        self.members.setdefault(room, {})[user_id] = display_name

    async def say(
        self, user: str, text: str, room: str = "!g1:hs", private: bool = False, name: str = ""
    ) -> Inbound:
        where = f"!dm-{user}" if private else room
        members = self.members.get(where, {})
        display = name or members.get(user) or user
        body = text if private else f"{MATRIX_PREFIX} {text}"
        inbound = matrix.inbound_from_event(
            user, display, where, f"$e{next(_IDS)}", body, MATRIX_PREFIX, private, members
        )
        assert inbound is not None, body
        await self.runner.submit(inbound)
        return inbound


# --- IRC -------------------------------------------------------------------------------------


class IrcPeople(People):
    """People on IRC: a nick is the id (folded), commands in a channel after '!'; each input
    is a PRIVMSG line the adapter translates."""

    async def say(
        self, user: str, text: str, room: str = "#beans", private: bool = False, name: str = ""
    ) -> Inbound:
        nick = name or user
        line = Line("PRIVMSG", [BOT_USERNAME if private else room, text if private else f"!{text}"])
        inbound = inbound_of(line._replace(nick=nick), BOT_USERNAME, IRC_PREFIX)
        assert inbound is not None, text
        await self.runner.submit(inbound)
        return inbound
