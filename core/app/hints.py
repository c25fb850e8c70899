"""Learning mode: the expert's suggestion for one seat's decision now, with a one-line reason.

A room chooses hints in the lobby (`set hints on`); the game's options then hold
`hints: on` (`HINTS_OPTION`), every player may ask for a hint privately, and the game is not
rated. A hint is worked out from the asking seat's view alone, as the expert bot decides
(`analysis.judge`): the heuristic bot's choice and the other options worth comparing are played
out on deals of the cards that seat cannot see, and another option is suggested only when it is
clearly better.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from ..actions import Action
from ..analysis.judge import SearchSize, judge
from ..analysis.moments import Moment
from ..bots.expert import options_worth_comparing, planted_so_far
from ..bots.heuristic import HeuristicBot
from ..bots.sampling import Observations
from ..legal import LegalActions
from ..notation import action_text
from ..record import GameRecord, replay_steps
from ..state import Step
from ..view import PlayerView
from .i18n import Translator
from .lobby import LobbyError

HINTS_OPTION = "hints"
"""The game option that says the room chose hints; its value is `HINTS_ON`."""
HINTS_ON = "on"
HINT_DEALS = 12
"""Deals per hint: a person waits for it, so fewer than the analysis plays."""


@dataclass(frozen=True)
class Hint:
    """The expert's suggestion, and why in one line (in the player's language)."""

    suggestion: Action | None
    """None: let this trading moment go by."""
    reason: str
    margin: float
    """The seat's expected margin over the best other seat after the suggestion, in coins."""


def hints_on(options: Mapping[str, str | int]) -> bool:
    """Whether a game's options say it is played with hints."""
    return options.get(HINTS_OPTION) == HINTS_ON


def check_hints_allowed(options: Mapping[str, str | int]) -> None:
    """Refuse a hint in a game whose room did not choose hints."""
    if not hints_on(options):
        raise LobbyError("This game is played without hints (a room chooses them in the lobby).")


def hint(
    view: PlayerView,
    legal: LegalActions,
    tr: Translator,
    seed: int,
    seen: Observations | None = None,
    deals: int = HINT_DEALS,
) -> Hint:
    """The expert's suggestion for the seat of `view` now, given its legal actions.

    `seen` is what the seat worked out from its earlier views (`seen_by`); without it the coin
    stacks are taken as unknown. Raises LobbyError when the seat has nothing to decide (not
    its turn to act, and nothing it would do).
    """
    if view.seat is None or not legal or legal.player != view.seat:
        raise LobbyError("You have no decision to take now.")
    guide = HeuristicBot(random.Random(seed)).choose(view, legal)
    options = tuple(options_worth_comparing(view, legal, guide))
    if len(options) < 2:
        # One sensible option: nothing to search. A seat the game does not wait on whose one
        # option is to do nothing (a harvest it need not make) has nothing to decide now; a
        # partner in trading may let the moment go by.
        if options[0] is None and not legal.waiting and view.step is not Step.TRADE:
            raise LobbyError("You have no decision to take now.")
        action = "pass" if options[0] is None else action_text(options[0])
        reason = tr.gettext("{action}: the one sensible option here.").format(action=action)
        return Hint(options[0], reason, 0.0)
    stacks = seen.coin_varieties if seen is not None else [[] for _ in view.seats]
    moment = Moment(
        index=view.turn,
        seat=view.seat,
        view=view,
        legal=legal,
        coin_varieties=tuple(tuple(stack) for stack in stacks),
        planted=planted_so_far(view, legal),
        options=options,
    )
    judged = judge(moment, SearchSize(seed=seed, deals=deals))
    action = "pass" if judged.best is None else action_text(judged.best)
    if judged.forced:
        reason = tr.gettext("{action}: the one sensible option here.").format(action=action)
    else:
        reason = tr.gettext(
            "{action}: the expert expects it to leave you {margin} coins ahead of the best other "
            "player ({options} options compared)."
        ).format(action=action, margin=f"{judged.margin + judged.loss:.1f}", options=len(options))
    return Hint(judged.best, reason, judged.margin + judged.loss)


def seen_by(record: GameRecord, seat: int) -> Observations:
    """What `seat` worked out from every view it was shown in the game so far."""
    seen = Observations()
    for game, _, _, _ in replay_steps(record):
        seen.observe(game.view(seat))
    return seen


def hints_line(tr: Translator, on: bool) -> str:
    """The lobby's line about hints, for every player to see before the game starts."""
    if on:
        return tr.gettext("Hints: on (ask 'hint' during your decisions; the game is not rated)")
    return tr.gettext("Hints: off ('set hints on' lets each player ask the expert)")
