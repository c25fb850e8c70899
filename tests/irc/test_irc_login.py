"""Connecting: TLS against the test CA, SASL PLAIN with the bot's account, and the settings."""

from __future__ import annotations

import asyncio
import ssl

import pytest

from bohnanza.adapters.irc.client import IrcClient, SaslRefused
from bohnanza.adapters.irc.protocol import Line
from bohnanza.adapters.irc.settings import read_settings
from bohnanza.adapters.kit import SettingsError

from .conftest import BotAccount, bot_env, unique
from .ircd import Network

WAIT = 60.0
"""Seconds to wait for what is to happen before it is taken not to come: far more than it
takes, however loaded the machine (a wait ends as soon as it happens)."""


async def ignore(line: Line) -> None:
    return None


async def connect(env: dict[str, str], stay: bool = False) -> IrcClient:
    """A client connected and registered with these settings (that then quits, unless it is
    to stay connected until the test ends)."""
    client = IrcClient(read_settings(env))
    task = asyncio.create_task(client.run(ignore))
    ready = asyncio.create_task(client.ready.wait())
    await asyncio.wait([task, ready], timeout=WAIT, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        task.result()  # what stopped it
    assert client.ready.is_set(), "the bot did not register in time"
    if not stay:
        task.cancel()
    return client


async def test_tls_with_the_test_ca_and_sasl_log_the_bot_in(
    network: Network, bot_account: BotAccount
) -> None:
    client = await connect(bot_env(network, bot_account, "#" + unique("login")))
    assert client.nick.startswith(bot_account.name)


async def test_a_wrong_password_stops_with_a_clear_error(
    network: Network, bot_account: BotAccount
) -> None:
    env = bot_env(network, bot_account, "#x", sasl_password="not-the-password")
    with pytest.raises(SaslRefused, match="refused the SASL login"):
        await connect(env)


async def test_a_certificate_not_trusted_stops_the_bot(
    network: Network, bot_account: BotAccount
) -> None:
    env = bot_env(network, bot_account, "#x")
    del env["BOHNANZA_IRC_TLS_CA"]
    with pytest.raises(ssl.SSLCertVerificationError):
        await connect(env)


async def test_plain_text_without_an_account_works_too(
    network: Network, bot_account: BotAccount
) -> None:
    env = bot_env(network, bot_account, "#x", tls="0", port=str(network.port), nick=unique("b"))
    del env["BOHNANZA_IRC_SASL_USER"], env["BOHNANZA_IRC_SASL_PASSWORD"]
    client = await connect(env)
    assert client.nick == env["BOHNANZA_IRC_NICK"]


async def test_a_nick_in_use_is_followed_by_another(
    network: Network, bot_account: BotAccount
) -> None:
    env = bot_env(network, bot_account, "#x", tls="0", port=str(network.port), nick=unique("b"))
    del env["BOHNANZA_IRC_SASL_USER"], env["BOHNANZA_IRC_SASL_PASSWORD"]
    first = await connect(env, stay=True)
    second = await connect(env)
    assert second.nick == first.nick + "_"


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({}, "BOHNANZA_IRC_SERVER"),
        ({"BOHNANZA_IRC_PORT": "66x"}, "BOHNANZA_IRC_PORT"),
        ({"BOHNANZA_IRC_TLS": "yes"}, "BOHNANZA_IRC_TLS"),
        ({"BOHNANZA_IRC_NICK": "bean bot"}, "BOHNANZA_IRC_NICK"),
        ({"BOHNANZA_IRC_CHANNELS": "beans"}, "BOHNANZA_IRC_CHANNELS"),
        ({"BOHNANZA_IRC_CHANNELS": "#a\r\nQUIT"}, "BOHNANZA_IRC_CHANNELS"),
        ({"BOHNANZA_IRC_SASL_USER": "bot"}, "BOHNANZA_IRC_SASL_PASSWORD"),
        ({"BOHNANZA_IRC_TLS_CA": "/no/such/ca.pem"}, "BOHNANZA_IRC_TLS_CA"),
        ({"BOHNANZA_IRC_PACE": "fast"}, "BOHNANZA_IRC_PACE"),
    ],
)
def test_wrong_settings_are_named_in_one_line(settings: dict[str, str], named: str) -> None:
    env = {"BOHNANZA_IRC_SERVER": "irc.example.org", **settings}
    if not settings:
        env = {}
    with pytest.raises(SettingsError, match=named) as error:
        read_settings(env)
    assert "\n" not in str(error.value)


def test_the_password_is_never_shown() -> None:
    env = {"BOHNANZA_IRC_SERVER": "irc.example.org", "BOHNANZA_IRC_SASL_USER": "bot"}
    settings = read_settings({**env, "BOHNANZA_IRC_SASL_PASSWORD": "hunter2"})
    assert "hunter2" not in repr(settings) and "hunter2" not in str(settings)
    assert settings["PORT"] == "6697"
