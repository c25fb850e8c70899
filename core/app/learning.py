"""Learning from the expert in a chat: `hint`, its suggestion for the asker's decision now (only
in a game whose room chose hints; answered privately), and `analysis`, its look back at the
room's last finished game (a request the runner's desk takes, tells the room where it stands,
and works out in the background; sent to the room with the page)."""

from __future__ import annotations

import zlib

from ..record import GameRecord, SeatRecord
from .context import Context
from .hints import hint, seen_by
from .i18n import Translator
from .inbound import Inbound
from .lobby import LobbyError
from .messages import GamePage, Message, Outbound, Reply, ToPlayer
from .session import GameSession


def hint_answer(ctx: Context, session: GameSession, seat: int, inbound: Inbound) -> list[Outbound]:
    """The expert's hint for the seat, worked out from what the seat has seen alone."""
    tr = ctx.translator(session.language)
    if not session.hints:
        return [
            Reply(
                inbound,
                tr.gettext("This game is played without hints (a room chooses them in the lobby)."),
            )
        ]
    seats = tuple(SeatRecord(c.identity.name, c.identity.kind) for c in session.seats)
    record = GameRecord.of(session.game, seats, game_id=session.game_id)
    moment = f"{session.game_id} {len(session.game.actions)} {seat}"
    try:
        suggested = hint(
            session.view(seat),
            session.legal(seat),
            tr,
            zlib.crc32(moment.encode()),
            seen_by(record, seat),
        )
    except LobbyError as error:
        return [Reply(inbound, tr.gettext(str(error)).format(**error.params))]
    text = tr.gettext("Game {game}, hint: {reason}").format(
        game=session.game_id, reason=suggested.reason
    )
    if inbound.private:
        return [Reply(inbound, text)]
    user = session.seats[seat].identity.user_id
    sent = tr.gettext("I sent you a hint privately.")
    return [ToPlayer(user, Message(text), session.room), Reply(inbound, sent)]


def analysis_request(ctx: Context, inbound: Inbound, tr: Translator) -> list[Outbound]:
    """`analysis` in a room: the expert's look back at the room's last finished game."""
    if inbound.private:
        return [Reply(inbound, tr.gettext("Ask for the analysis in the game's room."))]
    if ctx.tables.room_session(inbound.room) is not None:
        return [Reply(inbound, tr.gettext("The analysis comes once the game is over."))]
    finished = ctx.store.last_finished_in(ctx.platform, inbound.room)
    if finished is None:
        return [Reply(inbound, tr.gettext("No game has finished here yet to look back on."))]
    game_id, language = finished
    tr = ctx.translator(language)
    caption = tr.gettext("Game {game} with the expert's analysis.").format(game=game_id)
    # The runner's desk takes the request, tells the room where it stands, and works it out
    # beside the room's messages.
    return [GamePage(inbound.room, game_id, language, caption, analysis=True)]
