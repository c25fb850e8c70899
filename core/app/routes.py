"""Where each family of commands goes: one handler per family (`commands.Family`)."""

from __future__ import annotations

from datetime import datetime

from . import game_input, seat_commands
from .commands import LOBBY_VERBS, Command, Family, help_text
from .context import Context
from .inbound import Inbound
from .learning import analysis_request
from .lobby_commands import lobby_command
from .messages import Outbound, Reply
from .player_settings import notify_setting
from .rules import rules_text
from .standings import standings_answer
from .work import Work


def route(
    ctx: Context, work: Work, inbound: Inbound, command: Command, now: datetime
) -> list[Outbound]:
    """Everything one parsed input causes, in the order it should be shown."""
    tr = ctx.translator(ctx.room_language(inbound.room))
    args = list(command.args)
    match command.family:
        case Family.PLAY:
            return game_input.typed(ctx, work, inbound, command.words, now)
        case Family.BUTTON:
            return _button(ctx, work, inbound, command, now)
        case Family.LOBBY:
            return lobby_command(ctx, work, inbound, command.verb, args, now)
        case Family.SEATS if command.verb == "move":
            return seat_commands.move(ctx, work, inbound, command.args, now)
        case Family.SEATS:
            return seat_commands.claim(ctx, work, inbound, command.args, now)
        case Family.ANALYSIS:
            return analysis_request(ctx, inbound)
        case Family.SETTINGS:
            return notify_setting(ctx, work, inbound, args, now)
        case Family.STANDINGS:
            text = standings_answer(tr, ctx.store, ctx.platform, inbound, command.verb)
        case Family.RULES:
            text = rules_text(tr, args[0] if args else None)
        case Family.HELP:
            text = help_text(tr)
        case Family.TOO_LONG:
            text = tr.gettext("That is too long to be a command.")
        case Family.UNKNOWN:
            text = tr.gettext("Unknown command. Send 'help' for the list.")
        case Family.FOREIGN_DIGITS:
            text = tr.gettext("Write numbers with the digits 0 to 9.")
        case Family.EMPTY:
            return []
    return [Reply(inbound, text)]


def _button(
    ctx: Context, work: Work, inbound: Inbound, command: Command, now: datetime
) -> list[Outbound]:
    """A lobby's button (`l VERB`), a game's (`g …`) or a hand's (`h GAME`)."""
    words = command.words
    if words[0] == "l" and len(words) >= 2 and words[1] in LOBBY_VERBS:
        return lobby_command(ctx, work, inbound, words[1], list(words[2:]), now)
    if words[0] not in ("g", "h"):
        tr = ctx.translator(ctx.room_language(inbound.room))
        return [Reply(inbound, tr.gettext("This button is not one of mine."))]
    return game_input.button(ctx, work, inbound, words, now)
