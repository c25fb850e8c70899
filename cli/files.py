"""Files the CLI reads and writes: bounded reads, and writes that are whole or not at all.

Every failure ends the command with one line on stderr (`fail`), naming the file.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from pathlib import Path

from .errors import fail

STDIN = "-"
"""The file name that means standard input."""


def shown(path: Path | str) -> str:
    """A file name fit for a one-line message: controls and undecodable bytes escaped."""
    text = os.fsdecode(path)
    return "".join(ch if ch.isprintable() else _escaped(ch) for ch in text)


def _escaped(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"  # a byte that was not UTF-8 (surrogateescape)
    return char.encode("unicode_escape").decode("ascii")


def read_bounded(path: Path, limit: int) -> bytes:
    """At most `limit` bytes from a file, a pipe, a device or standard input ('-');
    a longer source is refused after reading `limit` + 1 bytes, never read whole."""
    try:
        if str(path) == STDIN:
            return _bounded(sys.stdin.buffer.read(limit + 1), path, limit)
        with path.open("rb") as file:
            return _bounded(file.read(limit + 1), path, limit)
    except FileNotFoundError:
        fail(f"{shown(path)}: no such file")
    except IsADirectoryError:
        fail(f"{shown(path)}: is a directory, not a file")
    except OSError as error:
        fail(f"{shown(path)}: {error.strerror or error}")


def _bounded(data: bytes, path: Path, limit: int) -> bytes:
    if len(data) > limit:
        fail(f"{shown(path)}: larger than {limit // (1024 * 1024)} MB; refused")
    return data


def check_target(path: Path, force: bool) -> None:
    """Refuse, in one line, a target that write_atomically would refuse."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        _check_folder(path)
        return
    except OSError as error:
        fail(f"{shown(path)}: {error.strerror}")
    if not stat.S_ISREG(mode):
        fail(f"{shown(path)}: is {_kind(mode)}, not a regular file; not overwritten")
    if not force:
        fail(f"{shown(path)}: already exists; add --force to overwrite it")


def _check_folder(path: Path) -> None:
    folder = _folder(path)
    if not folder.is_dir():
        fail(f"{shown(path)}: no such folder {shown(folder)}")


def _folder(path: Path) -> Path:
    return path.parent if path.parent.parts else Path(".")


def _kind(mode: int) -> str:
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def write_atomically(path: Path, text: str, force: bool = False) -> None:
    """Write `text` (UTF-8) to `path` whole or not at all.

    A temporary file beside the target is written, flushed and synced, then renamed over it; on
    any failure it is removed and the target is untouched. An existing target is refused unless
    `force`; one that is not a regular file (a directory, a symbolic link, a device, a FIFO) is
    refused even then.
    """
    check_target(path, force)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        fail(f"{shown(path)}: the text is not valid Unicode; nothing written")
    temporary = _temporary_beside(path)
    try:
        _write_synced(temporary, data, _mode_for(path))
        _place(temporary, path, force)
    except OSError as error:
        fail(f"{shown(path)}: {error.strerror or error}; nothing written")
    finally:
        temporary.unlink(missing_ok=True)
    _sync_folder(_folder(path))


def _temporary_beside(path: Path) -> Path:
    try:
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=_folder(path))
    except OSError as error:
        fail(f"{shown(path)}: {error.strerror or error}; nothing written")
    os.close(handle)
    return Path(name)


def _write_synced(temporary: Path, data: bytes, mode: int) -> None:
    descriptor = os.open(temporary, os.O_WRONLY | os.O_TRUNC)
    try:
        os.fchmod(descriptor, mode)
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view) :]
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _mode_for(path: Path) -> int:
    """The permissions the target has, or those a new file gets (the umask applied)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


def _place(temporary: Path, path: Path, force: bool) -> None:
    """Rename the written file onto the target; without `force`, never over an existing one."""
    if force:
        os.replace(temporary, path)
        return
    try:
        os.link(temporary, path)  # fails if the target appeared meanwhile
    except FileExistsError:
        fail(f"{shown(path)}: already exists; add --force to overwrite it")
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK):
            raise
        os.replace(temporary, path)  # a file system without hard links


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable; a folder that cannot be synced is no error."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
