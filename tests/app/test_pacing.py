"""Messages fit a platform's limits without being cut, and lines go out at the connection's
pace, the most urgent first."""

from __future__ import annotations

import asyncio
from pathlib import Path
from tempfile import TemporaryDirectory

from bohnanza.adapters.pacing import (
    ANSWER,
    TABLE,
    VIEW,
    LineBudget,
    lines_per_message,
    split_message,
    wrap_line,
)
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Button, Message, Reply, ToRoom
from bohnanza.core.app.ports import Capabilities

from .recording import Table

IRC_LIKE = Capabilities(line_bytes=20, max_lines=3, max_text=4000)


def test_a_long_line_is_wrapped_between_words_within_its_bytes() -> None:
    line = "Ann: Chili x3 · Soy x1 · Wax x2 — 7 cards in hand"
    pieces = wrap_line(line, 20, 4000)
    assert " ".join(pieces) == line
    assert all(len(piece.encode()) <= 20 for piece in pieces)


def test_a_word_longer_than_a_line_is_cut_at_characters_never_inside_one() -> None:
    word = "ж" * 25  # two bytes each
    pieces = wrap_line(word, 11, 4000)
    assert "".join(pieces) == word
    assert [len(p.encode()) for p in pieces] == [10, 10, 10, 10, 10]


def test_a_message_over_the_limits_is_split_between_lines_and_keeps_everything() -> None:
    buttons = ((Button("Yes", "y"),),)
    text = "\n".join(f"line {n} of the table" for n in range(7))
    parts = split_message(Message(text, buttons, alert=True, html="<b>x</b>"), IRC_LIKE)
    lines = [line for part in parts for line in part.text.split("\n")]
    assert " ".join(lines).split() == text.split()
    assert all(len(part.text.split("\n")) <= 3 for part in parts)
    assert all(len(line.encode()) <= 20 for line in lines)
    assert parts[-1].buttons == buttons and parts[-1].alert
    assert not any(p.buttons or p.alert or p.html for p in parts[:-1])


def test_a_message_that_fits_is_sent_as_it_is() -> None:
    message = Message("short\nlines", html="<b>short</b>\nlines")
    assert split_message(message, IRC_LIKE) == [message]


def test_a_long_text_splits_by_characters_where_lines_are_free() -> None:
    text = "\n".join("x" * 30 for _ in range(10))
    parts = split_message(Message(text), Capabilities(max_text=100))
    assert all(len(p.text) <= 100 for p in parts)
    assert "\n".join(p.text for p in parts) == text


def test_on_a_paced_connection_a_message_holds_no_more_lines_than_go_at_once() -> None:
    assert lines_per_message(Capabilities(line_pace=2.0, line_burst=4)) == 4
    assert lines_per_message(Capabilities(line_pace=2.0, line_burst=4, max_lines=2)) == 2
    assert lines_per_message(Capabilities(max_lines=5)) == 5
    assert lines_per_message(Capabilities()) == 0


def test_the_budget_serves_the_most_urgent_first_at_its_pace() -> None:
    order: list[tuple[str, float]] = []

    async def run() -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        budget = LineBudget(pace=0.05, burst=2)

        async def take(name: str, lines: int, priority: int) -> None:
            await budget.take(lines, priority)
            order.append((name, loop.time() - start))

        await take("first", 2, VIEW)  # the burst, at once
        await asyncio.gather(
            take("view", 1, VIEW), take("table", 1, TABLE), take("answer", 1, ANSWER)
        )
        assert budget.lines == 5

    asyncio.run(run())
    assert [name for name, _ in order] == ["first", "answer", "table", "view"]
    assert order[0][1] < 0.04
    # One line per 0.05 s once the burst is spent (the clock's granularity aside).
    assert order[-1][1] >= 0.14


def test_where_lines_cost_a_message_is_packed_into_few_lines_keeping_every_word() -> None:
    caps = Capabilities(compact=True, line_bytes=60)
    text = "Game X\n▶ Your move.\n\nYour hand: Chili · Soy\n1 · Plant Chili in field 1\n" + (
        "2 · " + "very long choice " * 5
    )
    parts = split_message(Message(text, html="<b>x</b>"), caps)
    lines = [line for part in parts for line in part.text.split("\n")]
    assert lines[0] == "Game X // ▶ Your move. // Your hand: Chili · Soy"
    assert all(len(line.encode()) <= 60 for line in lines)
    assert " ".join(lines).replace(" // ", " ").split() == text.split()
    assert all(part.html is None for part in parts)


def test_on_a_paced_connection_only_the_newest_update_of_a_slot_is_sent() -> None:
    caps = Capabilities(line_pace=0.05, line_burst=1)
    with TemporaryDirectory() as folder:
        table = Table.open(Path(folder) / "games.db", caps)

        async def run() -> None:
            runner = table.runner
            await runner.post([ToRoom("g1", Message("first"))])  # spends the burst
            sent = runner.post(
                [ToRoom("g1", Message(f"table v{n}"), slot="table:G") for n in range(1, 5)]
            )
            asker = Inbound("test", "ann", "Ann", "g1", "plant 9")
            answered = runner.post([Reply(asker, "There is no field 9.")])
            await asyncio.gather(sent, answered)

        asyncio.run(run())
        assert table.port.room_texts("g1") == ["first", "table v4"]
        assert table.port.answers_to("ann") == ["There is no field 9."]
