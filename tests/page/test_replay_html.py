"""`bohnanza replay ... --html FILE` through the real typer application."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bohnanza.cli.app import build_app
from bohnanza.core.analysis import SearchSize, decisions, judge_game
from bohnanza.core.record import GameRecord, replay

from .pages import embedded

SIZE = SearchSize(deals=2)
"""The search the page is asked for in a test (`--deals 2`)."""
SEE_HELP = " (see 'bohnanza replay --help')"
"""How every usage error of the command line ends."""


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(build_app(), list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """A store and a record file of the same 3-player bot game, and its id."""
    folder = tmp_path_factory.mktemp("games")
    db = folder / "games.db"
    code, out, _ = run(
        "simulate",
        "--players",
        "3",
        "--games",
        "1",
        "--seed",
        "4",
        "--db",
        str(db),
        "--out",
        str(folder),
    )
    assert code == 0, out
    game = json.loads(run("replay", str(db), "--json")[1])[0]["game_id"]
    return db, folder / f"{game}.json", game


@pytest.fixture
def early(simulated: tuple[Path, Path, str], tmp_path: Path) -> Path:
    """A record file of the simulated game's first 60 actions: a game under way."""
    record = GameRecord.loads(simulated[1].read_text())
    path = tmp_path / "early.json"
    path.write_text(GameRecord.of(replay(record, upto=60), record.seats).dumps())
    return path


@pytest.fixture
def db(simulated: tuple[Path, Path, str], tmp_path: Path) -> Path:
    copy = tmp_path / "games.db"
    shutil.copy(simulated[0], copy)
    return copy


def test_a_record_file_becomes_a_spectators_page(
    simulated: tuple[Path, Path, str], tmp_path: Path
) -> None:
    _, record_file, _ = simulated
    page = tmp_path / "game.html"
    code, out, err = run("replay", str(record_file), "--html", str(page))
    assert code == 0, err
    record = GameRecord.loads(record_file.read_text())
    assert out.strip().startswith(f"{page}: {len(record.actions)} actions as a spectator saw them")
    data = embedded(page.read_bytes())
    assert page.read_text().startswith("<!DOCTYPE html>")
    assert data["viewer"] is None and not any("h" in moment for moment in data["steps"])
    assert len(data["steps"]) == len(record.actions) + 1


def test_a_stored_game_becomes_one_players_page_in_his_language(
    simulated: tuple[Path, Path, str], db: Path, tmp_path: Path
) -> None:
    page = tmp_path / "game.html"
    game = simulated[2]
    args = ("replay", str(db), "--game", game, "--html", str(page), "--as", "heuristic-2")
    code, out, err = run(*args, "--lang", "de")
    assert code == 0, err
    assert "as seat 2 saw them" in out
    data = embedded(page.read_bytes())
    assert data["viewer"] == 1 and all("h" in moment for moment in data["steps"])
    assert '<html lang="de">' in page.read_text()
    assert data["labels"]["beans"][0] == "Kaffeebohne"


def test_an_existing_page_is_overwritten_only_with_force(
    simulated: tuple[Path, Path, str], tmp_path: Path
) -> None:
    page = tmp_path / "game.html"
    page.write_text("mine")
    code, _, err = run("replay", str(simulated[1]), "--html", str(page))
    assert code == 1 and err == f"error: {page}: already exists; add --force to overwrite it\n"
    assert page.read_text() == "mine"
    code, _, _ = run("replay", str(simulated[1]), "--html", str(page), "--force")
    assert code == 0 and page.read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--lang", "fr"), "error: --lang takes en, it, ru, de"),
        (("--at", "3"), "error: --html writes the whole game; leave out --at and --json"),
        (("--json",), "error: --html writes the whole game; leave out --at and --json"),
    ],
)
def test_options_that_do_not_go_with_a_page_are_refused_in_one_line(
    simulated: tuple[Path, Path, str], tmp_path: Path, extra: tuple[str, ...], message: str
) -> None:
    page = tmp_path / "game.html"
    code, _, err = run("replay", str(simulated[1]), "--html", str(page), *extra)
    assert (code, err) == (2, f"{message}{SEE_HELP}\n")
    assert not page.exists()


def test_a_store_without_a_game_makes_no_page(db: Path, tmp_path: Path) -> None:
    code, _, err = run("replay", str(db), "--html", str(tmp_path / "game.html"))
    assert (code, err) == (2, f"error: --html needs --game{SEE_HELP}\n")


