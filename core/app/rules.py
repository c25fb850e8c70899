"""The rules of the game as a player asks for them in a chat or the terminal (`rules`,
`rules trading`...), in the game's language: docs/how-to-play.md in short."""

from __future__ import annotations

from ..cards import VARIETIES, Variety
from ..table_setup import TableSetup
from .i18n import N_, Translator, bean_name

TOPICS: dict[str, str] = {
    "beans": N_(
        "The beans: a field sold together earns coins by its variety's beanometer (cards for "
        "1 · 2 · 3 · 4 coins). Sold cards become your coins, the rest go on the discard pile."
    ),
    "fields": N_(
        "Fields: two at the start (three with 3 players), one variety each. Sell a field when "
        "you like, but a field of one bean only when no field of yours holds more. A 3rd field "
        "costs 3 coins (2 with 6-7 players; none for sale with 3)."
    ),
    "turn": N_(
        "A turn: 1. plant the front card of your hand, then the next one if you like; "
        "2. two cards are turned face up and you trade; 3. everybody plants what they got in "
        "trades, and you the face-up cards you kept; 4. draw 3 cards (4 with 6-7 players) to the "
        "back of your hand. Never reorder your hand."
    ),
    "trading": N_(
        "Trading: only the active player trades with the others. Either side offers face-up "
        "cards or hand cards, the other accepts, declines or counters; the proposer may "
        "withdraw. A gift asks nothing back. Cards you get are set aside and planted in step 3."
    ),
    "end": N_(
        "The end: the deck is reshuffled from the discard pile when it runs out; the game ends "
        "at its 3rd run-out (2nd with 3 players, 1st in the duel). Every field is sold; most "
        "coins wins, then most cards in hand."
    ),
    "variants": N_(
        "Duel (2 players): 1. plant or toss the cards your opponent left you; 2. plant one or "
        "two, then you may discard one hand card; 3. three cards face up (and matching discards): "
        "plant what you like, the rest is offered to your opponent; 4. draw 2. Sell only on your "
        "turn. 6-7 players: deal 3, 4, 5, then 6 cards; no Garden or Cocoa."
    ),
}
"""Each part of the rules a player can ask for, by its command word."""

OVERVIEW = N_(
    "Bohnanza: plant beans in your fields, sell them for coins, trade the cards you cannot use. "
    "The most coins at the end wins. Ask: rules beans · rules fields · rules turn · rules "
    "trading · rules end · rules variants."
)


def rules_text(tr: Translator, topic: str | None, setup: TableSetup | None = None) -> str:
    """The part of the rules asked for (None: the overview), or the overview with a word on
    the unknown topic; asked at a game (`setup`), with the beans it is played without."""
    if topic is None:
        return _with_setup(tr, tr.gettext(OVERVIEW), setup)
    key = topic.lower()
    if key not in TOPICS:
        unknown = tr.gettext("There are no rules called {topic}.").format(topic=topic[:30])
        return unknown + "\n" + _with_setup(tr, tr.gettext(OVERVIEW), setup)
    text = tr.gettext(TOPICS[key])
    if key == "beans":
        text = "\n".join([text, *(_beanometer_line(tr, v) for v in VARIETIES)])
        return _with_setup(tr, text, setup)
    return text


def _with_setup(tr: Translator, text: str, setup: TableSetup | None) -> str:
    """The text, and which beans this game leaves in the box."""
    if setup is None or not setup.removed:
        return text
    left_out = tr.gettext("This game of {players} is played without {beans}.").format(
        players=tr.ngettext("{count} player", "{count} players", setup.players).format(
            count=setup.players
        ),
        beans=", ".join(bean_name(tr, v) for v in setup.removed),
    )
    return f"{text}\n{left_out}"


def _beanometer_line(tr: Translator, variety: Variety) -> str:
    steps = " · ".join("-" if n is None else str(n) for n in variety.beanometer)
    return f"{bean_name(tr, variety)} ({variety.count}): {steps}"
