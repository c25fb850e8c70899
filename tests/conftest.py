"""Shared test settings: property tests run a modest, fixed number of examples (in CI, the same
examples every run); an `async def` test runs in a fresh event loop of its own (the Matrix and
IRC clients live and die in it); compiled modules older than a source under core/ are set aside,
as `bohnanza` does; a test that needs a server (PostgreSQL, Synapse, the IRC network, Chromium,
a `bohnanza serve` process) is marked `server`, and one that takes seconds (whole games, many
processes) `slow`, so that `make check` can leave both to `make test`; the slow ones are handed
out first, so that the parallel workers finish together."""

from __future__ import annotations

import asyncio
import gc
import inspect
import os

import pytest
from hypothesis import HealthCheck, settings

from bohnanza.cli.start import run_sources_if_stale

# The tests play thousands of games, each making millions of short-lived objects: the collector
# of reference cycles runs a seventieth as often as by default (a tenth less processor time for a
# whole game; the cycles are collected all the same).
gc.set_threshold(50_000, 20, 20)

# Compiled modules built from other sources than those under core/ now are not what is tested.
run_sources_if_stale()

settings.register_profile(
    "default",
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
# In CI (`CI` set, as .ci/run and hosted CI services do) the same examples every run: a red run
# is a change that broke something, and is replayed as it failed. Elsewhere each run tries new
# examples, and one that fails is kept in .hypothesis and tried first until it passes.
settings.register_profile("ci", settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


SERVER_FIXTURES = frozenset({"synapse", "network", "browser"})
"""Fixtures that start a server: Synapse, the IRC network, Chromium."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "server: needs a server outside the test process (PostgreSQL, Synapse, the IRC "
        "network, Chromium, a `bohnanza serve` process); `make check` leaves these out",
    )
    config.addinivalue_line(
        "markers",
        "slow: takes seconds (whole games, many processes, a type check); `make check` "
        "leaves these out",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark `server` every test that starts a server through a fixture, or runs against
    PostgreSQL (its name or parameters say so); the others are marked in their modules.
    Then order them so that each parallel worker begins with its share of the slow tests: a
    run that begins a long test last waits for it alone."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & SERVER_FIXTURES or "postgres" in item.nodeid.lower():
            item.add_marker(pytest.mark.server)
    items.sort(key=_handed_out)
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    items[:] = [item for share in _shares(items, workers) for item in share]


def _handed_out(item: pytest.Item) -> int:
    """The slow tests first, those over a server before the others; then the tests that need a
    server, then the others."""
    if item.get_closest_marker("slow"):
        return 0 if item.get_closest_marker("server") else 1
    return 2 if item.get_closest_marker("server") else 3


def _shares(items: list[pytest.Item], workers: int) -> list[list[pytest.Item]]:
    """The tests dealt out in order, one to each worker in turn, in shares as large as the ones
    `--dist worksteal` cuts the collection into (the first len // workers tests to the first
    worker, and so on): each worker begins with slow tests, and idle ones take fast tests from
    the end of a busy one's share."""
    sizes = []
    left = len(items)
    for remaining in range(workers, 0, -1):
        sizes.append(left // remaining)
        left -= sizes[-1]
    shares: list[list[pytest.Item]] = [[] for _ in sizes]
    turn = 0
    for item in items:
        while len(shares[turn]) == sizes[turn]:
            turn = (turn + 1) % workers
        shares[turn].append(item)
        turn = (turn + 1) % workers
    return shares


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests in a fresh event loop."""
    test = pyfuncitem.obj
    if not inspect.iscoroutinefunction(test):
        return None
    names = inspect.signature(test).parameters
    asyncio.run(test(**{name: pyfuncitem.funcargs[name] for name in names}))
    return True
