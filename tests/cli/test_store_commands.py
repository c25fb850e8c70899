"""simulate → replay → export → import → audit through the real typer application, and bad input."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bohnanza.adapters.store import open_store
from bohnanza.cli.app import build_app
from bohnanza.cli.narrate import render_view
from bohnanza.core.record import GameRecord, replay

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(build_app(), list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def simulated_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("store") / "games.db"
    code, out, err = run(
        "simulate", "--players", "3", "--games", "3", "--seed", "5", "--db", str(path)
    )
    assert code == 0, out + err
    return path


@pytest.fixture
def db(simulated_db: Path, tmp_path: Path) -> Path:
    """A private copy of the simulated store, free to change."""
    copy = tmp_path / "games.db"
    shutil.copy(simulated_db, copy)
    return copy


def game_ids(db: Path) -> list[str]:
    with open_store(str(db)) as store:
        return [g.game_id for g in store.list_games()]


def stored_record(db: Path, game_id: str) -> GameRecord:
    with open_store(str(db)) as store:
        return store.load_record(game_id)


def sql(db: Path, *statements: str) -> None:
    """Change the file behind the store's back, as someone tampering with it would."""
    with closing(sqlite3.connect(db)) as connection, connection:
        for statement in statements:
            connection.execute(statement)


# --- simulate and replay -------------------------------------------------------------------


def test_simulate_stores_every_game_and_replay_lists_them(db: Path) -> None:
    ids = game_ids(db)
    assert ids == [
        "sim-p3-heuristic-5000015",
        "sim-p3-heuristic-5000016",
        "sim-p3-heuristic-5000017",
    ]
    code, out, _ = run("replay", str(db))
    assert code == 0
    for game_id in ids:
        record = stored_record(db, game_id)
        assert record.result is not None
        assert replay(record).result() == record.result
        row = next(line for line in out.splitlines() if game_id in line)
        assert "finished" in row and str(max(record.result.scores)) in row
        assert record.seats[record.result.winners[0]].name in row
    assert "3 game(s)" in out


def test_simulate_refuses_to_store_a_game_twice(db: Path) -> None:
    before = db.read_bytes()
    code, _, err = run("simulate", "--players", "3", "--games", "1", "--seed", "5", "--db", str(db))
    assert code == 1
    assert (
        err.strip()
        == f"error: {db}: already holds game sim-p3-heuristic-5000015; choose another --seed"
    )
    assert db.read_bytes() == before


def test_replay_lists_games_as_json(db: Path) -> None:
    code, out, _ = run("replay", str(db), "--json")
    assert code == 0
    games = json.loads(out)
    assert [g["game_id"] for g in games] == game_ids(db)
    first = games[0]
    record = stored_record(db, first["game_id"])
    assert first["players"] == [seat.name for seat in record.seats]
    assert first["status"] == "finished" and first["actions"] == len(record.actions)
    assert record.result is not None and first["score"] == max(record.result.scores)


def test_replay_of_a_stored_game_tells_it_turn_by_turn(db: Path) -> None:
    code, out, _ = run("replay", str(db), "--game", "sim-p3-heuristic-5000016")
    assert code == 0
    record = stored_record(db, "sim-p3-heuristic-5000016")
    assert record.result is not None
    lines = out.splitlines()
    assert lines[0].startswith("— turn 1:")
    assert lines[-1].startswith("game over")
    for seat, score in zip(record.seats, record.result.scores, strict=True):
        assert f"{seat.name} {score}" in lines[-1]


def test_replay_at_an_action_shows_the_table_after_it(db: Path) -> None:
    code, out, _ = run("replay", str(db), "--game", "sim-p3-heuristic-5000016", "--at", "25")
    assert code == 0
    game = replay(stored_record(db, "sim-p3-heuristic-5000016"), upto=25)
    assert f"turn {game.state.turn}," in out and "▶" in out
    assert "your hand" not in out


