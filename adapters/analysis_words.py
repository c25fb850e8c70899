"""The expert's analysis of a game in words, in the reader's language.

One renderer for the analysis as text: `bohnanza analyse` prints it, and a chat may send its
summary. Names are the record's, shown as they are: the caller escapes them for its medium.
"""

from __future__ import annotations

from collections.abc import Sequence

from bohnanza.core.analysis import Analysis, Judgement, PlayerSummary
from bohnanza.core.analysis.moments import Option
from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.render import STEP_NAMES
from bohnanza.core.notation import action_text
from bohnanza.core.state import Step


def option_text(tr: Translator, option: Option) -> str:
    """An option as the command that takes it (`plant 2`), or `pass` for letting a trading
    moment go by."""
    return tr.gettext("pass") if option is None else action_text(option)


def coins(value: float) -> str:
    return f"{value:.1f}"


def player_line(tr: Translator, player: PlayerSummary) -> str:
    return tr.gettext(
        "{name}: {decisions} decisions, {mistakes} mistakes, {loss} coins lost, "
        "accuracy {accuracy}%"
    ).format(
        name=player.name,
        decisions=player.decisions,
        mistakes=player.mistakes,
        loss=coins(player.expected_loss),
        accuracy=round(player.accuracy),
    )


def decision_line(tr: Translator, judgement: Judgement) -> str:
    return tr.gettext("turn {turn}, {step}: {chosen}; better {best} ({loss} coins)").format(
        turn=judgement.turn,
        step=tr.gettext(STEP_NAMES[Step(judgement.step)]),
        chosen=option_text(tr, judgement.chosen),
        best=option_text(tr, judgement.best),
        loss=coins(-judgement.loss),
    )


def report_lines(tr: Translator, analysis: Analysis, names: Sequence[str], title: str) -> list[str]:
    """The whole analysis: per player a line and the decisions that cost most, then the
    turning points and what the figures mean."""
    lines = [tr.gettext("Analysis of {game}").format(game=title), ""]
    for player in analysis.players:
        lines.append(player_line(tr, player))
        lines += ["  " + decision_line(tr, j) for j in player.costliest]
    if analysis.turning_points:
        lines += ["", tr.gettext("Turning points:")]
    for point in analysis.turning_points:
        lines.append(
            "  "
            + tr.gettext("turn {turn}: {name}'s expected margin {before} -> {after}").format(
                turn=point.turn,
                name=names[point.seat],
                before=coins(point.before),
                after=coins(point.after),
            )
        )
    lines += [
        "",
        tr.gettext(
            "A mistake loses at least {threshold} expected coins; accuracy is the share of "
            "decisions with no clearly better option."
        ).format(threshold=coins(analysis.threshold)),
    ]
    return lines


def summary_lines(tr: Translator, analysis: Analysis) -> list[str]:
    """Three lines for a room: the most accurate player, the costliest decision, the biggest
    turning point."""
    names = {p.seat: p.name for p in analysis.players}
    lines = []
    if analysis.players:
        top = max(analysis.players, key=lambda p: (p.accuracy, -p.expected_loss))
        lines.append(player_line(tr, top))
    costly = max(analysis.judgements, key=lambda j: (j.loss, -j.index), default=None)
    if costly is not None and costly.loss > 0:
        lines.append(f"{names[costly.seat]}, {decision_line(tr, costly)}")
    if analysis.turning_points:
        point = analysis.turning_points[0]
        lines.append(
            tr.gettext("turn {turn}: {name}'s expected margin {before} -> {after}").format(
                turn=point.turn,
                name=names[point.seat],
                before=coins(point.before),
                after=coins(point.after),
            )
        )
    return lines
