"""Files the CLI writes (`export --output`, `play --record`, `simulate --out`) are written whole or
not at all, never over something they should not replace, and a failure is one line on stderr."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bohnanza.cli.app import build_app
from bohnanza.core.record import GameRecord

GAME = "sim-p2-heuristic-3000009"
OLD = b'{"an": "older file"}\n'


def run(*args: str, typed: str = "") -> tuple[int, str, str]:
    result = CliRunner().invoke(build_app(), list(args), input=typed)
    return result.exit_code, result.stdout, result.stderr


def assert_one_line_error(code: int, err: str, text: str) -> None:
    assert code == 1
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("error: ") and text in err, err


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("store") / "games.db"
    code, out, err = run(
        "simulate", "--players", "2", "--games", "1", "--seed", "3", "--db", str(path)
    )
    assert code == 0, out + err
    return path


def export(store: Path, output: Path, *more: str) -> tuple[int, str, str]:
    return run("export", str(store), "--game", GAME, "--output", str(output), *more)


def play_record(home: Path, record: Path, *more: str) -> tuple[int, str, str]:
    """A duel in the terminal, left at once; its record is written on the way out."""
    db = str(home / "games.db")
    return run("play", "--players", "2", "--seed", "1", "--db", db, "--record", str(record), *more,
               typed="quit\n")  # fmt: skip


def simulate_into(folder: Path, *more: str) -> tuple[int, str, str]:
    return run("simulate", "--players", "2", "--games", "2", "--seed", "3", "--out", str(folder),
               *more)  # fmt: skip


def leftovers(folder: Path, *expected: str) -> list[str]:
    """The files in `folder` other than the expected ones (a temporary file would show here)."""
    return sorted(p.name for p in folder.iterdir() if p.name not in expected)


# --- an existing target --------------------------------------------------------------------


def test_export_refuses_to_overwrite_a_file_without_force(store: Path, tmp_path: Path) -> None:
    output = tmp_path / "game.json"
    output.write_bytes(OLD)
    code, _, err = export(store, output)
    assert_one_line_error(code, err, f"{output}: already exists; add --force to overwrite it")
    assert output.read_bytes() == OLD
    assert leftovers(tmp_path, "game.json") == []


def test_export_with_force_replaces_the_file_and_keeps_its_permissions(
    store: Path, tmp_path: Path
) -> None:
    output = tmp_path / "game.json"
    output.write_bytes(OLD)
    output.chmod(0o640)
    code, out, err = export(store, output, "--force")
    assert code == 0, err
    assert out == f"game {GAME}: 195 action(s) → {output}\n"
    assert GameRecord.loads(output.read_text()).game_id == GAME
    assert output.stat().st_mode & 0o777 == 0o640
    assert leftovers(tmp_path, "game.json") == []


def test_a_new_file_gets_the_usual_permissions(store: Path, tmp_path: Path) -> None:
    output = tmp_path / "game.json"
    umask = os.umask(0o027)
    try:
        assert export(store, output)[0] == 0
    finally:
        os.umask(umask)
    assert output.stat().st_mode & 0o777 == 0o640


def make_symlink(path: Path) -> str:
    target = path.with_name("elsewhere.json")
    target.write_bytes(OLD)
    path.symlink_to(target)
    return "a symbolic link"


def make_fifo(path: Path) -> str:
    os.mkfifo(path)
    return "a FIFO"


def make_directory(path: Path) -> str:
    path.mkdir()
    return "a directory"


@pytest.mark.parametrize("make", [make_symlink, make_fifo, make_directory])
def test_export_never_replaces_what_is_not_a_regular_file_even_with_force(
    store: Path, tmp_path: Path, make: Callable[[Path], str]
) -> None:
    output = tmp_path / "game.json"
    kind = make(output)
    before = os.lstat(output)
    code, _, err = export(store, output, "--force")
    assert_one_line_error(code, err, f"{output}: is {kind}, not a regular file; not overwritten")
    after = os.lstat(output)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert leftovers(tmp_path, "game.json", "elsewhere.json") == []
    if kind == "a symbolic link":
        assert output.resolve().read_bytes() == OLD


def test_export_never_replaces_a_device(store: Path) -> None:
    code, _, err = export(store, Path("/dev/null"), "--force")
    assert_one_line_error(code, err, "/dev/null: is a character device, not a regular file")
    assert Path("/dev/null").is_char_device()


def test_export_into_a_missing_folder_is_one_line(store: Path, tmp_path: Path) -> None:
    output = tmp_path / "nowhere" / "game.json"
    code, _, err = export(store, output)
    assert_one_line_error(code, err, f"{output}: no such folder {output.parent}")


def test_play_refuses_an_existing_record_file_before_the_game_starts(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_bytes(OLD)
    code, out, err = play_record(tmp_path, record)
    assert_one_line_error(code, err, f"{record}: already exists; add --force to overwrite it")
    assert out == ""
    assert record.read_bytes() == OLD
    assert not (tmp_path / "games.db").exists()


def test_play_with_force_replaces_the_record_file(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_bytes(OLD)
    code, out, err = play_record(tmp_path, record, "--force")
    assert code == 0, err
    assert f"record written to {record}" in out
    assert len(GameRecord.loads(record.read_text()).seats) == 2


def test_simulate_refuses_to_overwrite_records_before_playing_a_game(tmp_path: Path) -> None:
    assert simulate_into(tmp_path)[0] == 0
    written = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    first = min(written)
    (tmp_path / first).write_bytes(OLD)
    code, _, err = simulate_into(tmp_path)
    assert_one_line_error(code, err, f"{tmp_path / first}: already exists; add --force")
    assert (tmp_path / first).read_bytes() == OLD

    assert simulate_into(tmp_path, "--force")[0] == 0
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == written


# --- a full disk, made in-process: the writes fail with ENOSPC ----------------------------


def no_space(*_: object) -> int:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def half_then_no_space() -> Callable[[int, bytes], int]:
    """An os.write that gets half of the first buffer onto the disk, then finds it full."""
    real = os.write
    calls = []

    def write(descriptor: int, data: bytes) -> int:
        calls.append(len(data))
        if len(calls) == 1:
            return real(descriptor, bytes(data[: len(data) // 2]))
        return no_space()

    return write


@pytest.fixture(params=["write", "fsync"])
def full_disk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, writing a file fails for lack of space, mid-write or when syncing."""
    if request.param == "write":
        monkeypatch.setattr(os, "write", half_then_no_space())
    else:
        monkeypatch.setattr(os, "fsync", no_space)


