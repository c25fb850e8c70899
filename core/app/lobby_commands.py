"""The lobby's commands: opening a game in a room, joining and leaving it, bots and options,
and starting it (the lobby taken and its game stored in one transaction)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from ..ports import NewGame
from ..table_setup import setup_for
from .context import Context
from .hints import hints_line
from .i18n import Translator
from .inbound import Inbound
from .lobby import Lobby, LobbyError, format_duration
from .messages import Button, Message, Outbound, Reply, ToRoom
from .names import seat_names
from .play import after_move
from .tables import lobby_data
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
) -> list[Outbound]:
    """A lobby command, decided on the lobby as stored (read by `routes.route`); what it
    changed is stored by `work` over the version read (another worker's change first is a
    conflict, decided again)."""
    room = inbound.room
    tables = ctx.tables
    before = tables.lobbies.get(room)
    data = None if before is None else lobby_data(before)
    out = _decide(ctx, work, inbound, tr, verb, args, now)
    if room in tables.lobby_versions or data is None:
        _store(ctx, work, room, data, now)
    return out


def _store(
    ctx: Context, work: Work, room: str, before: dict[str, object] | None, now: datetime
) -> None:
    tables = ctx.tables
    version = tables.lobby_versions.get(room, 0)
    lobby = tables.lobbies.get(room)
    if lobby is None:
        if before is not None:
            work.drop_lobby(ctx.platform, room, version)
        return
    data = lobby_data(lobby)
    if data == before:
        return
    work.save_lobby(ctx.platform, room, data, version, now)
    work.after_commit(lambda: tables.lobby_versions.__setitem__(room, version + 1))


def _decide(
    ctx: Context,
    work: Work,
    inbound: Inbound,
    tr: Translator,
    verb: str,
    args: tuple[str, ...],
    now: datetime,
) -> list[Outbound]:
    room = inbound.room
    tables = ctx.tables
    if inbound.private:
        return [Reply(inbound, tr.gettext("Games are opened and joined in a group."))]
    if tables.room_session(room) is not None:
        return [Reply(inbound, tr.gettext("A game is already being played here."))]
    lobby = tables.lobbies.get(room)
    name = inbound.name  # cleaned as it is seated (`names.seat_name`)
    called_off = ToRoom(room, Message(tr.gettext("The game was called off.")), f"lobby:{room}")
    try:
        if verb == "new":
            if lobby is not None:
                raise LobbyError("A game is already being gathered here: send 'join'.")
            lobby = Lobby(room, ctx.platform, inbound.user_id)
            lobby.join(inbound.user_id, name)
            tables.lobbies[room] = lobby
            # A new lobby is a new message, not an edit of an old game's far up the chat.
            return [replace(lobby_message(ctx, lobby), fresh=True)]
        if lobby is None:
            raise LobbyError("No game is being gathered here: send 'new' to open one.")
        if verb == "join":
            lobby.join(inbound.user_id, name)
        elif verb == "leave":
            lobby.leave(inbound.user_id)
            if not any(s.kind == "human" for s in lobby.seats):
                del tables.lobbies[room]
                return [called_off]
        elif verb == "bot":
            _bot_command(lobby, inbound.user_id, args)
        elif verb == "set":
            _require_creator(lobby, inbound.user_id)
            if len(args) != 2:
                raise LobbyError("Write: set lang it, or set deadline 10m.")
            lobby.set_option(args[0].lower(), args[1].lower())
        elif verb == "cancel":
            _require_creator(lobby, inbound.user_id)
            del tables.lobbies[room]
            return [called_off]
        elif verb in ("start", "begin"):
            lobby.check_start(inbound.user_id)
            return _start(ctx, work, lobby, now)
    except LobbyError as error:
        return [Reply(inbound, tr.gettext(str(error)).format(**error.params))]
    return [lobby_message(ctx, lobby)]


def _require_creator(lobby: Lobby, user_id: str) -> None:
    if user_id != lobby.creator:
        raise LobbyError("Only the player who opened the game can change it.")


def _bot_command(lobby: Lobby, user_id: str, args: tuple[str, ...]) -> None:
    if lobby.seat_of(user_id) is None:
        raise LobbyError("Join the game first.")
    if args and args[0].lower() == "remove":
        lobby.remove_bot()
        return
    words = [a.lower() for a in args if a.lower() != "add"]
    lobby.add_bot(words[0] if words else "heuristic")


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


def _start(ctx: Context, work: Work, lobby: Lobby, now: datetime) -> list[Outbound]:
    """The game the lobby became: stored with its first moves (bots on turn) in the work that
    takes the lobby; the room sees it begin."""
    tables = ctx.tables
    deck = setup_for(len(lobby.seats)).cards_in_play()
    ctx.rng.shuffle(deck)
    # A lobby stored before its names were cleaned is seated as every lobby is now.
    names = seat_names(seat.name for seat in lobby.seats)
    seats = tuple(replace(seat, name=name) for seat, name in zip(lobby.seats, names, strict=True))
    version = tables.lobby_versions.pop(lobby.room, 0)
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
    work.start_game(game, version)
    del tables.lobbies[lobby.room]
    session = tables.session_of_new_game(game)
    # The opener who started the game is acting already: his first move is no news.
    session.refresh_waiting(now, acted=session.seat_of(lobby.creator))
    tables.games[lobby.room] = session
    tr = ctx.translator(session.language)
    begins = tr.gettext("Game {game} begins: {names}.").format(
        game=game_id, names=", ".join(session.names)
    )
    out: list[Outbound] = [ToRoom(lobby.room, Message(begins), f"lobby:{lobby.room}")]
    return out + after_move(ctx, work, session, now, fresh=True)


def new_game_id(ctx: Context) -> str:
    """A random id; the store refuses one that is taken, and the start is decided again with
    another: no list of every stored game is read."""
    return "".join(ctx.rng.choice(GAME_ID_LETTERS) for _ in range(GAME_ID_LENGTH))
