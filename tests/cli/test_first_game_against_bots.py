"""A newcomer's whole games against bots, played through the real `bohnanza play` in a
pseudo-terminal of 80 and of 40 columns: he answers the bots' offers to him and makes offers of
his own. From what he read and from the stored game: no bot took back an offer to him before he
could act on it, every input of his was answered on screen at once, no line was broken inside a
choice or a bean's name, and he was not made to pass on bot turns he had nothing to do with."""

from __future__ import annotations

import statistics

import pytest
from rich.cells import cell_len
from terminal_person import (
    ANSWERED_WITHIN,
    bean_names,
    broken_lines,
    offers_to_the_person,
    play_as_a_person,
    short_folder,
    stored_game,
    withdrawn_before_he_acted,
)

from bohnanza.core.app.i18n import English

MOST_PASSES = 5
"""Inputs that decide nothing (a pass) a game may ask of him."""


@pytest.mark.slow
@pytest.mark.parametrize(("columns", "players", "seed"), [(80, 3, 11), (40, 4, 12)])
def test_a_newcomers_game_answers_him_at_once_and_never_trades_past_him(
    columns: int, players: int, seed: int
) -> None:
    with short_folder() as home:
        args = ["--players", str(players), "--name", "anna"]
        terminal, inputs = play_as_a_person(args, columns, seed, home)
        fates = offers_to_the_person(stored_game(home))
    lines = terminal.lines
    latencies = sorted(inputs.latencies)
    # The figures, for whoever runs this with -s (the bound asserted is generous on purpose).
    print(
        f"\n{columns} columns, {players} players: {len(inputs.typed)} inputs, "
        f"{inputs.answers} answers to bots' offers, {inputs.offers} offers of his, "
        f"{inputs.passes} passes; first output after an input: median "
        f"{statistics.median(latencies) * 1000:.0f} ms, slowest {latencies[-1] * 1000:.0f} ms"
    )
    assert any("is over." in line for line in lines)
    assert inputs.answers >= 3 and inputs.offers >= 1, "he answered offers and made his own"
    assert len(fates) >= 3, "the bots made offers to him"

    assert withdrawn_before_he_acted(fates) == []
    assert inputs.unanswered == []
    assert latencies[-1] < ANSWERED_WITHIN
    assert [line for line in lines if cell_len(line) > columns] == []
    assert broken_lines(lines, columns, bean_names(English())) == []
    assert inputs.passes <= MOST_PASSES
