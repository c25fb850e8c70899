"""The expert's analysis on a game page: the turning points (the game's costliest mistakes)
first, a mark on the slider at each decision that lost coins, and at a marked step the better
option, with each analysed player's figures and what they mean.

Only the judgements handed in are shown: a player's page gets that player's decisions alone, a
spectator's page of a finished game every seat's (`page_analysis` refuses other mixes). The
words are those of `analysis_words`; they are embedded as JSON text, never as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bohnanza.core.analysis import Analysis
from bohnanza.core.app.i18n import Translator
from bohnanza.core.record import GameRecord

from .analysis_words import (
    NO_MISTAKE,
    decision_line,
    legend_lines,
    player_line,
    turning_point_line,
)
from .game_page_art import text
from .game_page_words import page_words


def check_page_analysis(record: GameRecord, analysis: Analysis, seat: int | None) -> None:
    """Refuse an analysis that would show a page more than its viewer may see: another seat's
    decisions on a player's page, or any decision on a spectator's page of a game not ended."""
    seats = {p.seat for p in analysis.players}
    if seat is not None and seats - {seat}:
        raise ValueError("a player's page shows the analysis of his own decisions only")
    if seat is None and record.result is None:
        raise ValueError("a spectator's page shows the analysis of a finished game only")


def page_analysis(analysis: Analysis, tr: Translator, names: Sequence[str]) -> dict[str, Any]:
    """The analysis as the page embeds it: marks by slider step (after the decision's action),
    each [seat, coins lost, a mistake (1) or not (0), the line saying what was better]; the
    turning points, each [slider step, line]; each analysed player's line; the legend."""
    marks: dict[str, list[list[Any]]] = {}
    for judgement in analysis.judgements:
        if judgement.loss <= 0.0:
            continue
        line = f"{names[judgement.seat]}, {decision_line(tr, judgement)}"
        mistake = 1 if judgement.mistake else 0
        marks.setdefault(str(judgement.index + 1), []).append(
            [judgement.seat, round(judgement.loss, 2), mistake, line]
        )
    return {
        "marks": marks,
        "turning": [
            [j.index + 1, turning_point_line(tr, j, names)] for j in analysis.turning_points
        ],
        "players": [player_line(tr, p) for p in analysis.players],
        "legend": legend_lines(tr, analysis),
    }


def turning_points_html(tr: Translator, shown: dict[str, Any]) -> str:
    """The turning points as the page shows them first, each a button to its step."""
    title = text(page_words(tr)["turning"])
    items = "".join(
        f'<li><button type="button" data-step="{int(step)}">{text(line)}</button></li>'
        for step, line in shown["turning"]
    )
    body = f"<ol>{items}</ol>" if items else f"<p>{text(tr.gettext(NO_MISTAKE))}</p>"
    return f'\n<section id="turning" class="turning">\n<h2>{title}</h2>\n{body}\n</section>'