def test_an_unknown_player_is_refused(simulated: tuple[Path, Path, str], tmp_path: Path) -> None:
    code, _, err = run("replay", str(simulated[1]), "--html", str(tmp_path / "g.html"), "--as", "9")
    assert code == 2 and err.startswith("error: --as takes a seat number 1-3")
    assert not (tmp_path / "g.html").exists()


def test_an_altered_game_is_refused_or_shown_marked_with_trust(
    simulated: tuple[Path, Path, str], db: Path, tmp_path: Path
) -> None:
    game = simulated[2]
    with closing(sqlite3.connect(db)) as connection, connection:
        connection.execute(
            "UPDATE seats SET name = 'Mallory' WHERE game_id = ? AND position = 0", (game,)
        )
    page = tmp_path / "game.html"
    code, _, err = run("replay", str(db), "--game", game, "--html", str(page))
    assert code == 1 and "not shown (`--trust` shows it anyway)" in err
    assert not page.exists()
    code, _, err = run("replay", str(db), "--game", game, "--html", str(page), "--trust")
    assert code == 0, err
    assert '<p class="altered">ALTERED: ' in page.read_text()
    assert embedded(page.read_bytes())["names"][0] == "Mallory"


def test_page_options_without_a_page_are_refused(simulated: tuple[Path, Path, str]) -> None:
    code, _, err = run("replay", str(simulated[1]), "--lang", "it")
    assert (code, err) == (2, f"error: --lang and --force are for --html{SEE_HELP}\n")


def test_a_players_page_with_the_analysis_marks_his_own_costly_decisions_only(
    simulated: tuple[Path, Path, str], early: Path, tmp_path: Path
) -> None:
    record = GameRecord.loads(simulated[1].read_text())
    page = tmp_path / "game.html"
    code, _, err = run("replay", str(early), "--html", str(page), "--as", "2", "--analysis")
    assert code == 0, err
    marks = embedded(page.read_bytes())["analysis"]["marks"]
    assert marks, "no decision of seat 2 lost coins in 60 actions"
    for step, at_step in marks.items():
        assert record.actions[int(step) - 1].player == 1
        assert [seat for seat, *_ in at_step] == [1]
        assert all(loss > 0 and "better" in line for _, loss, _, line in at_step)


def test_a_spectators_page_of_an_unfinished_game_has_no_analysis(
    early: Path, tmp_path: Path
) -> None:
    page = tmp_path / "game.html"
    code, _, err = run("replay", str(early), "--html", str(page), "--analysis")
    assert code == 1 and "has not ended" in err
    assert not page.exists()


def test_the_analysis_without_a_page_is_refused(simulated: tuple[Path, Path, str]) -> None:
    code, _, err = run("replay", str(simulated[1]), "--analysis")
    assert (code, err) == (2, f"error: --analysis is for --html{SEE_HELP}\n")


def test_the_pages_analysis_searches_with_the_deals_asked_for(
    simulated: tuple[Path, Path, str], tmp_path: Path
) -> None:
    # The whole game: in its first actions, 2 deals to the end of the game tell no option
    # surely better.
    page, source = tmp_path / "game.html", simulated[1]
    code, _, err = run(
        "replay", str(source), "--html", str(page), "--as", "2", "--analysis", "--deals", "2"
    )
    assert code == 0, err
    marks = embedded(page.read_bytes())["analysis"]["marks"]
    judged = judge_game(list(decisions(GameRecord.loads(source.read_text()), frozenset({1}))), SIZE)
    expected = {str(j.index + 1): round(j.loss, 2) for j in judged if j.loss > 0}
    assert expected and {step: at[0][1] for step, at in marks.items()} == expected


@pytest.mark.parametrize(
    ("options", "error"),
    [
        (["--deals", "2"], "--deals is for --analysis"),
        (["--analysis", "--deals", "0"], "Invalid value for '--deals': must be 1 to 1000"),
    ],
)
def test_deals_without_the_analysis_or_out_of_range_are_refused(
    simulated: tuple[Path, Path, str], tmp_path: Path, options: list[str], error: str
) -> None:
    page = tmp_path / "game.html"
    code, _, err = run("replay", str(simulated[1]), "--html", str(page), *options)
    assert code == 2 and err.startswith(f"error: {error}"), err
    assert not page.exists()
