"""The analysis in words: the whole report, and the three lines a room is sent."""

from __future__ import annotations

from bohnanza.adapters.analysis_words import report_lines, summary_lines
from bohnanza.adapters.i18n import load_translator
from bohnanza.cli.simulate import simulate_game
from bohnanza.core.analysis import SearchSize, analyse_game
from bohnanza.core.record import GameRecord, replay

QUICK = SearchSize(seed=2, deals=3, horizon=2)


def early_game() -> GameRecord:
    record = simulate_game(3, ["random", "heuristic"], 5)
    return GameRecord.of(replay(record, upto=120), record.seats)


def test_a_room_is_sent_three_lines_the_most_accurate_player_first() -> None:
    analysis = analyse_game(early_game(), size=QUICK)
    lines = summary_lines(load_translator("en"), analysis)
    assert len(lines) == 3
    top = max(analysis.players, key=lambda p: (p.accuracy, -p.expected_loss))
    assert lines[0].startswith(f"{top.name}: {top.decisions} decisions, ")
    costly = max(analysis.judgements, key=lambda j: j.loss)
    assert lines[1].startswith(f"{analysis.players[costly.seat].name}, ")
    assert "; better " in lines[1]
    assert "expected margin" in lines[2]


def test_the_report_names_every_player_in_the_language_asked() -> None:
    record = early_game()
    analysis = analyse_game(record, size=QUICK)
    lines = report_lines(load_translator("de"), analysis, [s.name for s in record.seats], "G")
    assert lines[0] == "Analyse von G"
    for seat in record.seats:
        assert any(line.startswith(f"{seat.name}: ") and "Genauigkeit" in line for line in lines)
    assert "Wendepunkte:" in lines
