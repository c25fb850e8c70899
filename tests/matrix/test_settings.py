"""The Matrix settings read by the kit's rules: a wrong or missing one is one line naming it,
and the password and token never show in a repr."""

from __future__ import annotations

from pathlib import Path

import pytest

from bohnanza.adapters.kit import SettingsError
from bohnanza.adapters.matrix import MatrixSettings

NEEDED = {
    "BOHNANZA_MATRIX_HOMESERVER": "https://matrix.example.org",
    "BOHNANZA_MATRIX_USER": "@bohnanza:example.org",
    "BOHNANZA_MATRIX_PASSWORD": "hunter2",
}


def test_the_defaults_keep_the_state_in_matrix_state_and_answer_to_bean() -> None:
    settings = MatrixSettings.from_env(NEEDED)
    assert settings == MatrixSettings(
        "https://matrix.example.org", "@bohnanza:example.org", password="hunter2"
    )
    assert (settings.state_dir, settings.prefix) == (Path("matrix-state"), "!bean")
    assert "hunter2" not in repr(settings)


def test_an_access_token_logs_in_without_a_password() -> None:
    env = {**NEEDED, "BOHNANZA_MATRIX_PASSWORD": "", "BOHNANZA_MATRIX_ACCESS_TOKEN": "syt_abc"}
    settings = MatrixSettings.from_env(
        {**env, "BOHNANZA_MATRIX_DEVICE_ID": "BEANS", "BOHNANZA_MATRIX_PREFIX": "!beans"}
    )
    assert (settings.access_token, settings.device_id, settings.prefix) == (
        "syt_abc",
        "BEANS",
        "!beans",
    )
    assert "syt_abc" not in repr(settings)


@pytest.mark.parametrize(
    ("wrong", "said"),
    [
        ({"BOHNANZA_MATRIX_HOMESERVER": ""}, "set BOHNANZA_MATRIX_HOMESERVER"),
        (
            {"BOHNANZA_MATRIX_HOMESERVER": "matrix.example.org"},
            "BOHNANZA_MATRIX_HOMESERVER must be an http(s) URL",
        ),
        (
            {"BOHNANZA_MATRIX_USER": "bohnanza"},
            "BOHNANZA_MATRIX_USER must be a user id like @bohnanza:example.org",
        ),
        (
            {"BOHNANZA_MATRIX_PASSWORD": ""},
            "set BOHNANZA_MATRIX_PASSWORD or BOHNANZA_MATRIX_ACCESS_TOKEN",
        ),
        ({"BOHNANZA_MATRIX_PREFIX": "!bean bot"}, "BOHNANZA_MATRIX_PREFIX may not hold a space"),
    ],
)
def test_a_wrong_setting_is_named_in_one_line(wrong: dict[str, str], said: str) -> None:
    with pytest.raises(SettingsError) as refused:
        MatrixSettings.from_env({**NEEDED, **wrong})
    assert str(refused.value) == said
