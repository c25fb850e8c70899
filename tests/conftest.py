"""Shared test settings: property tests run a modest, fixed number of examples; an `async
def` test runs in a fresh event loop of its own (the Matrix and IRC clients live and die in
it); compiled modules older than a source under core/ are set aside, as `bohnanza` does."""

from __future__ import annotations

import asyncio
import inspect

import pytest
from hypothesis import HealthCheck, settings

from bohnanza.cli.start import run_sources_if_stale

# Compiled modules built from other sources than those under core/ now are not what is tested.
run_sources_if_stale()

settings.register_profile(
    "default",
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests in a fresh event loop."""
    test = pyfuncitem.obj
    if not inspect.iscoroutinefunction(test):
        return None
    names = inspect.signature(test).parameters
    asyncio.run(test(**{name: pyfuncitem.funcargs[name] for name in names}))
    return True