def test_replay_as_a_player_shows_only_what_that_player_could_see(db: Path) -> None:
    record = stored_record(db, "sim-p3-heuristic-5000016")
    names = [seat.name for seat in record.seats]
    code, out, _ = run(
        "replay", str(db), "--game", "sim-p3-heuristic-5000016", "--at", "40", "--as", "2"
    )
    assert code == 0
    draws = [line for line in out.splitlines() if " draws " in line]
    assert any(line.startswith(names[1]) and "card(s)" not in line for line in draws)
    others = [line for line in draws if not line.startswith(names[1])]
    assert others and all(line.endswith("card(s)") for line in others)
    table = render_view(replay(record, upto=40).view(1), names)
    assert out.endswith(table + "\n")
    assert table.splitlines()[-1].startswith("your hand:")


def test_replay_as_json_for_a_player_hides_other_hands_and_their_hand_positions(db: Path) -> None:
    code, out, _ = run(
        "replay", str(db), "--game", "sim-p3-heuristic-5000017", "--at", "60", "--as", "1", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["viewer"] == 0 and data["actions"] == 60 and len(data["steps"]) == 61
    view = replay(stored_record(db, "sim-p3-heuristic-5000017"), upto=60).view(0)
    assert data["table"]["hand"] == [v.value for v in view.hand]
    assert all("hand" not in seat for seat in data["table"]["seats"])
    for step in data["steps"][1:]:
        assert ("payload" in step) == (step["player"] == 0)


def test_replay_as_an_unknown_player_is_refused(db: Path) -> None:
    code, _, err = run("replay", str(db), "--game", "sim-p3-heuristic-5000017", "--as", "Zorro")
    assert code == 2 and err.startswith("error: --as takes a seat number 1-3")


# --- export, import, audit -----------------------------------------------------------------


def test_export_import_audit_round_trip(db: Path, tmp_path: Path) -> None:
    exported = tmp_path / "game.json"
    code, out, err = run(
        "export", str(db), "--game", "sim-p3-heuristic-5000015", "--output", str(exported)
    )
    assert code == 0, err
    assert "→" in out
    record = GameRecord.loads(exported.read_text())
    assert record == stored_record(db, "sim-p3-heuristic-5000015")
    other = tmp_path / "other.db"
    code, out, err = run("import", str(exported), "--db", str(other))
    assert code == 0, err
    assert out.startswith("game sim-p3-heuristic-5000015: ")
    assert stored_record(other, "sim-p3-heuristic-5000015") == record
    code, out, _ = run("audit", str(other))
    assert code == 0
    assert out.strip().endswith("all consistent")
    assert "audited 1 game(s)" in out


def test_import_of_a_record_without_an_id_names_it_by_its_content(db: Path, tmp_path: Path) -> None:
    exported = tmp_path / "game.json"
    run("export", str(db), "--game", "sim-p3-heuristic-5000015", "--output", str(exported))
    data = json.loads(exported.read_text())
    data["game_id"] = None
    exported.write_text(json.dumps(data))
    code, out, _ = run("import", str(exported), "--db", str(tmp_path / "new.db"))
    assert code == 0
    [game_id] = game_ids(tmp_path / "new.db")
    assert game_id.startswith("rec-") and out.startswith(f"game {game_id}: ")


def test_a_stored_game_replays_from_its_exported_file_the_same_way(
    db: Path, tmp_path: Path
) -> None:
    exported = tmp_path / "game.json"
    run("export", str(db), "--game", "sim-p3-heuristic-5000017", "--output", str(exported))
    from_file = run("replay", str(exported), "--at", "33")
    from_db = run("replay", str(db), "--game", "sim-p3-heuristic-5000017", "--at", "33")
    assert from_file == from_db


def test_audit_of_an_untouched_store_passes(db: Path) -> None:
    code, out, err = run("audit", str(db))
    assert code == 0
    assert out.startswith("audited 3 game(s)") and out.strip().endswith("all consistent")
    assert err == ""


@pytest.mark.parametrize(
    ("tamper", "expected"),
    [
        (
            'UPDATE actions SET payload = \'{"player":0,"type":"end-step"}\' '
            "WHERE game_id = 'sim-p3-heuristic-5000016' AND seq = 5",
            "game sim-p3-heuristic-5000016: action 5: its hash does not match",
        ),
        (
            "DELETE FROM actions WHERE game_id = 'sim-p3-heuristic-5000016' AND seq = 10",
            "game sim-p3-heuristic-5000016: action 10: missing: "
            "the next stored action is number 11",
        ),
        (
            "UPDATE actions SET seq = -1 WHERE game_id = 'sim-p3-heuristic-5000016' AND seq = 20; "
            "UPDATE actions SET seq = 20 WHERE game_id = 'sim-p3-heuristic-5000016' AND seq = 21; "
            "UPDATE actions SET seq = 21 WHERE game_id = 'sim-p3-heuristic-5000016' AND seq = -1",
            "game sim-p3-heuristic-5000016: action 20: its hash does not match",
        ),
        (
            "UPDATE games SET result = replace(result, '\"winners\":[', '\"winners\":[2,') "
            "WHERE id = 'sim-p3-heuristic-5000016'",
            "game sim-p3-heuristic-5000016: the stored result (scores",
        ),
        (
            "DELETE FROM actions WHERE game_id = 'sim-p3-heuristic-5000016' "
            "AND seq = (SELECT MAX(seq) FROM actions WHERE game_id = 'sim-p3-heuristic-5000016')",
            "game sim-p3-heuristic-5000016: action ",
        ),
    ],
    ids=["changed-payload", "deleted-action", "reordered-actions", "changed-result", "cut-end"],
)
def test_audit_finds_each_kind_of_tampering(db: Path, tamper: str, expected: str) -> None:
    sql(db, *tamper.split("; "))
    code, out, _ = run("audit", str(db))
    assert code == 1
    lines = out.strip().splitlines()
    assert len(lines) == 2, out
    assert lines[0].startswith(expected)
    assert lines[1].startswith("audited 3 game(s)") and lines[1].endswith("1 inconsistent")


def test_audit_of_one_game_checks_only_that_game(db: Path) -> None:
    sql(db, "DELETE FROM actions WHERE game_id = 'sim-p3-heuristic-5000016' AND seq = 10")
    assert run("audit", str(db), "--game", "sim-p3-heuristic-5000015")[0] == 0
    code, out, _ = run("audit", str(db), "--game", "sim-p3-heuristic-5000016")
    assert code == 1 and out.startswith("game sim-p3-heuristic-5000016: action 10: missing")


def test_audit_in_several_processes_finds_the_same(db: Path) -> None:
    sql(db, "DELETE FROM actions WHERE game_id = 'sim-p3-heuristic-5000017' AND seq = 3")
    code, out, _ = run("audit", str(db), "--jobs", "2")
    assert code == 1
    assert out.startswith("game sim-p3-heuristic-5000017: action 3: missing")


def test_export_refuses_a_tampered_game_and_writes_nothing(db: Path, tmp_path: Path) -> None:
    sql(db, "DELETE FROM actions WHERE game_id = 'sim-p3-heuristic-5000016' AND seq = 10")
    output = tmp_path / "out.json"
    code, _, err = run(
        "export", str(db), "--game", "sim-p3-heuristic-5000016", "--output", str(output)
    )
    assert code == 1
    assert err.startswith(f"error: {db}: game sim-p3-heuristic-5000016: action 10: missing")
    assert not output.exists()


def test_import_refuses_an_illegal_record_and_changes_nothing(db: Path, tmp_path: Path) -> None:
    exported = tmp_path / "game.json"
    run("export", str(db), "--game", "sim-p3-heuristic-5000015", "--output", str(exported))
    data = json.loads(exported.read_text())
    data["game_id"] = "forged"
    data["actions"][12] = {"type": "buy-field", "player": 1}
    data.pop("result")
    exported.write_text(json.dumps(data))
    before = db.read_bytes()
    code, _, err = run("import", str(exported), "--db", str(db))
    assert code == 1
    assert err.strip().startswith(f"error: {exported}: action 12: illegal buy-field by seat 1")
    assert err.strip().endswith("nothing imported")
    assert db.read_bytes() == before
    assert "forged" not in game_ids(db)


def test_import_refuses_a_record_with_a_false_result(db: Path, tmp_path: Path) -> None:
    exported = tmp_path / "game.json"
    run("export", str(db), "--game", "sim-p3-heuristic-5000015", "--output", str(exported))
    data = json.loads(exported.read_text())
    data["result"]["scores"][0] += 5
    exported.write_text(json.dumps(data))
    code, _, err = run("import", str(exported), "--db", str(tmp_path / "new.db"))
    assert code == 1 and "the stated result differs from the replayed one" in err
    assert not (tmp_path / "new.db").exists()


def test_import_refuses_a_game_already_stored(db: Path, tmp_path: Path) -> None:
    exported = tmp_path / "game.json"
    run("export", str(db), "--game", "sim-p3-heuristic-5000015", "--output", str(exported))
    code, _, err = run("import", str(exported), "--db", str(db))
    assert code == 1
    assert err.strip() == (
        f"error: {db}: a game with id 'sim-p3-heuristic-5000015' is already stored; "
        "nothing imported"
    )


# --- bad input -----------------------------------------------------------------------------


def assert_one_line_error(code: int, out: str, err: str, text: str) -> None:
    assert code != 0
    assert "Traceback" not in out + err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("error: ") and text in err


@pytest.mark.parametrize(
    "command",
    [
        ["replay", "{db}"],
        ["replay", "{db}", "--game", "sim-p3-heuristic-5000015"],
        ["audit", "{db}"],
        ["export", "{db}", "--game", "sim-p3-heuristic-5000015", "--output", "{out}"],
    ],
    ids=["replay", "replay-game", "audit", "export"],
)
@pytest.mark.parametrize(
    ("make_target", "message"),
    [
        ("missing", "no such file"),
        ("not-a-database", "not a database"),
        ("other-sqlite", "not a bohnanza game store"),
        ("newer-schema", "is newer than this bohnanza knows"),
    ],
)
def test_reading_commands_refuse_bad_stores_in_one_line_writing_nothing(
    db: Path, tmp_path: Path, command: list[str], make_target: str, message: str
) -> None:
    target = tmp_path / "target.db"
    if make_target == "not-a-database":
        target.write_text("these are not the beans you are looking for\n")
    elif make_target == "other-sqlite":
        sql(target, "CREATE TABLE recipes (name TEXT)")
    elif make_target == "newer-schema":
        shutil.copy(db, target)
        sql(target, "UPDATE alembic_version SET version_num = '0099'")
    before = target.read_bytes() if target.exists() else None
    out_file = tmp_path / "out.json"
    args = [a.format(db=target, out=out_file) for a in command]
    assert_one_line_error(*run(*args), message)
    assert (target.read_bytes() if target.exists() else None) == before
    assert not out_file.exists()


@pytest.mark.parametrize(
    "command",
    [
        ["replay", "{db}", "--game", "nope"],
        ["audit", "{db}", "--game", "nope"],
        ["export", "{db}", "--game", "nope", "--output", "{out}"],
    ],
    ids=["replay", "audit", "export"],
)
def test_an_unknown_game_id_is_one_line(db: Path, tmp_path: Path, command: list[str]) -> None:
    out_file = tmp_path / "out.json"
    args = [a.format(db=db, out=out_file) for a in command]
    assert_one_line_error(*run(*args), "no game with id 'nope'")
    assert not out_file.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        (b"\x00\xff", "not a text file"),
        (b'{"format": "bohnanza-game-record"', "not valid JSON"),
        (b'{"format": "bohnanza-game-record", "version": 9}', "unsupported record version 9"),
        (b'{"format": "chess-pgn"}', "not a game record"),
    ],
    ids=["missing", "binary", "truncated", "future-version", "other-format"],
)
def test_import_refuses_a_bad_record_file_creating_nothing(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    source = tmp_path / "game.json"
    if content is not None:
        source.write_bytes(content)
    target = tmp_path / "new.db"
    assert_one_line_error(*run("import", str(source), "--db", str(target)), message)
    assert not target.exists()


def test_a_corrupt_stored_action_is_one_line_for_replay(db: Path) -> None:
    sql(
        db,
        "UPDATE actions SET payload = 'garbage' "
        "WHERE game_id = 'sim-p3-heuristic-5000015' AND seq = 4",
    )
    assert_one_line_error(
        *run("replay", str(db), "--game", "sim-p3-heuristic-5000015"),
        "action 4: the stored action is not",
    )
    code, out, _ = run("audit", str(db))
    assert code == 1 and out.startswith(
        "game sim-p3-heuristic-5000015: action 4: its hash does not match"
    )


def test_an_unreachable_database_server_is_one_line() -> None:
    url = "postgresql+psycopg://bean:secret@127.0.0.1:1/none?connect_timeout=2"
    code, out, err = run("replay", url)
    assert_one_line_error(code, out, err, "cannot connect")
    assert "secret" not in err
