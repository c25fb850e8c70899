"""The terminal's own help: the game's commands, the numbered choices and how to stop.

The chat help also tells how to open, join and move games in a room; at the terminal the game
was chosen on the command line, so only what can be typed here is listed.
"""

from __future__ import annotations

from bohnanza.core.app.i18n import Translator

HELP_WORDS = ("help", "?")
"""What asks for the help at the terminal."""


def terminal_help(tr: Translator, resume_command: str) -> str:
    """Every command the person can type at the terminal, one line each, in the game's
    language (the command words stay English, as everywhere)."""
    stop = tr.gettext("quit — stop here; the game is kept: {command}")
    lines = [
        tr.gettext("Bohnanza commands (numbers count from 1):"),
        tr.gettext("1, 2, 3 … — take the choice of that number under your hand"),
        tr.gettext("hand · table — your hand (privately) · the table again"),
        tr.gettext("plant F — plant the front card of your hand in field F"),
        tr.gettext("aside I F — plant set-aside card I in field F (step 3)"),
        tr.gettext("done — end this step: no 2nd planting, end trading"),
        tr.gettext("harvest F · buy — sell field F · buy the 3rd field"),
        tr.gettext("offer P 2 f1 for soy — offer player P hand card 2 and face-up card 1"),
        tr.gettext("offer P 3 — a gift (nothing asked in return)"),
        tr.gettext("counter O … · accept O · decline O · withdraw O — answer offer O"),
        tr.gettext("pass — no trading for you this turn"),
        tr.gettext("Duel: faceup I F · offered I F · toss I · discard P"),
        tr.gettext("rules [beans|fields|turn|trading|end|variants] — the rules of the game"),
        tr.gettext(
            "set trading offers|always — a bot's turn waits for you: only for its offers to "
            "you, or always"
        ),
        stop.format(command=resume_command),
    ]
    return "\n".join(lines)
