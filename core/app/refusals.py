"""Why an action was refused, in the player's language, without naming any hidden card.

The engine's own messages are English and may name the card at the front of a hand; a refusal
can be read by a whole room, so it is rebuilt here from the error's code alone.
"""

from __future__ import annotations

from ..errors import IllegalActionError
from .i18n import N_, Translator

REFUSALS: dict[str, str] = {
    "game-over": N_("The game is over."),
    "no-such-player": N_("There is no such player."),
    "ambiguous-player": N_("Several players' names begin so: type more of it, or the seat."),
    "two-readings": N_(
        "'{typed}' can be read two ways: '{first}' ({first_name}) or '{second}' "
        "({second_name}). Send the one you mean."
    ),
    "no-such-field": N_("You have no such field."),
    "field-taken": N_(
        "That field grows another variety: plant on an empty field or one of the same variety."
    ),
    "not-your-turn": N_("It is not your turn."),
    "wrong-step": N_("That cannot be done in this step."),
    "no-more-planting": N_("You have planted all you may from your hand."),
    "no-such-card": N_("There is no such card."),
    "plant-first": N_("Plant at least one card before you discard."),
    "must-plant": N_("You must plant the first card of your hand."),
    "cannot-end-step": N_("This step ends when its cards are planted."),
    "duel-sell-own-turn": N_("In the bean duel you may sell only on your turn."),
    "empty-field": N_("That field is empty."),
    "single-card-protected": N_(
        "A field with a single bean may be harvested only when none of your fields holds more."
    ),
    "no-third-field": N_("No 3rd field can be bought in this game."),
    "third-field-owned": N_("You have already bought your 3rd field."),
    "not-enough-coins": N_("You do not have enough coins for the 3rd field."),
    "not-trading": N_("Trading happens only in step 2."),
    "card-twice": N_("A card is named twice."),
    "not-your-face-up": N_("Only the active player trades the face-up cards."),
    "empty-offer": N_("An offer must give at least one card."),
    "want-too-many": N_("You ask for more cards than your partner can give."),
    "trade-with-active": N_("Trades must involve the active player."),
    "no-such-partner": N_("You cannot trade with that player."),
    "no-such-offer": N_("There is no such open offer."),
    "not-your-offer": N_("That offer is not yours to answer."),
    "stale-offer": N_("That offer is stale: its cards are gone."),
    "wrong-cards": N_("Those are not the beans the offer asks for."),
}


def refusal(tr: Translator, error: IllegalActionError) -> str:
    """A short, translated reason for an illegal action (with the words it quotes, where the
    error has them: `params`)."""
    text = tr.gettext(REFUSALS.get(error.code, N_("That move is not allowed now.")))
    params = getattr(error, "params", None)
    return text.format(**params) if isinstance(params, dict) else text
