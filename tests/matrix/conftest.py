"""A Synapse homeserver for the session, fresh users per test, and async tests run by asyncio."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest

from .accounts import Account, register_account, unique_localpart
from .synapse import Homeserver, SynapseUnavailable, running_synapse, synapse_python

if importlib.util.find_spec("nio") is None:
    pytest.skip("Matrix tests need matrix-nio: pip install -e '.[test]'", allow_module_level=True)


@pytest.fixture(scope="session")
def synapse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Homeserver]:
    """One homeserver for the whole session; skips every Matrix test if Synapse is missing."""
    try:
        python = synapse_python()
    except SynapseUnavailable as missing:
        pytest.skip(str(missing))
    with running_synapse(tmp_path_factory.mktemp("synapse"), python) as homeserver:
        yield homeserver


@pytest.fixture
def new_account(synapse: Homeserver) -> Callable[[str], Account]:
    """Register a user never seen before: new_account("carol")."""

    def register(name: str) -> Account:
        return register_account(synapse, unique_localpart(name))

    return register


@pytest.fixture
def alice(new_account: Callable[[str], Account]) -> Account:
    return new_account("alice")


@pytest.fixture
def bob(new_account: Callable[[str], Account]) -> Account:
    return new_account("bob")


@pytest.fixture
def crypto_store(tmp_path: Path) -> Callable[[Account], Path]:
    """A key store folder per device, for open_player(store_dir=...); skips without E2E."""
    # matrix-nio turns encryption on exactly when vodozemac is importable.
    if importlib.util.find_spec("vodozemac") is None:
        pytest.skip("end-to-end encryption needs matrix-nio[e2e], which brings vodozemac")

    def folder(account: Account) -> Path:
        return tmp_path / "crypto" / account.user_id / account.device_id

    return folder


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Attach the end of Synapse's log to every failed test that used the homeserver."""
    report = yield
    funcargs = getattr(item, "funcargs", {})
    homeserver = funcargs.get("synapse")
    if report.failed and isinstance(homeserver, Homeserver):
        report.sections.append(("synapse log", homeserver.log_tail()))
    return report
