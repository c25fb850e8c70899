"""The Telegram settings read by the kit's rules: a wrong or missing one is one line naming it,
and the token never shows in a repr."""

from __future__ import annotations

import pytest

from bohnanza.adapters.kit import SettingsError
from bohnanza.adapters.telegram import TelegramSettings

TOKEN = "123456:ABC-def_ghi"


def test_the_defaults_are_polling_on_the_public_server() -> None:
    settings = TelegramSettings.from_env({"BOHNANZA_TELEGRAM_TOKEN": f" {TOKEN}\n"})
    assert settings == TelegramSettings(token=TOKEN)
    assert TOKEN not in repr(settings)


def test_a_webhook_is_read_with_its_address_and_secret() -> None:
    settings = TelegramSettings.from_env(
        {
            "BOHNANZA_TELEGRAM_TOKEN": TOKEN,
            "BOHNANZA_TELEGRAM_MODE": "webhook",
            "BOHNANZA_TELEGRAM_WEBHOOK_URL": "https://beans.example.org/hook",
            "BOHNANZA_TELEGRAM_WEBHOOK_SECRET": "beans-are-secret_42",
            "BOHNANZA_TELEGRAM_LISTEN": "0.0.0.0",
            "BOHNANZA_TELEGRAM_PORT": "8088",
            "BOHNANZA_TELEGRAM_BASE_URL": "http://127.0.0.1:8081",
        }
    )
    assert (settings.mode, settings.webhook_url, settings.webhook_secret) == (
        "webhook",
        "https://beans.example.org/hook",
        "beans-are-secret_42",
    )
    assert (settings.listen, settings.port, settings.base_url) == (
        "0.0.0.0",
        8088,
        "http://127.0.0.1:8081",
    )


@pytest.mark.parametrize(
    ("wrong", "said"),
    [
        ({"BOHNANZA_TELEGRAM_TOKEN": ""}, "set BOHNANZA_TELEGRAM_TOKEN"),
        (
            {"BOHNANZA_TELEGRAM_TOKEN": "not a token"},
            "BOHNANZA_TELEGRAM_TOKEN is not a bot token (like 123456:ABC-DEF1234ghIkl)",
        ),
        ({"BOHNANZA_TELEGRAM_MODE": "push"}, "BOHNANZA_TELEGRAM_MODE must be polling or webhook"),
        (
            {"BOHNANZA_TELEGRAM_MODE": "webhook"},
            "webhook mode needs BOHNANZA_TELEGRAM_WEBHOOK_URL",
        ),
        (
            {"BOHNANZA_TELEGRAM_WEBHOOK_URL": "beans.example.org/hook"},
            "BOHNANZA_TELEGRAM_WEBHOOK_URL must be an http(s) URL",
        ),
        (
            {"BOHNANZA_TELEGRAM_WEBHOOK_SECRET": "beans are secret"},
            "BOHNANZA_TELEGRAM_WEBHOOK_SECRET may hold only letters, digits, _ and - (at most 256)",
        ),
        ({"BOHNANZA_TELEGRAM_PORT": "x"}, "BOHNANZA_TELEGRAM_PORT must be a port number"),
        ({"BOHNANZA_TELEGRAM_PORT": "70000"}, "BOHNANZA_TELEGRAM_PORT must be a port number"),
    ],
)
def test_a_wrong_setting_is_named_in_one_line_without_the_token(
    wrong: dict[str, str], said: str
) -> None:
    with pytest.raises(SettingsError) as refused:
        TelegramSettings.from_env({"BOHNANZA_TELEGRAM_TOKEN": TOKEN, **wrong})
    assert str(refused.value) == said
    assert TOKEN not in said
