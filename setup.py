"""The heuristic bot's modules, compiled with mypyc from their typed sources (README: Development).

Everything else about the package is in pyproject.toml. Without a C compiler the modules stay
plain Python: the extensions are optional, and the bots play the very same moves either way.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import Extension, setup

COMPILED = (
    "core/bots/valuation.py",
    "core/bots/heuristic.py",
)
"""The heuristic bot, which plays most games (the expert's searches play it too). Compiled as
well, the random bot, the asking loop and the driver saved nothing: code that mostly reads the
attributes of the game's plain objects runs as fast in CPython's own interpreter."""


def compiled_modules() -> list[Extension]:
    from mypyc.build import mypycify

    # mypyc names a module by its path, and setuptools maps bohnanza.core to core/: the sources
    # are read through a tree of links that mirrors the import names, as for mypy.
    tree = Path("build", "mypyc-src")
    (tree / "bohnanza").mkdir(parents=True, exist_ok=True)
    for package in ("core", "adapters", "cli"):
        link = tree / "bohnanza" / package
        if not link.is_symlink():
            link.symlink_to(Path("..", "..", "..", package))
    os.environ["MYPYPATH"] = str(tree)
    paths = [str(tree / "bohnanza" / path) for path in COMPILED]
    extensions = mypycify(
        ["--explicit-package-bases", *paths], group_name="bohnanza.core.bots.compiled"
    )
    for extension in extensions:
        extension.optional = True  # no compiler: the plain modules
    return extensions


setup(ext_modules=compiled_modules())
