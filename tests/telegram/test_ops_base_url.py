"""BOHNANZA_TELEGRAM_BASE_URL is the Bot API server's root: bohnanza appends `/bot` itself, and a
value that already ends in `/bot` means the same server."""

from __future__ import annotations

import pytest

from bohnanza.adapters.telegram import TelegramSettings, build_application

TOKEN = "7000000001:AAtest-token-BohnanzaTestBot"
ROOT = "http://127.0.0.1:8081"


def urls(base_url: str) -> tuple[str, str]:
    bot = build_application(TelegramSettings(token=TOKEN, base_url=base_url)).bot
    return bot.base_url, bot.base_file_url


@pytest.mark.parametrize("given", [ROOT, ROOT + "/"])
def test_the_root_url_gets_bot_and_the_token_appended(given: str) -> None:
    assert urls(given) == (f"{ROOT}/bot{TOKEN}", f"{ROOT}/file/bot{TOKEN}")


@pytest.mark.parametrize("given", [ROOT + "/bot", ROOT + "/bot/"])
def test_a_value_ending_in_bot_means_the_same_server(given: str) -> None:
    assert urls(given) == (f"{ROOT}/bot{TOKEN}", f"{ROOT}/file/bot{TOKEN}")
