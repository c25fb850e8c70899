"""The boards' speed and weight: `bohnanza serve web` (one process) with many pages open.

    python bench/web.py [--tables 25] [--people 4] [--inputs 400] [--concurrency 1]

Starts `bohnanza serve web` on a fresh database and 127.0.0.1, opens `--tables` web tables of
`--people` people each (their browsers named, the tables gathered and started from their lobby
pages), opens every person's board (a page following its stream: tables times people pages), then
makes `--inputs` moves, each the move a person's board offers (the first listed, an offer
answered, `No trade` while others trade), at `--concurrency` tables at once. For each move it
times how long after the POST left each other page of its table received its new state, and
prints p50/p99/max of those times; and the weight of a board page (bytes, and gzipped).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)

from tests.web.players import choice  # noqa: E402
from tests.web.serving import Browser, Page, free_port, web_env  # noqa: E402

BOHNANZA = Path(sys.executable).with_name("bohnanza")
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gil")
WAIT = 5.0
"""Seconds a page is waited for after a move; one that gets nothing new is counted apart."""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Table:
    """One table's people, their pages, and the times each page received a state."""

    def __init__(self, browsers: list[Browser], room: str) -> None:
        self.browsers = browsers
        self.room = room
        self.pages: list[Page] = []

    @property
    def arrivals(self) -> list[list[float]]:
        """When each page received each of its states."""
        return [page.times for page in self.pages]

    @property
    def where(self) -> dict[str, str]:
        return {"t": self.room}


async def gathered(url: str, people: int) -> Table:
    browsers = [Browser(url) for _ in range(people)]
    for browser, name in zip(browsers, NAMES, strict=False):
        await browser.name(name)
    room = await browsers[0].new_table()
    table = Table(browsers, room)
    for browser in browsers[1:]:
        await browser.send(table.where, "join", button=False)
    await browsers[0].send(table.where, "set deadline off", button=False)
    await browsers[0].send(table.where, "start", button=False)
    for browser in browsers:
        table.pages.append(await browser.open(table.where))
    return table


async def move_once(
    table: Table, rng: random.Random, times: list[float], missed: list[int]
) -> bool:
    """One person of the table makes the move his board offers; False when the game is over."""
    for seat, page in enumerate(table.pages):
        state = page.state
        if "result" in state:
            return False
        chosen = choice(state, rng)
        if chosen is None:
            continue
        others = [k for k in range(len(table.pages)) if k != seat]
        seen = {k: len(table.arrivals[k]) for k in others}
        sent = time.monotonic()
        mine = len(table.arrivals[seat])
        status, _ = await table.browsers[seat].send(table.where, chosen[0])
        assert status == 200
        ends = time.monotonic() + WAIT
        while time.monotonic() < ends and (
            len(table.arrivals[seat]) == mine
            or any(len(table.arrivals[k]) == seen[k] for k in others)
        ):
            await asyncio.sleep(0.002)
        for k in others:
            if len(table.arrivals[k]) > seen[k]:
                times.append(table.arrivals[k][seen[k]] - sent)
            else:
                missed[0] += 1
        return True
    await asyncio.sleep(0.01)  # nobody's move: a bot's trading window, or the stream behind
    return True


async def bench(url: str, tables: int, people: int, inputs: int, concurrency: int) -> None:
    started = time.perf_counter()
    gathered_tables = [await gathered(url, people) for _ in range(tables)]
    pages = sum(len(t.pages) for t in gathered_tables)
    took = time.perf_counter() - started
    print(f"{tables} tables of {people} people: {pages} pages open ({took:.1f} s to gather)")
    rng = random.Random(1)
    times: list[float] = []
    missed = [0]
    made = 0
    playing = list(gathered_tables)

    async def player(lane: int) -> None:
        nonlocal made
        while made < inputs and playing:
            table = playing[rng.randrange(len(playing))]
            before = len(times) + missed[0]
            if not await move_once(table, rng, times, missed):
                if table in playing:
                    playing.remove(table)
            elif len(times) + missed[0] > before:
                made += 1

    began = time.perf_counter()
    await asyncio.gather(*(player(lane) for lane in range(concurrency)))
    elapsed = time.perf_counter() - began
    print(
        f"{made} moves at {concurrency} table(s) at once, {made / elapsed:.0f} a second: "
        f"move → another page's new state p50 {percentile(times, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(times, 0.99) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms "
        f"({len(times)} page updates, {missed[0]} pages unchanged)"
    )
    for table in gathered_tables:
        for browser in table.browsers:
            await browser.close()


async def page_weight(url: str) -> None:
    browser = Browser(url)
    await browser.name("Ann")
    room = await browser.new_table()
    async with browser.http.get(f"{url}/t/{room}") as response:
        page = await response.read()
    await browser.close()
    print(
        f"a board page: {len(page) / 1024:.1f} KB ({len(gzip.compress(page)) / 1024:.1f} KB "
        "gzipped), everything in it: no other request but its stream"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--people", type=int, default=4)
    parser.add_argument("--inputs", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=1)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        clean = {k: v for k, v in os.environ.items() if not k.startswith("BOHNANZA_")}
        env = (
            clean
            | web_env(port)
            | {
                "BOHNANZA_DB": str(Path(folder) / "bench.db"),
                "BOHNANZA_LOG_LEVEL": "WARNING",
            }
        )
        log = (Path(folder) / "serve.log").open("wb")
        server = subprocess.Popen(
            [str(BOHNANZA), "serve", "web"], env=env, stdout=log, stderr=subprocess.STDOUT
        )
        url = f"http://127.0.0.1:{port}"
        try:
            asyncio.run(ready(url))
            asyncio.run(page_weight(url))
            asyncio.run(bench(url, args.tables, args.people, args.inputs, args.concurrency))
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(30)


async def ready(url: str) -> None:
    for _ in range(300):
        try:
            port = int(url.rsplit(":", 1)[1])
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            await asyncio.sleep(0.1)
    raise SystemExit("bohnanza serve web did not start")


if __name__ == "__main__":
    main()
