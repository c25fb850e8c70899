"""Messages of every kind as the application renders them, with names people could choose to
break them, and a reader that checks their HTML the way a strict client would.

Shared by the tests of the renderer and of the adapters that show the HTML.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.markup import BEAN_MARKS
from bohnanza.core.app.messages import Message
from bohnanza.core.app.render import (
    hand_message,
    result_html,
    result_text,
    table_html,
    table_text,
)
from bohnanza.core.bots import Bot, make_bot
from bohnanza.core.bots.driver import play_out
from bohnanza.core.cards import Variety
from bohnanza.core.game import Game
from bohnanza.core.legal import LegalActions
from bohnanza.core.notation import action_text
from bohnanza.core.state import Step
from bohnanza.core.view import FieldView, OfferView, PlayerView, SeatView

NAMES = (
    "<b>",
    "Bruno & Co",
    "[/x]",
    "Dora &amp; Eve",
    "<i>Fe</i>",
    "Gus <3",
    "Hal > all",
)
"""Seven names that are markup somewhere: each must show exactly as typed."""
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
GAME = "K3F9QX"


@dataclass(frozen=True)
class Read:
    """What a reader shows of an HTML text, and which tags it had."""

    text: str
    tags: tuple[str, ...]


class _Reader(HTMLParser):
    def __init__(self, allowed: frozenset[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.allowed = allowed
        self.open: list[str] = []
        self.tags: list[str] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        assert tag in self.allowed and not attrs, f"unexpected <{tag} {attrs}>"
        if tag == "br":
            self.parts.append("\n")
            return
        self.open.append(tag)
        self.tags.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open}"
        self.open.pop()

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


_BARE_AMPERSAND = re.compile(r"&(?!(?:amp|lt|gt|quot|nbsp|#\d+|#x[0-9a-fA-F]+);)")


def read_html(html: str, allowed: tuple[str, ...] = ("b", "i")) -> Read:
    """The text an HTML message shows; fails unless every tag is allowed and closed in order,
    and every other `<`, `>` and `&` is escaped."""
    assert not _BARE_AMPERSAND.search(html), f"an unescaped & in {html!r}"
    outside = re.sub(r"</?(?:" + "|".join(allowed) + r")>", "", html)
    assert "<" not in outside and ">" not in outside, f"an unescaped < or > in {html!r}"
    reader = _Reader(frozenset(allowed))
    reader.feed(html)
    reader.close()
    assert reader.open == [], f"left open: {reader.open}"
    return Read("".join(reader.parts).replace("\xa0", " "), tuple(reader.tags))


def unmarked(text: str) -> str:
    """A shown text without the beans' markers."""
    for mark in BEAN_MARKS.values():
        text = text.replace(f"{mark} ", "")
    return text


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@dataclass(frozen=True)
class Sample:
    """One rendered message and what it is."""

    kind: str
    message: Message
    names: tuple[str, ...]


def crowded_view() -> PlayerView:
    """A moment that needs every line of the table: face-up and offered cards, set-aside cards,
    offers (a gift, a stale one), empty and full fields, the last turn, 7 players."""
    seats = tuple(
        SeatView(
            seat=i,
            fields=(
                FieldView(Variety.CHILI, 3),
                FieldView(None, 0),
                FieldView(list(Variety)[i], i + 1),
            ),
            coins=i,
            hand_size=i % 3,
            set_aside=(Variety.COCOA, Variety.COCOA) if i == 2 else (),
            bought_third_field=True,
        )
        for i in range(7)
    )
    offers = (
        OfferView(1, 0, 1, (Variety.BLUE, Variety.BLUE), (Variety.SOY,), stale=False),
        OfferView(2, 3, 0, (Variety.WAX,), (), stale=True),
        OfferView(3, 6, 5, (Variety.BLACK_EYED,), (Variety.RED, Variety.GARDEN), stale=False),
    )
    return PlayerView(
        seat=1,
        hand=(Variety.COFFEE, Variety.STINK, Variety.GREEN, Variety.COFFEE),
        seats=seats,
        active=0,
        step=Step.TRADE,
        turn=41,
        deck_size=7,
        discard=(Variety.RED, Variety.GARDEN),
        face_up=(Variety.BLUE, Variety.BLUE),
        offered=(Variety.CHILI,),
        offers=offers,
        exhaustions=2,
        final_exhaustion=3,
        final_turn=True,
        third_field_price=None,
        scores=None,
        winners=None,
    )


def samples(tr: Translator, players: int = 5, seed: int = 3) -> list[Sample]:
    """Every kind of message of one game: the table and each player's private message at
    several moments, the crowded table, and the result at the end."""
    names = NAMES[:players]
    out = [
        Sample("crowded table", table(tr, crowded_view(), NAMES, [1, 4]), NAMES),
        Sample("crowded hand", hand(tr, crowded_view(), NAMES, None), NAMES),
    ]
    rng = random.Random(seed)
    game = Game.new(players, rng)
    bots = [make_bot("heuristic", random.Random(rng.random())) for _ in range(players)]
    for moment in range(1, 7):
        advance(game, bots, 25)
        waiting = list(game.waiting_for())
        out.append(Sample(f"table {moment}", table(tr, game.view(None), names, waiting), names))
        out += [
            Sample(f"hand {moment}.{seat}", hand(tr, game.view(seat), names, game), names)
            for seat in range(players)
        ]
    play_out(game, bots)
    view = game.view(None)
    out.append(Sample("last table", table(tr, view, names, []), names))
    shown = (tr, GAME, view, names)
    out.append(Sample("result", Message(result_text(*shown), html=result_html(*shown)), names))
    return out


def table(tr: Translator, view: PlayerView, names: tuple[str, ...], waiting: list[int]) -> Message:
    """The room's table message, its soonest deadline 4 minutes away."""
    shown = (tr, GAME, view, names, waiting, NOW + timedelta(minutes=4), NOW)
    return Message(table_text(*shown), html=table_html(*shown))


def hand(tr: Translator, view: PlayerView, names: tuple[str, ...], game: Game | None) -> Message:
    """A player's private message, with his moves in `game` as buttons (none without it)."""
    assert view.seat is not None
    if game is None:
        legal = LegalActions(view.seat, (), None, waiting=False)
    else:
        legal = game.legal_actions(view.seat)
    payload_of = {a: f"g {GAME} 1a2b3c {action_text(a)}" for a in legal.actions}
    return hand_message(tr, GAME, view, names, legal, payload_of)


def advance(game: Game, bots: Sequence[Bot], actions: int) -> None:
    """Up to `actions` moves of the bots, each by a seat the game waits on."""
    for _ in range(actions):
        if game.is_over:
            return
        seat = game.waiting_for()[0]
        legal = game.legal_actions(seat)
        action = bots[seat].choose(game.view(seat), legal)
        assert action is not None
        game.apply_listed(action, legal)
