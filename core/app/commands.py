"""The chat commands: one table of verbs (each with its family and its line of help, the same
on every platform), and the parsing of an input into a typed `Command`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .i18n import Translator
from .inbound import MAX_TEXT, Inbound
from .player_modes import SETTINGS


class Family(Enum):
    """Which handler a command goes to."""

    HELP = "help"
    RULES = "rules"
    STANDINGS = "standings"
    SETTINGS = "settings"
    LOBBY = "lobby"
    SEATS = "seats"
    PLAY = "play"
    BUTTON = "button"
    """A button of a game (`g`) or a player's hand (`h`) pressed (a lobby's button is a
    lobby command), or a button not of this bot's."""
    ANALYSIS = "analysis"
    UNKNOWN = "unknown"
    FOREIGN_DIGITS = "foreign digits"
    """A move or an answer with a digit that is not one of 0-9 (`²`, `①`, `٣`): never read
    as a number (the lobby's options say how to write their own)."""
    TOO_LONG = "too long"
    EMPTY = "empty"


@dataclass(frozen=True)
class Entry:
    """One line of the help, and the verbs it tells of (none: a note)."""

    help: str
    family: Family | None = None
    verbs: tuple[str, ...] = ()


def _(text: str) -> str:
    """A message id, translated where the help is made."""
    return text


COMMANDS: tuple[Entry, ...] = (
    Entry(_("new · join · leave — open, join or leave a game in this room"), Family.LOBBY,
          ("new", "join", "leave")),
    Entry(_("bot [random|heuristic|expert] · bot remove — add or remove a bot"), Family.LOBBY,
          ("bot",)),
    Entry(_("set lang en|it|ru|de · set deadline 10m|2h|off — options (the opener)"),
          Family.LOBBY, ("set",)),
    Entry(_("start · cancel — start the game or call it off (the opener)"), Family.LOBBY,
          ("start", "begin", "cancel")),
    Entry(_("hand · table — your hand (privately) · the table again"), Family.PLAY,
          ("hand", "table")),
    Entry(_("set hints on|off — learning mode: each player may ask for hints; not rated")),
    Entry(_("hint — the expert's suggestion for your decision (privately, with hints on)"),
          Family.PLAY, ("hint",)),
    Entry(_("analysis — after a game: the expert's look back at it, sent to the room"),
          Family.ANALYSIS, ("analysis",)),
    Entry(_("rules [beans|fields|turn|trading|end|variants] — the rules of the game"),
          Family.RULES, ("rules",)),
    Entry(_("set notify off|turn|all — when I notify you (turn: a decision is yours)"),
          Family.SETTINGS),
    Entry(_("set trading offers|always — a bot's turn waits for you: only for its offers to "
            "you, or always"), Family.SETTINGS),
    Entry(_("move NEW — play your seat as NEW (the opener: move OLD NEW)"), Family.SEATS,
          ("move",)),
    Entry(_("claim CODE — take the seat a player handed you, with the code he was given"),
          Family.SEATS, ("claim",)),
    Entry(_("stats · top — your games and rating in this room · its best players"),
          Family.STANDINGS, ("stats", "top")),
    Entry(_("plant F — plant the front card of your hand in field F"), Family.PLAY, ("plant",)),
    Entry(_("aside I F — plant set-aside card I in field F (step 3)"), Family.PLAY, ("aside",)),
    Entry(_("done — end this step: no 2nd planting, end trading"), Family.PLAY, ("done",)),
    Entry(_("harvest F · buy — sell field F · buy the 3rd field"), Family.PLAY,
          ("harvest", "buy")),
    Entry(_("offer P 2 f1 for soy — offer player P hand card 2 and face-up card 1"),
          Family.PLAY, ("offer",)),
    Entry(_("offer P 3 — a gift (nothing asked in return)")),
    Entry(_("P: a player's seat number or name, or its start (offer ann 3)")),
    Entry(_("counter O … · accept O · decline O · withdraw O — answer offer O"), Family.PLAY,
          ("counter", "accept", "decline", "withdraw")),
    Entry(_("pass — no trading for you this turn"), Family.PLAY, ("pass",)),
    Entry(_("Duel: faceup I F · offered I F · toss I · discard P"), Family.PLAY,
          ("faceup", "offered", "toss", "discard")),
    Entry(_("With several games, start with the game's id: #ABC123 plant 1")),
)  # fmt: skip

