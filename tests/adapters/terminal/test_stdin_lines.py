"""Lines typed into a pipe are read from its descriptor as `input()` would give them."""

from __future__ import annotations

import os
import threading

import pytest

from bohnanza.adapters.terminal.stdin import DescriptorLines


def piped(*chunks: bytes) -> int:
    """The reading end of a pipe that gets `chunks` written one by one, then closed."""
    read, write = os.pipe()

    def feed() -> None:
        for chunk in chunks:
            os.write(write, chunk)
        os.close(write)

    threading.Thread(target=feed, daemon=True).start()
    return read


def test_lines_come_without_their_ends_and_the_last_one_needs_none() -> None:
    lines = DescriptorLines(piped(b"plant 1\r\n", b"done\nha", b"rvest 2"))
    assert [lines(), lines(), lines()] == ["plant 1", "done", "harvest 2"]
    with pytest.raises(EOFError):
        lines()
    with pytest.raises(EOFError):
        lines()


def test_a_character_split_between_reads_and_bytes_that_are_not_utf8() -> None:
    name = "Zoë 🌶️".encode()
    lines = DescriptorLines(piped(name[:3], name[3:] + b"\n", b"\xff\xfe ok\n", b"\n"))
    assert lines() == "Zoë 🌶️"
    assert lines() == "\ufffd\ufffd ok"
    assert lines() == ""
    with pytest.raises(EOFError):
        lines()


def test_an_empty_pipe_is_the_end_at_once() -> None:
    with pytest.raises(EOFError):
        DescriptorLines(piped())()
