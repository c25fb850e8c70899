"""The words of the chat commands, the same on every platform, and the help text."""

from __future__ import annotations

from .i18n import Translator

LOBBY_VERBS = frozenset({"new", "join", "leave", "bot", "set", "start", "begin", "cancel"})
STANDINGS_VERBS = frozenset({"stats", "top"})
GAME_VERBS = frozenset(
    {
        "plant",
        "aside",
        "faceup",
        "offered",
        "toss",
        "discard",
        "done",
        "harvest",
        "buy",
        "offer",
        "counter",
        "accept",
        "decline",
        "withdraw",
        "pass",
        "hand",
        "table",
    }
)


def help_text(tr: Translator) -> str:
    """Every command with one line of meaning, in the room's language."""
    lines = [
        tr.gettext("Bohnanza commands (numbers count from 1):"),
        tr.gettext("new · join · leave — open, join or leave a game in this room"),
        tr.gettext("bot [random|heuristic|expert] · bot remove — add or remove a bot"),
        tr.gettext("set lang en|it|ru|de · set deadline 10m|2h|off — options (the opener)"),
        tr.gettext("start · cancel — start the game or call it off (the opener)"),
        tr.gettext("hand · table — your hand (privately) · the table again"),
        tr.gettext("rules [beans|fields|turn|trading|end|variants] — the rules of the game"),
        tr.gettext("set notify off|turn|all — when I notify you (turn: a decision is yours)"),
        tr.gettext("move NEW — play your seat as NEW (the opener: move OLD NEW)"),
        tr.gettext("claim CODE — take the seat a player handed you, with the code he was given"),
        tr.gettext("stats · top — your games and rating in this room · its best players"),
        tr.gettext("plant F — plant the front card of your hand in field F"),
        tr.gettext("aside I F — plant set-aside card I in field F (step 3)"),
        tr.gettext("done — end this step: no 2nd planting, end trading"),
        tr.gettext("harvest F · buy — sell field F · buy the 3rd field"),
        tr.gettext("offer P 2 f1 for soy — offer player P hand card 2 and face-up card 1"),
        tr.gettext("offer P 3 — a gift (nothing asked in return)"),
        tr.gettext("P: a player's seat number or name, or its start (offer ann 3)"),
        tr.gettext("counter O … · accept O · decline O · withdraw O — answer offer O"),
        tr.gettext("pass — no trading for you this turn"),
        tr.gettext("Duel: faceup I F · offered I F · toss I · discard P"),
        tr.gettext("With several games, start with the game's id: #ABC123 plant 1"),
    ]
    return "\n".join(lines)
