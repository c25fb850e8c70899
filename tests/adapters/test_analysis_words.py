"""The analysis in words: the whole report, and the lines a room is sent, turning points first."""

from __future__ import annotations

from bohnanza.adapters.analysis_words import report_lines, summary_lines
from bohnanza.adapters.i18n import load_translator
from bohnanza.cli.simulate import simulate_game
from bohnanza.core.actions import AcceptTrade, DeclineTrade, EndStep, Plant
from bohnanza.core.analysis import Judgement, SearchSize, analyse_game, summarise
from bohnanza.core.record import GameRecord, replay

QUICK = SearchSize(seed=2, deals=3, horizon=2)


def early_game() -> GameRecord:
    record = simulate_game(3, ["random", "heuristic"], 5)
    return GameRecord.of(replay(record, upto=120), record.seats)


def judged(index: int, seat: int, loss: float, error: float = 0.1) -> Judgement:
    better = AcceptTrade(seat, 7) if loss else DeclineTrade(seat, 7)
    return Judgement(
        index, seat, 3 + index, "trade", DeclineTrade(seat, 7), better, loss, 1.0, 2, False, error
    )


def test_a_room_is_told_the_turning_points_first_then_who_played_best() -> None:
    record = simulate_game(3, ["heuristic"], 5)
    judgements = [judged(0, 0, 0.3), judged(1, 1, 2.2), judged(2, 2, 0.0), judged(3, 0, 1.4)]
    judgements += [judged(4, 2, 0.0), judged(5, 1, 0.0)]
    analysis = summarise(record, judgements)
    assert [j.index for j in analysis.turning_points] == [1, 3]
    lines = summary_lines(load_translator("en"), analysis)
    assert lines == [
        "heuristic-2, turn 4, step 2: trading: decline 7; better accept 7 (-2.2 ± 0.1 coins)",
        "heuristic-1, turn 6, step 2: trading: decline 7; better accept 7 (-1.4 ± 0.1 coins)",
        "Best play: heuristic-3: 2 decisions, 0 mistakes, 0.0 expected coins lost "
        f"(0.00 a decision); {record.result.scores[2] if record.result else 0} coins at the end",
    ]


def test_a_loss_too_small_or_too_unsure_is_no_mistake_nor_a_turning_point() -> None:
    record = simulate_game(3, ["heuristic"], 5)
    analysis = summarise(record, [judged(0, 0, 0.4), judged(1, 1, 0.0, error=0.9)])
    assert analysis.turning_points == ()
    assert [p.mistakes for p in analysis.players] == [0, 0, 0]
    lines = summary_lines(load_translator("en"), analysis)
    assert lines[0] == "No decision was surely a mistake."


def test_a_forced_decision_is_counted_apart() -> None:
    record = simulate_game(3, ["heuristic"], 5)
    forced = Judgement(0, 0, 1, "plant", Plant(0, 0), Plant(0, 0), 0.0, 0.0, 1, True)
    analysis = summarise(record, [forced, judged(1, 0, 0.6)])
    [player, *_] = analysis.players
    assert (player.decisions, player.forced, player.mistakes) == (1, 1, 1)
    assert player.expected_loss == 0.6 and player.loss_per_decision == 0.6
    assert EndStep(0) not in [j.chosen for j in analysis.judgements]


def test_the_report_names_every_player_in_the_language_asked() -> None:
    record = early_game()
    analysis = analyse_game(record, size=QUICK)
    lines = report_lines(load_translator("de"), analysis, [s.name for s in record.seats], "G")
    assert lines[0] == "Analyse von G"
    assert lines[2] in ("Wendepunkte:", "Keine Entscheidung war sicher ein Fehler.")
    for seat in record.seats:
        assert any(line.startswith(f"{seat.name}: ") and "Entscheidungen" in line for line in lines)
