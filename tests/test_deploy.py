"""The deployment files are well formed and agree with the code (the image is not built here)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from bohnanza.adapters.settings import load_settings

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


def test_the_compose_file_runs_the_bot_after_migrating_beside_postgresql() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert services["postgres"]["image"].startswith("postgres:15")
    assert "postgres-data:/var/lib/postgresql/data" in services["postgres"]["volumes"]
    assert services["migrate"]["command"] == ["db", "upgrade"]
    assert services["bot"]["command"][0] == "serve"
    assert services["bot"]["env_file"] == "bohnanza.env"
    assert services["bot"]["depends_on"]["migrate"]["condition"] == (
        "service_completed_successfully"
    )


def test_the_image_runs_as_a_user_without_privileges_with_a_health_check() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim$", text, re.M)
    assert re.search(r"^USER bohnanza$", text, re.M)
    assert 'CMD ["bohnanza", "health"]' in text
    continued = re.sub(r"\\\n", " ", text)
    for line in continued.splitlines():
        assert not line.strip() or line.lstrip().startswith("#") or line.split()[0].isupper()


def test_the_example_environment_is_every_setting_valid_and_without_real_secrets() -> None:
    values = {}
    for line in (DEPLOY / "bohnanza.env.example").read_text().splitlines():
        line = line.lstrip("#").strip()
        if re.match(r"^BOHNANZA_[A-Z_]+=", line):
            name, value = line.split("=", 1)
            values[name] = value
    settings = load_settings(values)
    assert settings.health_port == 8080 and settings.log_format == "json"
    for name in ("TOKEN", "PASSWORD", "SECRET"):
        assert all(
            "replace" in v or "change-me" in v or v == "" for k, v in values.items() if name in k
        )
    operations = (Path(__file__).resolve().parent.parent / "docs" / "operations.md").read_text()
    assert all(f"`{name}`" in operations or name in operations for name in values)


def test_the_systemd_unit_runs_unprivileged_and_hardened() -> None:
    unit = (DEPLOY / "bohnanza.service").read_text()
    for option in ("User=bohnanza", "NoNewPrivileges=yes", "ProtectSystem=strict"):
        assert option in unit
    assert "ExecStartPre=/opt/bohnanza/bin/bohnanza db upgrade" in unit


def test_the_image_compiles_its_own_modules_from_the_sources_alone() -> None:
    # Modules a developer's tree compiled in place (setup.py) may be older than their sources.
    text = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^COPY pyproject\.toml setup\.py ", text, re.M)
    assert re.search(r"apt-get install .*\bgcc\b", text)
    ignored = (DEPLOY.parent / ".dockerignore").read_text().splitlines()
    assert {"**/*.so", "core/compiled-from.json", ".venv", "build"} <= set(ignored)


def test_the_image_installs_the_compiled_wheel_with_every_platform() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^ENV BOHNANZA_COMPILE=1$", text, re.M)
    assert re.search(r"^RUN pip wheel .*'\.\[all\]'$", text, re.M)
    assert "--find-links /wheels 'bohnanza[all]'" in text
