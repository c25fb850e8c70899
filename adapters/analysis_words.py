"""The expert's analysis of a game in words, in the reader's language.

One renderer for the analysis as text: `bohnanza analyse` prints it, and a chat may send its
summary. Both begin with the turning points (the game's costliest mistakes). Names are the
record's, shown as they are: the caller escapes them for its medium.
"""

from __future__ import annotations

from collections.abc import Sequence

from bohnanza.core.analysis import Analysis, Judgement, PlayerSummary
from bohnanza.core.analysis.moments import Option
from bohnanza.core.analysis.summary import REFERENCE_LOSS
from bohnanza.core.app.i18n import N_, Translator
from bohnanza.core.app.render import STEP_NAMES
from bohnanza.core.notation import action_text
from bohnanza.core.state import Step

NO_MISTAKE = N_("No decision was surely a mistake.")


def option_text(tr: Translator, option: Option) -> str:
    """An option as the command that takes it (`plant 2`), or `pass` for letting a trading
    moment go by."""
    return tr.gettext("pass") if option is None else action_text(option)


def coins(value: float) -> str:
    return f"{value:.1f}"


def player_line(tr: Translator, player: PlayerSummary) -> str:
    line = tr.gettext(
        "{name}: {decisions} decisions, {mistakes} mistakes, {loss} expected coins lost "
        "({per} a decision)"
    ).format(
        name=player.name,
        decisions=player.decisions,
        mistakes=player.mistakes,
        loss=coins(player.expected_loss),
        per=f"{player.loss_per_decision:.2f}",
    )
    if player.score is None:
        return line
    return line + tr.gettext("; {score} coins at the end").format(score=player.score)


def decision_line(tr: Translator, judgement: Judgement) -> str:
    return tr.gettext(
        "turn {turn}, {step}: {chosen}; better {best} ({loss} ± {error} coins)"
    ).format(
        turn=judgement.turn,
        step=tr.gettext(STEP_NAMES[Step(judgement.step)]),
        chosen=option_text(tr, judgement.chosen),
        best=option_text(tr, judgement.best),
        loss=coins(-judgement.loss),
        error=coins(judgement.error),
    )


def turning_point_line(tr: Translator, judgement: Judgement, names: Sequence[str]) -> str:
    return f"{names[judgement.seat]}, {decision_line(tr, judgement)}"


def legend_lines(tr: Translator, analysis: Analysis) -> list[str]:
    """What the figures mean."""
    return [
        tr.gettext(
            "Expected coins lost: how far each decision left the player behind the best option "
            "the expert found, in coins at the end, ± its standard error. A mistake: another "
            "option was surely better (two standard errors), by at least {threshold} coins."
        ).format(threshold=coins(analysis.threshold)),
        tr.gettext(
            "Coins lost a decision measure the play: the expert's own decisions lose about "
            "{expert}, the heuristic bot's {heuristic}, random play {random}."
        ).format(**{name: f"{loss:.2f}" for name, loss in REFERENCE_LOSS.items()}),
    ]


def report_lines(tr: Translator, analysis: Analysis, names: Sequence[str], title: str) -> list[str]:
    """The whole analysis: the turning points, then per player a line and the decisions that
    cost most, then what the figures mean."""
    lines = [tr.gettext("Analysis of {game}").format(game=title), ""]
    if analysis.turning_points:
        lines.append(tr.gettext("Turning points:"))
        lines += ["  " + turning_point_line(tr, j, names) for j in analysis.turning_points]
    else:
        lines.append(tr.gettext(NO_MISTAKE))
    lines.append("")
    for player in analysis.players:
        lines.append(player_line(tr, player))
        lines += ["  " + decision_line(tr, j) for j in player.costliest]
    return [*lines, "", *legend_lines(tr, analysis)]


def summary_lines(tr: Translator, analysis: Analysis) -> list[str]:
    """Three lines for a room: the turning points (at most two), then the player whose
    decisions cost least."""
    names = {p.seat: p.name for p in analysis.players}
    named = [names.get(seat, "") for seat in range(max(names, default=-1) + 1)]
    lines = [turning_point_line(tr, j, named) for j in analysis.turning_points[:2]]
    if not lines:
        lines.append(tr.gettext(NO_MISTAKE))
    judged = [p for p in analysis.players if p.decisions]
    if judged:
        top = min(judged, key=lambda p: (p.loss_per_decision, p.seat))
        lines.append(tr.gettext("Best play: {line}").format(line=player_line(tr, top)))
    return lines
