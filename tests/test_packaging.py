"""The package declares everything it ships, so that setuptools builds it without a warning: an
SPDX license, and every catalog's folder as a package of data."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_license_is_an_spdx_expression_setuptools_reads() -> None:
    assert PROJECT["project"]["license"] == "MIT"
    assert "setuptools>=77" in PROJECT["build-system"]["requires"]


def test_every_catalog_is_declared_as_package_data() -> None:
    setuptools = PROJECT["tool"]["setuptools"]
    locales = ROOT / "adapters" / "i18n" / "locales"
    catalogs = sorted(locales.glob("*/LC_MESSAGES/*.po"))
    assert catalogs
    for catalog in catalogs:
        package = "bohnanza.adapters.i18n.locales." + ".".join(
            catalog.parent.relative_to(locales).parts
        )
        assert package in setuptools["packages"], package
        assert setuptools["package-data"][package] == ["*.po"]


def test_every_package_folder_is_declared() -> None:
    setuptools = PROJECT["tool"]["setuptools"]
    declared = set(setuptools["packages"])
    for import_name, folder in setuptools["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            assert ".".join((import_name, *parts)) in declared, init
