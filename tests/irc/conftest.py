"""A test IRC network for the session (InspIRCd and Anope), its bot account, and async tests
run by asyncio."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Generator, Iterator
from dataclasses import dataclass

import pytest

from .ircd import IrcdUnavailable, Network, require_ircd, running_network
from .people import register_account

BOT_PASSWORD = "bean-counter-7"
_nicks = itertools.count(1)


@dataclass(frozen=True)
class BotAccount:
    """The bot's SASL account on the test network."""

    name: str
    password: str


@pytest.fixture(scope="session")
def network(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Network]:
    """One network for the session; skips every IRC test if InspIRCd or Anope is missing."""
    try:
        require_ircd()
    except IrcdUnavailable as missing:
        pytest.skip(str(missing))
    with running_network(tmp_path_factory.mktemp("ircd")) as running:
        yield running


@pytest.fixture(scope="session")
def bot_account(network: Network) -> BotAccount:
    account = BotAccount("beanbot", BOT_PASSWORD)
    asyncio.run(register_account(network.host, network.port, account.name, account.password))
    return account


def unique(name: str) -> str:
    """A nick (or channel name) no other test uses: ann7."""
    return f"{name}{next(_nicks)}"


def bot_env(network: Network, account: BotAccount, channel: str, **more: str) -> dict[str, str]:
    """The bot's settings: TLS trusting the test CA, SASL, one channel, a fast pace."""
    env = {
        "BOHNANZA_IRC_SERVER": "127.0.0.1",
        "BOHNANZA_IRC_PORT": str(network.tls_port),
        "BOHNANZA_IRC_TLS_CA": str(network.ca_file),
        "BOHNANZA_IRC_NICK": account.name,
        "BOHNANZA_IRC_SASL_USER": account.name,
        "BOHNANZA_IRC_SASL_PASSWORD": account.password,
        "BOHNANZA_IRC_CHANNELS": channel,
        "BOHNANZA_IRC_PACE": "0.025",
    }
    env.update({f"BOHNANZA_IRC_{k.upper()}": v for k, v in more.items()})
    return env


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Attach the end of the servers' logs to every failed test that used the network."""
    report = yield
    running = getattr(item, "funcargs", {}).get("network")
    if report.failed and isinstance(running, Network):
        report.sections.append(("ircd log", running.log_tail()))
    return report
