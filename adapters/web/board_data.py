"""What one board shows, as JSON-ready values: the table as a seat (or a spectator) sees it,
and that seat's choices as the chat application offers them.

Made from the engine's view of that seat (`GameSession.view`) and the seat's screen
(`screen_message`: the same moves, payloads and questions its chat messages carry) and nothing
else, so a board holds no other hand, no order of the deck and no card id; a spectator's holds
no hand and no choice. Beans are varieties by their index in `VARIETIES` (as on the replay
page, whose card drawings the board reuses).

A board's keys: `kind` ("game"), `game`, `language`, `names`, `viewer` (the seat, or None),
`turn`, `active`, `step`, `deck`, `discard`, `top`, `exhausted`, `final`, `lastTurn`,
`faceUp`, `offered`, `seats` (per seat: coins, hand size, fields as [variety or -1, count],
set-aside varieties), `waiting` (the seats the table waits on), `offers` (id, from, to,
give, want, stale, its line), `story` (lines), and for a seated player `hand`, `choices`
(label and payload of each move), `note` (a question asked), `trade` (partners, hand size,
face-up cards to offer, offers to counter, beans to ask for), `due` (his deadline, seconds
since the epoch); at the end `result` (the scores and the winners, as the replay page says).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bohnanza.adapters.game_page_words import result_lines
from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.messages import Message
from bohnanza.core.app.render import STEP_NAMES, offer_line
from bohnanza.core.app.screens import current_screen, screen_of
from bohnanza.core.app.seat_screen import PICK
from bohnanza.core.app.session import GameSession
from bohnanza.core.app.updates import waited_for
from bohnanza.core.cards import VARIETIES, Variety
from bohnanza.core.table_setup import setup_for
from bohnanza.core.view import PlayerView

_INDEX: dict[Variety, int] = {variety: i for i, variety in enumerate(VARIETIES)}


def codes(varieties: Sequence[Variety]) -> list[int]:
    return [_INDEX[variety] for variety in varieties]


def table_data(
    view: PlayerView, game_id: str, language: str, names: Sequence[str], tr: Translator
) -> dict[str, Any]:
    """What every seat of the table sees alike (and the viewer's hand, in his view)."""
    data: dict[str, Any] = {
        "kind": "game",
        "game": game_id,
        "language": language,
        "names": list(names),
        "viewer": view.seat,
        "turn": view.turn,
        "active": view.active,
        "step": view.step.value,
        "stepName": tr.gettext(STEP_NAMES[view.step]),
        "deck": view.deck_size,
        "discard": len(view.discard),
        "top": _INDEX[view.discard[-1]] if view.discard else -1,
        "exhausted": view.exhaustions,
        "final": view.final_exhaustion,
        "lastTurn": view.final_turn and not view.is_over,
        "faceUp": codes(view.face_up),
        "offered": codes(view.offered),
        "seats": [
            [
                seat.coins,
                seat.hand_size,
                [[-1 if f.variety is None else _INDEX[f.variety], f.count] for f in seat.fields],
                codes(seat.set_aside),
            ]
            for seat in view.seats
        ],
        "offers": [
            {
                "id": offer.id,
                "from": offer.proposer,
                "to": offer.receiver,
                "give": codes(offer.give),
                "want": codes(offer.want),
                "stale": offer.stale,
                "line": offer_line(tr, offer, names),
            }
            for offer in view.offers
        ],
        "waiting": [],
        "story": [],
    }
    if view.seat is not None:
        data["hand"] = codes(view.hand)
    if view.is_over:
        data["result"] = result_lines(tr, game_id, view, names)
    return data


def board_data(
    session: GameSession, seat: int | None, tr: Translator, story: Sequence[str]
) -> dict[str, Any]:
    """The board of a game in progress as the player at `seat` sees it (None: a spectator),
    with the lines of its story as that viewer was told them."""
    view = session.view(seat)
    data = table_data(view, session.game_id, session.language, session.names, tr)
    data["waiting"] = [] if view.is_over else waited_for(session)
    data["story"] = list(story)
    if seat is None or view.is_over:
        return data
    screen = _screen(session, seat, tr)
    data["choices"] = [
        {"label": button.label, "payload": button.payload}
        for row in screen.buttons
        for button in row
        if not _picker(button.payload)
    ]
    shown = current_screen(session, seat)
    if shown is not None and shown.asks:
        data["note"] = screen.text.rsplit("\n", 1)[-1]
    data["token"] = session.token(seat)
    legal = session.legal(seat)
    if legal.trade is not None:
        data["trade"] = {
            "partners": list(legal.trade.partners),
            "handSize": legal.trade.hand_size,
            "faceUp": legal.trade.face_up,
            "counters": [o.id for o in view.offers if o.receiver == seat and not o.stale],
            "beans": codes(setup_for(session.game.players).varieties),
        }
    due = session.deadline(seat) if seat in session.pending() else None
    if due is None and session.trade_window_until is not None and seat != view.active:
        due = session.trade_window_until if seat in data["waiting"] else None
    data["due"] = None if due is None else int(due.timestamp())
    return data


def _screen(session: GameSession, seat: int, tr: Translator) -> Message:
    """The seat's moves, or the question it was asked; an offer he is building in the chat's
    picker is left there (the board builds offers its own way)."""
    screen = current_screen(session, seat)
    if screen is not None and screen.picks:
        screen = None
    return screen_of(session, seat, tr, screen)


def _picker(payload: str) -> bool:
    """A button that opens or changes the chat's offer picker."""
    words = payload.split(maxsplit=4)
    return len(words) >= 4 and words[3] == PICK


def due_text(moment: datetime | None) -> int | None:
    return None if moment is None else int(moment.timestamp())
