"""Where each family of commands goes: one handler per family (`commands.Family`), each handed
the input's catalog, the room's language derived once here."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..table_setup import TableSetup
from . import game_input, seat_commands
from .commands import Command, Family, help_text
from .context import Context
from .inbound import Inbound
from .learning import analysis_request
from .lobby_commands import lobby_command
from .messages import Reply
from .player_settings import player_setting
from .presenting import Said
from .rules import rules_text
from .standings import standings_answer
from .work import Work


def route(
    ctx: Context, work: Work, inbound: Inbound, command: Command, now: datetime
) -> Sequence[Said]:
    """Everything one parsed input causes, in the order it should be shown; where the views of
    a game go, a `presenting.Show` stands (presented once the input is decided)."""
    if command.family is Family.LOBBY and not inbound.private:
        ctx.tables.fetch_lobby(inbound.room)  # as stored: its language is the room's
    tr = ctx.translator(ctx.room_language(inbound.room))
    args = command.args
    match command.family:
        case Family.PLAY:
            return game_input.typed(ctx, work, inbound, tr, command.words, now)
        case Family.BUTTON if command.press is not None:
            return game_input.button(ctx, work, inbound, tr, command.press, now)
        case Family.BUTTON:
            text = tr.gettext("This button is not one of mine.")
        case Family.LOBBY:
            return lobby_command(ctx, work, inbound, tr, command.verb, args, now)
        case Family.SEATS if command.verb == "move":
            return seat_commands.move(ctx, work, inbound, tr, args, now)
        case Family.SEATS:
            return seat_commands.claim(ctx, work, inbound, tr, args, now)
        case Family.ANALYSIS:
            return analysis_request(ctx, inbound, tr)
        case Family.SETTINGS:
            return player_setting(ctx, work, inbound, tr, command.verb, args, now)
        case Family.STANDINGS:
            text = standings_answer(tr, ctx.store, ctx.platform, inbound, command.verb)
        case Family.RULES:
            text = rules_text(tr, args[0] if args else None, _setup_here(ctx, inbound))
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


def _setup_here(ctx: Context, inbound: Inbound) -> TableSetup | None:
    """The set-up of the game the rules are asked at: the room's, or the sender's only one."""
    session = ctx.tables.games.get(inbound.room)
    if session is None and inbound.private:
        mine = ctx.tables.sessions_of(inbound.user_id)
        session = mine[0] if len(mine) == 1 else None
    return None if session is None else session.state.setup