NO_SPACE = "No space left on device; nothing written"


@pytest.mark.usefixtures("full_disk")
def test_export_on_a_full_disk_leaves_the_old_file_and_no_temporary(
    store: Path, tmp_path: Path
) -> None:
    output = tmp_path / "game.json"
    output.write_bytes(OLD)
    code, _, err = export(store, output, "--force")
    assert_one_line_error(code, err, f"{output}: {NO_SPACE}")
    assert output.read_bytes() == OLD
    assert leftovers(tmp_path, "game.json") == []


@pytest.mark.usefixtures("full_disk")
def test_export_on_a_full_disk_creates_no_file(store: Path, tmp_path: Path) -> None:
    code, _, err = export(store, tmp_path / "game.json")
    assert_one_line_error(code, err, NO_SPACE)
    assert leftovers(tmp_path) == []


def test_play_on_a_full_disk_writes_no_partial_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    monkeypatch.setattr(os, "fsync", no_space)
    code, _, err = play_record(tmp_path, folder / "game.json")
    assert_one_line_error(code, err, f"{folder / 'game.json'}: {NO_SPACE}")
    assert leftovers(folder) == []


@pytest.mark.usefixtures("full_disk")
def test_simulate_on_a_full_disk_writes_no_partial_record(tmp_path: Path) -> None:
    code, _, err = simulate_into(tmp_path)
    assert_one_line_error(code, err, NO_SPACE)
    assert leftovers(tmp_path) == []


# --- a real full disk: a small tmpfs (needs root and permission to mount) -------------------


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KB tmpfs, filled to the last byte."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root and the mount command")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"this sandbox does not permit mounting a tmpfs: {mounted.stderr!r}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill_disk(folder: Path, keep: Path) -> None:
    """Write `keep`, then fill the rest of the disk so that not one more block fits."""
    keep.write_bytes(OLD)
    descriptor = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(descriptor, b"\0" * 1024)
    except OSError as error:
        assert error.errno == errno.ENOSPC
    finally:
        os.close(descriptor)


def test_export_onto_a_really_full_disk_leaves_the_old_file(store: Path, tiny_disk: Path) -> None:
    output = tiny_disk / "game.json"
    fill_disk(tiny_disk, output)
    code, _, err = export(store, output, "--force")
    assert_one_line_error(code, err, f"{output}: {NO_SPACE}")
    assert output.read_bytes() == OLD
    assert leftovers(tiny_disk, "game.json", "filler") == []


def test_simulate_onto_a_really_full_disk_leaves_no_partial_record(tiny_disk: Path) -> None:
    fill_disk(tiny_disk, tiny_disk / "kept.json")
    code, _, err = simulate_into(tiny_disk)
    assert_one_line_error(code, err, NO_SPACE)
    assert leftovers(tiny_disk, "kept.json", "filler") == []


def test_play_onto_a_really_full_disk_leaves_no_partial_record(
    tmp_path: Path, tiny_disk: Path
) -> None:
    fill_disk(tiny_disk, tiny_disk / "kept.json")
    record = tiny_disk / "game.json"
    code, _, err = play_record(tmp_path, record)
    assert_one_line_error(code, err, f"{record}: {NO_SPACE}")
    assert leftovers(tiny_disk, "kept.json", "filler") == []
