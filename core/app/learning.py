"""Learning mode in a chat: `hint`, the expert's suggestion for the asker's decision now, only in
a game whose room chose hints (`hints`); always answered privately."""

from __future__ import annotations

import zlib

from ..record import GameRecord, SeatRecord
from .context import Context
from .hints import hint, seen_by
from .inbound import Inbound
from .lobby import LobbyError
from .messages import Message, Outbound, Reply, ToPlayer
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