HELP_VERBS = frozenset({"help"})
VERB_FAMILIES: dict[str, Family] = {
    verb: entry.family for entry in COMMANDS if entry.family is not None for verb in entry.verbs
}
LOBBY_VERBS = frozenset(v for v, f in VERB_FAMILIES.items() if f is Family.LOBBY)
"""The verbs a lobby's buttons may carry (`l VERB`)."""


@dataclass(frozen=True)
class Press:
    """A game's button pressed, as its payload says: the hand button (`h GAME`) or a button
    of the seat's private message (`g GAME TOKEN VERB…`, `asks` from VERB on). A payload
    of neither form is `odd`: refused once its game and seat are found."""

    game_id: str
    hand: bool = False
    token: str = ""
    asks: tuple[str, ...] = ()
    odd: bool = False

    @property
    def verb(self) -> str:
        """The button's command word (`pick`, `ask`, `back`, `send`) or its move's first."""
        return self.asks[0]

    @property
    def rest(self) -> str:
        """What follows the command word: a draft, or the move asked about."""
        return " ".join(self.asks[1:])


@dataclass(frozen=True)
class Command:
    """An input as the application understands it: its family, its verb (lower case) and
    the words after the verb; a play command keeps all its words (`#GAME` and numbers); a
    game's button pressed, its `press` (a lobby's is a lobby command)."""

    family: Family
    verb: str = ""
    args: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    press: Press | None = None

    @property
    def asks_hint(self) -> bool:
        """A hint asked for (`hint`, `#GAME hint`): the expert works it out."""
        return self.family is Family.PLAY and "hint" in (w.lower() for w in self.words[:2])


def parse_command(inbound: Inbound, lobby_here: bool) -> Command:
    """What an input asks for. `lobby_here`: a lobby is gathering in the input's room (then
    'start' starts it, even said privately, rather than greeting)."""
    if len(inbound.text) > MAX_TEXT:
        return Command(Family.TOO_LONG)
    words = tuple(inbound.text.split())
    if not words:
        return Command(Family.EMPTY)
    if inbound.button:
        return pressed(words)
    verb, args = words[0].lower(), words[1:]
    if verb in HELP_VERBS or (verb == "start" and inbound.private and not lobby_here):
        return Command(Family.HELP, verb, args, words)
    if verb == "set" and args and args[0].lower() in SETTINGS:
        return Command(Family.SETTINGS, args[0].lower(), args[1:], words)
    family = VERB_FAMILIES.get(verb)
    if family is None and (verb.startswith("#") or verb.isdigit()):
        family = Family.PLAY
    if family is Family.PLAY and any(foreign_digits(word) for word in words):
        return Command(Family.FOREIGN_DIGITS, verb, args, words)
    return Command(family or Family.UNKNOWN, verb, args, words)


def pressed(words: tuple[str, ...]) -> Command:
    """A button's payload as a command: a lobby's (`l VERB`) is that lobby command; a game's
    (`g …`) or a hand's (`h GAME`) a `Press`; any other is a button not of this bot's."""
    kind, args = words[0], words[1:]
    if kind == "l" and args and args[0] in LOBBY_VERBS:
        return Command(Family.LOBBY, args[0], args[1:], words)
    if kind not in ("g", "h"):
        return Command(Family.BUTTON, kind, args, words)
    game_id = args[0] if args else ""
    if kind == "h":
        press = Press(game_id, hand=True) if len(words) == 2 else Press(game_id, odd=True)
    elif len(words) < 4:
        press = Press(game_id, odd=True)
    else:
        press = Press(game_id, token=words[2], asks=words[3:])
    return Command(Family.BUTTON, kind, args, words, press)


def foreign_digits(word: str) -> bool:
    """Whether a word holds a digit other than 0-9 (a superscript, a circled digit, another
    script's): such a word is never read as a number, nor as anything else."""
    return not word.isascii() and any(c.isdigit() and not c.isascii() for c in word)


def help_text(tr: Translator) -> str:
    """Every command with one line of meaning, in the room's language."""
    lines = [tr.gettext("Bohnanza commands (numbers count from 1):")]
    lines += [tr.gettext(entry.help) for entry in COMMANDS]
    return "\n".join(lines)
