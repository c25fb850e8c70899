"""Settings come from a TOML file and the environment, are checked at start, and hide secrets."""

from __future__ import annotations

from pathlib import Path

import pytest

from bohnanza.adapters.settings import SettingsError, load_settings


def test_the_file_gives_settings_by_their_environment_names_and_the_environment_wins(
    tmp_path: Path,
) -> None:
    config = tmp_path / "bot.toml"
    config.write_text(
        'db = "games.db"\nlog_format = "json"\nhealth_port = 8081\n'
        '[telegram]\nmode = "webhook"\ntoken = "from-file"\n'
    )
    settings = load_settings({"BOHNANZA_TELEGRAM_TOKEN": "from-env"}, str(config))
    assert settings.db == "games.db"
    assert settings.log_format == "json"
    assert settings.health_port == 8081
    assert settings.values["BOHNANZA_TELEGRAM_MODE"] == "webhook"
    assert settings.values["BOHNANZA_TELEGRAM_TOKEN"] == "from-env"


def test_the_file_can_be_named_in_the_environment(tmp_path: Path) -> None:
    config = tmp_path / "bot.toml"
    config.write_text('log_level = "debug"\n')
    assert load_settings({"BOHNANZA_CONFIG": str(config)}).log_level == "DEBUG"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"BOHNANZA_LOG_LEVEL": "loud"}, "BOHNANZA_LOG_LEVEL must be one of"),
        ({"BOHNANZA_LOG_FORMAT": "xml"}, "BOHNANZA_LOG_FORMAT must be text or json"),
        ({"BOHNANZA_HEALTH_PORT": "99999"}, "BOHNANZA_HEALTH_PORT must be a port number"),
    ],
)
def test_a_wrong_setting_is_one_line_naming_it(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(env)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_broken_or_missing_file_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("db = \n")
    for path, message in ((broken, "not valid TOML"), (tmp_path / "none.toml", "No such file")):
        with pytest.raises(SettingsError) as caught:
            load_settings({}, str(path))
        assert message in str(caught.value) and "\n" not in str(caught.value)


def test_secrets_are_listed_for_the_log_filter_and_never_in_the_repr() -> None:
    settings = load_settings(
        {
            "BOHNANZA_DB": "postgresql://bot:db-password@db/games",
            "BOHNANZA_TELEGRAM_TOKEN": "123456:telegram-token",
            "BOHNANZA_MATRIX_PASSWORD": "matrix-password",
            "BOHNANZA_TELEGRAM_WEBHOOK_SECRET": "hook-secret",
            "HOME": "/home/bot",
        }
    )
    assert set(settings.secrets()) == {
        "db-password",
        "123456:telegram-token",
        "matrix-password",
        "hook-secret",
    }
    shown = repr(settings)
    assert not any(secret in shown for secret in settings.secrets())
    assert "postgresql://bot:***@db/games" in shown
