"""Every command that reads a store, on a store altered behind its back with plain SQL.

Each alteration is found and named: exit 1, one line, never a traceback, nothing written. The
listing has only the seating, options and deck to check cheaply: it marks a game whose header was
altered and lists the others as they are.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from bohnanza.adapters.i18n import load_translators
from bohnanza.adapters.store import open_store
from bohnanza.adapters.terminal.console import Console, TableChoice
from bohnanza.cli.app import build_app
from bohnanza.core.audit import action_payload, canonical_json, link_hash
from bohnanza.core.ports import IN_PROGRESS
from bohnanza.core.record import replay

runner = CliRunner()
FORGED_HASH = "ab" * 32


def run(*args: str, input: str | None = None) -> Result:
    return runner.invoke(build_app(), list(args), input=input)


def sql(db: Path, *statements: str, parameters: tuple[object, ...] = ()) -> None:
    """Change the file behind the store's back, as someone tampering with it would."""
    with closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("PRAGMA foreign_keys = OFF")
        for statement in statements:
            connection.execute(statement, parameters)


def rows(db: Path) -> list[str]:
    """Everything the store holds, to show that a command wrote nothing."""
    with closing(sqlite3.connect(db)) as connection:
        return list(connection.iterdump())


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two finished bot games and one terminal game interrupted after some moves."""
    db = tmp_path_factory.mktemp("store") / "games.db"
    simulated = run("simulate", "--players", "3", "--games", "2", "--seed", "5", "--db", str(db))
    assert simulated.exit_code == 0, simulated.output
    interrupted_after(40, db)
    return db


def interrupted_after(inputs: int, db: Path) -> None:
    """A terminal game in `db` whose player typed the first number listed `inputs` times,
    then stopped."""
    printed: list[str] = []
    left = iter(range(inputs))

    def first_listed() -> str:
        screen = "\n".join(printed).rsplit("only you see this", 1)[-1]
        found = re.search(r"^\[(\d+)\] ", screen, re.MULTILINE)
        if next(left, None) is None or found is None:
            raise EOFError
        return found.group(1)

    with open_store(str(db)) as store:
        console = Console(store, load_translators(), first_listed, printed.append, seed=5)

        async def game() -> None:
            await console.open(TableChoice(3, ["heuristic"], "en", "off", "anna", "2m"))
            await console.play()

        asyncio.run(game())


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    """A private copy of the store, free to change."""
    copy = tmp_path / "games.db"
    shutil.copy(pristine, copy)
    return copy


def interrupted_game(db: Path) -> str:
    """The terminal game in progress: every command below reads it."""
    with open_store(str(db)) as store:
        (game_id,) = [g.game_id for g in store.list_games() if g.status == IN_PROGRESS]
    return game_id


# --- the alterations ----------------------------------------------------------------------


def swap_two_names(db: Path, game: str) -> str:
    sql(
        db,
        "UPDATE seats SET name = CASE position WHEN 0 THEN 'Bot 1 (heuristic)' ELSE 'You' END "
        "WHERE game_id = ? AND position IN (0, 1)",
        parameters=(game,),
    )
    return "the seating, options or deck differ from what was stored"


def make_a_bot_human(db: Path, game: str) -> str:
    sql(
        db,
        "UPDATE seats SET kind = 'human', strategy = NULL WHERE game_id = ? AND position = 1",
        parameters=(game,),
    )
    return "the seating, options or deck differ from what was stored"


def replace_an_action_by_another_legal_one(db: Path, game: str) -> str:
    with open_store(str(db)) as store:
        record = store.load_record(game)
    for seq, action in enumerate(record.actions):
        before = replay(record, upto=seq)
        others = [a for a in before.legal_actions(action.player).actions if a != action]
        if seq >= 10 and others:
            sql(
                db,
                "UPDATE actions SET payload = ? WHERE game_id = ? AND seq = ?",
                parameters=(action_payload(others[0]), game, seq),
            )
            return f"action {seq}: its hash does not match"
    raise AssertionError("no action with a legal alternative")


def forge_an_illegal_action_with_its_chain(db: Path, game: str) -> str:
    """A seat plays out of turn, and every hash after it is made again: only the rules see it."""
    with open_store(str(db)) as store:
        stored = store.load_stored(game)
    record = stored.record()
    seq, forged = next(
        (seq, out_of_turn)
        for seq, action in enumerate(record.actions)
        if seq >= 10
        for out_of_turn in [replace(action, player=(action.player + 1) % len(record.seats))]
        if out_of_turn not in replay(record, upto=seq).legal_actions(out_of_turn.player).actions
    )
    links = list(stored.links)
    links[seq] = links[seq]._replace(payload=action_payload(forged))
    head = stored.header_hash if seq == 0 else links[seq - 1].hash
    for link in links[seq:]:
        head = link_hash(head, link.payload, link.reshuffles)
        sql(
            db,
            "UPDATE actions SET payload = ?, hash = ? WHERE game_id = ? AND seq = ?",
            parameters=(link.payload, head, game, link.seq),
        )
    sql(db, "UPDATE games SET head_hash = ? WHERE id = ?", parameters=(head, game))
    return f"action {seq}: illegal {forged.kind} by seat {forged.player}"


def delete_an_action(db: Path, game: str) -> str:
    sql(db, "DELETE FROM actions WHERE game_id = ? AND seq = 5", parameters=(game,))
    return "action 5: missing: the next stored action is number 6"


def change_the_header_hash(db: Path, game: str) -> str:
    sql(db, f"UPDATE games SET header_hash = '{FORGED_HASH}' WHERE id = ?", parameters=(game,))
    return "the seating, options or deck differ from what was stored"


def change_the_head_hash(db: Path, game: str) -> str:
    sql(db, f"UPDATE games SET head_hash = '{FORGED_HASH}' WHERE id = ?", parameters=(game,))
    return "action(s) ending in another hash"


def corrupt_the_creation_time(db: Path, game: str) -> str:
    sql(db, "UPDATE games SET created_at = 'garbage' WHERE id = ?", parameters=(game,))
    return "its stored creation time is not a time"


def make_turn_seconds_text(db: Path, game: str) -> str:
    sql(
        db,
        "UPDATE games SET options = replace(options, '\"turn_seconds\":0', "
        '\'"turn_seconds":"abc"\') WHERE id = ?',
        parameters=(game,),
    )
    return "the seating, options or deck differ from what was stored"


def shorten_the_deck(db: Path, game: str) -> str:
    with closing(sqlite3.connect(db)) as connection:
        (deck,) = connection.execute("SELECT deck FROM games WHERE id = ?", (game,)).fetchone()
    shorter = canonical_json(json.loads(deck)[:-10])
    sql(db, "UPDATE games SET deck = ? WHERE id = ?", parameters=(shorter, game))
    return "the seating, options or deck differ from what was stored"


def remove_a_seat(db: Path, game: str) -> str:
    sql(db, "DELETE FROM seats WHERE game_id = ? AND position = 2", parameters=(game,))
    return "the seating, options or deck differ from what was stored"


@dataclass(frozen=True)
class Alteration:
    make: Callable[[Path, str], str]
    """Alters the game in the store; returns what the one line must say."""
    listed_as: str | None
    """How the listing marks the game: None when the listing cannot see the alteration."""


ALTERATIONS = {
    "seat-names-swapped": Alteration(swap_two_names, "altered"),
    "seat-kind-changed": Alteration(make_a_bot_human, "altered"),
    "action-replaced": Alteration(replace_an_action_by_another_legal_one, None),
    "illegal-action-chained": Alteration(forge_an_illegal_action_with_its_chain, None),
    "action-deleted": Alteration(delete_an_action, None),
    "header-hash-changed": Alteration(change_the_header_hash, "altered"),
    "head-hash-changed": Alteration(change_the_head_hash, None),
    "created-at-corrupt": Alteration(corrupt_the_creation_time, "unreadable"),
    "turn-seconds-text": Alteration(make_turn_seconds_text, "altered"),
    "deck-shortened": Alteration(shorten_the_deck, "altered"),
    "seat-missing": Alteration(remove_a_seat, "altered"),
}


# --- what each command must do ------------------------------------------------------------


def assert_no_traceback(result: Result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


def assert_one_error_line(result: Result, game: str, reason: str) -> None:
    assert_no_traceback(result)
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and f"game {game}: " in lines[0]
    assert reason in lines[0]


def audit_names_it(db: Path, game: str, reason: str, _: Alteration) -> None:
    result = run("audit", str(db))
    assert_no_traceback(result)
    assert result.exit_code == 1
    first, summary = result.stdout.strip().splitlines()
    assert first.startswith(f"game {game}: ") and reason in first
    assert summary.endswith(": 1 inconsistent")


def replay_of_the_game_refuses_it(db: Path, game: str, reason: str, _: Alteration) -> None:
    result = run("replay", str(db), "--game", game)
    assert_one_error_line(result, game, reason)
    assert result.stdout == ""


def listing_marks_it(db: Path, game: str, reason: str, alteration: Alteration) -> None:
    result = run("replay", str(db))
    assert_no_traceback(result)
    assert result.exit_code == 0
    (row,) = [line for line in result.stdout.splitlines() if line.split()[:1] == [game]]
    if alteration.listed_as is None:
        assert "in-progress" in row and "altered" not in result.stdout
    else:
        assert f"in-progress, {alteration.listed_as}" in row
        assert f"game {game}: {reason}" in result.stdout


def export_refuses_it(db: Path, game: str, reason: str, _: Alteration) -> None:
    output = db.parent / "game.json"
    result = run("export", str(db), "--game", game, "--output", str(output))
    assert_one_error_line(result, game, reason)
    assert not output.exists()


def resume_refuses_it(db: Path, game: str, reason: str, _: Alteration) -> None:
    result = run("play", "--resume", "--db", str(db), input="1\nquit\n")
    assert_one_error_line(result, game, reason)
    assert "not resumed" in result.stderr


COMMANDS = {
    "audit": audit_names_it,
    "replay-game": replay_of_the_game_refuses_it,
    "replay-list": listing_marks_it,
    "export": export_refuses_it,
    "play-resume": resume_refuses_it,
}


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("alteration", ALTERATIONS)
def test_each_command_finds_each_alteration_and_writes_nothing(
    db: Path, alteration: str, command: str
) -> None:
    game = interrupted_game(db)
    reason = ALTERATIONS[alteration].make(db, game)
    before = rows(db)
    COMMANDS[command](db, game, reason, ALTERATIONS[alteration])
    assert rows(db) == before


def test_the_untouched_store_passes_every_command(db: Path) -> None:
    game = interrupted_game(db)
    assert run("audit", str(db)).exit_code == 0
    assert run("replay", str(db), "--game", game).exit_code == 0
    listed = run("replay", str(db))
    assert listed.exit_code == 0 and "altered" not in listed.stdout
    assert run("export", str(db), "--game", game, "-o", str(db.parent / "g.json")).exit_code == 0
    resumed = run("play", "--resume", "--db", str(db), input="quit\n")
    assert resumed.exit_code == 0 and resumed.stderr == ""


def test_trust_tells_an_altered_game_under_a_line_that_says_so(db: Path) -> None:
    game = interrupted_game(db)
    swap_two_names(db, game)
    result = run("replay", str(db), "--game", game, "--trust")
    assert result.exit_code == 0
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"ALTERED: game {game}: the seating, options or deck differ")
    assert "— turn 1: Bot 1 (heuristic) —" in result.stdout


def test_trust_marks_the_machine_readable_form_too(db: Path) -> None:
    game = interrupted_game(db)
    delete_an_action(db, game)
    result = run("replay", str(db), "--game", game, "--trust", "--json", "--at", "4")
    assert result.exit_code == 0
    told = json.loads(result.stdout)
    assert told["altered"] == f"game {game}: action 5: missing: the next stored action is number 6"


def test_trust_stops_at_an_action_the_rules_refuse_in_one_line(db: Path) -> None:
    game = interrupted_game(db)
    delete_an_action(db, game)
    result = run("replay", str(db), "--game", game, "--trust")
    assert_no_traceback(result)
    assert result.exit_code == 1
    assert result.stdout.startswith("ALTERED: ")
    assert result.stderr.startswith(f"error: {db}: game {game}: action 5: illegal")


@pytest.mark.slow
def test_the_installed_command_reports_a_tampered_resume_in_one_line(db: Path) -> None:
    game = interrupted_game(db)
    corrupt_the_creation_time(db, game)
    script = Path(sys.executable).parent / "bohnanza"
    done = subprocess.run(
        [str(script), "play", "--resume", "--db", str(db)],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "XDG_DATA_HOME": str(db.parent)},
    )
    assert done.returncode == 1
    assert done.stderr == (
        f"error: {db}: game {game}: its stored creation time is not a time; not resumed\n"
    )
