"""The lobby's commands: opening a game in a room, joining and leaving it, bots and options,
and starting it (the lobby taken and its game stored in one transaction)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial

from ..ports import NewGame
from ..table_setup import setup_for
from .context import Context
from .hints import hints_line
from .i18n import Translator
from .inbound import Inbound
from .lobby import Lobby, LobbyError, format_duration, gathered
from .messages import Button, Message, Reply, ToRoom
from .names import seat_names
from .play import after_move
from .presenting import Said
from .session import GameSession
from .stored_lobby import lobby_data
from .work import Work

GAME_ID_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
GAME_ID_LENGTH = 6


def lobby_command(
    ctx: Context,
    work: Work,
    inbound: Inbound,
    tr: Translator,
    verb: str,
    args: tuple[str, ...],
    now: datetime,
) -> list[Said]:
    """A lobby command, decided on the lobby as stored (read by `routes.route`); what it
    changed is stored by `work` over the version read (another worker's change first is a
    conflict, decided again)."""
    room = inbound.room
    tables = ctx.tables
    if inbound.private:
        return [Reply(inbound, tr.gettext("Games are opened and joined in a group."))]
    if tables.room_session(room) is not None:
        return [Reply(inbound, tr.gettext("A game is already being played here."))]
    held = tables.lobbies.get(room)
    before = None if held is None else lobby_data(held)
    version = tables.lobby_versions.get(room, 0)
    try:
        # The name is cleaned as it is seated (`names.seat_name`).
        lobby = gathered(held, ctx.platform, room, inbound.user_id, inbound.name, verb, args)
    except LobbyError as error:
        return [Reply(inbound, tr.gettext(str(error)).format(**error.params))]
    started = None
    if verb in ("start", "begin") and lobby is not None:
        started = _new_game(ctx, lobby, now)
    data = None if lobby is None or started is not None else lobby_data(lobby)
    # Memory takes the lobby as it now stands, or the game it became, once the store holds it.
    if started is not None:
        work.start_game(started.game, version)
        work.after_commit(partial(tables.lobby_now, room, None))
        work.after_commit(partial(tables.games.__setitem__, room, started.session))
    elif data != before:
        work.save_lobby(
            ctx.platform, room, data, version, now, partial(tables.lobby_now, room, lobby)
        )
    if started is not None:
        return _begun(ctx, work, started.session, now)
    if lobby is None:
        called_off = Message(tr.gettext("The game was called off."))
        return [ToRoom(room, called_off, f"lobby:{room}")]
    message = lobby_message(ctx, lobby)
    # A new lobby is a new message, not an edit of an old game's far up the chat.
    return [replace(message, fresh=True) if verb == "new" else message]


def lobby_message(ctx: Context, lobby: Lobby) -> ToRoom:
    """The lobby's message in its room, with its buttons where the platform has them."""
    tr = ctx.translator(lobby.language)
    names = ", ".join(seat.name for seat in lobby.seats)
    text = "\n".join(
        [
            tr.gettext("A game of Bohnanza is being gathered ({count} of 2-7 players).").format(
                count=len(lobby.seats)
            ),
            tr.gettext("Players: {names}").format(names=names),
            tr.gettext(
                "Language: {language} · deadline per move: {deadline} · a bot trades for {window}"
            ).format(
                language=lobby.language,
                deadline=format_duration(lobby.turn_seconds),
                window=format_duration(lobby.trade_window_seconds),
            ),
            hints_line(tr, lobby.hints),
            tr.gettext(
                "join · leave · bot · bot remove · set lang L · set deadline 10m · "
                "set trade-window 2m · start"
            ),
        ]
    )
    buttons: tuple[tuple[Button, ...], ...] = ()
    if ctx.capabilities.buttons:
        buttons = (
            (Button(tr.gettext("Join"), "l join"), Button(tr.gettext("Leave"), "l leave")),
            (Button(tr.gettext("Add a bot"), "l bot"), Button(tr.gettext("Start"), "l start")),
        )
    return ToRoom(lobby.room, Message(text, buttons), f"lobby:{lobby.room}")


@dataclass(frozen=True)
class Started:
    """The game a lobby became, to be stored, and its session."""

    game: NewGame
    session: GameSession


def _new_game(ctx: Context, lobby: Lobby, now: datetime) -> Started:
    """The game the lobby becomes: its deck shuffled, its seats named as every lobby's are
    now, its session ready for its first moves (the opener, who started it, acting)."""
    deck = setup_for(len(lobby.seats)).cards_in_play()
    ctx.rng.shuffle(deck)
    # A lobby stored before its names were cleaned is seated as every lobby is now.
    names = seat_names(seat.name for seat in lobby.seats)
    seats = tuple(replace(seat, name=name) for seat, name in zip(lobby.seats, names, strict=True))
    game_id = new_game_id(ctx)
    options: dict[str, str | int] = {
        "platform": ctx.platform,
        "room": lobby.room,
        "language": lobby.language,
        "turn_seconds": lobby.turn_seconds,
        "trade_window_seconds": lobby.trade_window_seconds,
        "creator": lobby.creator,
        **lobby.recorded_options(),
    }
    game = NewGame(game_id, seats, tuple(deck), now, options)
    session = ctx.tables.session_of_new_game(game)
    # The opener who started the game is acting already: his first move is no news.
    session.refresh_waiting(now, acted=session.seat_of(lobby.creator))
    return Started(game, session)


def _begun(ctx: Context, work: Work, session: GameSession, now: datetime) -> list[Said]:
    """The room sees the game begin, with its first moves (bots on turn), stored in the work
    that takes the lobby."""
    tr = ctx.translator(session.language)
    begins = tr.gettext("Game {game} begins: {names}.").format(
        game=session.game_id, names=", ".join(session.names)
    )
    begun = ToRoom(session.room, Message(begins), f"lobby:{session.room}")
    return [begun, after_move(ctx, work, session, now, fresh=True)]


def new_game_id(ctx: Context) -> str:
    """A random id; the store refuses one that is taken, and the start is decided again with
    another: no list of every stored game is read."""
    return "".join(ctx.rng.choice(GAME_ID_LETTERS) for _ in range(GAME_ID_LENGTH))
