"""The words of a board page, in the game's language: the replay page's and the chat's where
they say the same thing, and the board's own (its controls, the lobby of a web table, the
state of the connection, why a board was refused)."""

from __future__ import annotations

from typing import Any

from bohnanza.adapters.game_page_words import labels
from bohnanza.core.app.i18n import LANGUAGES, N_, Translator
from bohnanza.core.app.picker import SHORT_NAMES
from bohnanza.core.cards import VARIETIES

LANGUAGE_NAMES = {"en": "English", "it": "Italiano", "ru": "Русский", "de": "Deutsch"}
"""Each language in its own words, for the lobby's choice."""
DEADLINES = ("off", "1m", "5m", "1h", "1d")
"""The times per move a web table offers (any other can be typed in a chat)."""
MOST_COINS = 60
MOST_CARDS = 30
"""Counts the page has words for; a larger one is written with the largest's words."""

_WORDS: dict[str, str] = {
    "open": N_("Open the board"),
    "game": N_("Game {game}"),
    "turn": N_("turn {turn} · {step}"),
    "yourMove": N_("▶ Your move."),
    "due": N_("Due at {time}."),
    "waiting": N_("Waiting for: {players}"),
    "watching": N_("You are watching: no hand is shown."),
    "moves": N_("Your moves"),
    "keys": N_("Keys: 1-9 make the listed moves, Esc clears an offer."),
    "noMoves": N_("Nothing to do now: the others play."),
    "offerTo": N_("To {name}"),
    "offerAnyone": N_("To anyone"),
    "counter": N_("Counter #{offer}"),
    "hint": N_("Offer to {partner}: tick the cards to give and the beans you want."),
    "gift": N_("Offer to {partner}: {give} as a gift."),
    "for": N_("Offer to {partner}: {give} for {want}."),
    "anyone": N_("anyone"),
    "send": N_("Send the offer"),
    "give": N_("Give as a gift"),
    "waitingFor": N_("The table waits for this player."),
    "clear": N_("Cancel"),
    "want": N_("Beans you want"),
    "table": N_("The table"),
    "story": N_("What happened"),
    "live": N_("Live"),
    "away": N_("Connection lost: trying again…"),
    "offline": N_("The server did not answer; try again."),
    "notThisGame": N_("That is not a move of this board's game."),
    "badInput": N_("That is not a move the board knows."),
    "forged": N_("This board's pass is not valid: open the board again from the chat."),
    "expired": N_("This board's pass has expired: open the board again from the chat."),
    "not-yours": N_("This board is for another seat: open your own from your private messages."),
    "notServed": N_("This game is not served here."),
    "yourGames": N_("Your games:"),
    "noGames": N_("You play in no game now: open one in a group, then its board here."),
    "gone": N_("This game is no longer played."),
    "replay": N_("Step through the whole game"),
    "name": N_("Your name"),
    "saveName": N_("Save"),
    "newTable": N_("Open a table"),
    "home": N_(
        "Play Bohnanza in the browser: open a table, invite friends, fill the seats with bots."
    ),
    "nameFirst": N_("Say your name first: the others see it at the table."),
    "gathering": N_("A game of Bohnanza is being gathered ({count} of 2-7 players)."),
    "players": N_("Players: {names}"),
    "you": N_("(you)"),
    "join": N_("Join"),
    "leave": N_("Leave"),
    "addBot": N_("Add a bot"),
    "removeBot": N_("Remove a bot"),
    "start": N_("Start"),
    "callOff": N_("Call off"),
    "language": N_("Language"),
    "deadline": N_("Time per move"),
    "invite": N_("Invite others with this link:"),
    "copy": N_("Copy"),
    "copied": N_("Copied."),
    "opener": N_("The player who opened the table starts the game."),
    "empty": N_("Nobody has opened a game at this table yet."),
    "newGame": N_("Open a game here"),
    "again": N_("Play again"),
}


def board_words(tr: Translator) -> dict[str, Any]:
    """Every word a board page shows, translated (the replay page's labels among them)."""
    words: dict[str, Any] = {key: tr.gettext(text) for key, text in _WORDS.items()}
    # Each count from 0 in the form its number takes (the most a seat can have, about).
    words.update(labels(tr, MOST_COINS, MOST_CARDS))
    words["short"] = [tr.gettext(SHORT_NAMES[variety]) for variety in VARIETIES]
    words["languages"] = [[code, LANGUAGE_NAMES[code]] for code in LANGUAGES]
    words["deadlines"] = list(DEADLINES)
    return words
