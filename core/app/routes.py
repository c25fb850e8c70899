"""Where each family of commands goes: one handler per family (`commands.Family`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from . import game_input, seat_commands
from .commands import LOBBY_VERBS, Command, Family, help_text
from .context import Context
from .i18n import Translator
from .inbound import Inbound
from .lobby_commands import lobby_command
from .messages import Outbound, Reply
from .player_settings import notify_setting
from .rules import rules_text
from .standings import standings_answer
from .work import Work

Handler = Callable[[Context, Work, Inbound, Command, datetime], list[Outbound]]


def route(
    ctx: Context, work: Work, inbound: Inbound, command: Command, now: datetime
) -> list[Outbound]:
    """Everything one parsed input causes, in the order it should be shown."""
    return HANDLERS[command.family](ctx, work, inbound, command, now)


def _reply(text: Callable[[Context, Inbound, Command], str]) -> Handler:
    def handler(
        ctx: Context, work: Work, inbound: Inbound, command: Command, now: datetime
    ) -> list[Outbound]:
        return [Reply(inbound, text(ctx, inbound, command))]

    return handler


def _tr(ctx: Context, inbound: Inbound) -> Translator:
    return ctx.translator(ctx.room_language(inbound.room))


def _button(
    ctx: Context, work: Work, inbound: Inbound, command: Command, now: datetime
) -> list[Outbound]:
    words = command.words
    if words[0] == "l" and len(words) >= 2 and words[1] in LOBBY_VERBS:
        return lobby_command(ctx, work, inbound, words[1], list(words[2:]), now)
    if words[0] not in ("g", "h"):
        return [Reply(inbound, _tr(ctx, inbound).gettext("This button is not one of mine."))]
    return game_input.button(ctx, work, inbound, words, now)


HANDLERS: dict[Family, Handler] = {
    Family.EMPTY: lambda ctx, work, inbound, command, now: [],
    Family.TOO_LONG: _reply(
        lambda ctx, inbound, _: _tr(ctx, inbound).gettext("That is too long to be a command.")
    ),
    Family.UNKNOWN: _reply(
        lambda ctx, inbound, _: _tr(ctx, inbound).gettext(
            "Unknown command. Send 'help' for the list."
        )
    ),
    Family.HELP: _reply(lambda ctx, inbound, _: help_text(_tr(ctx, inbound))),
    Family.RULES: _reply(
        lambda ctx, inbound, c: rules_text(_tr(ctx, inbound), c.args[0] if c.args else None)
    ),
    Family.STANDINGS: _reply(
        lambda ctx, inbound, c: standings_answer(
            _tr(ctx, inbound), ctx.store, ctx.platform, inbound, c.verb
        )
    ),
    Family.SETTINGS: lambda ctx, work, inbound, c, now: notify_setting(
        ctx, work, inbound, list(c.args), now
    ),
    Family.LOBBY: lambda ctx, work, inbound, c, now: lobby_command(
        ctx, work, inbound, c.verb, list(c.args), now
    ),
    Family.SEATS: lambda ctx, work, inbound, c, now: (
        seat_commands.move if c.verb == "move" else seat_commands.claim
    )(ctx, work, inbound, c.args, now),
    Family.PLAY: lambda ctx, work, inbound, c, now: game_input.typed(
        ctx, work, inbound, c.words, now
    ),
    Family.BUTTON: _button,
}
