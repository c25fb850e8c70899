"""The modules bot games and chat commands spend their time in, compiled with mypyc from their
typed sources (README: Development).

Everything else about the package is in pyproject.toml. Without a C compiler the modules stay
plain Python: the extensions are optional, and games are played the very same way either way.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import Extension, setup

COMPILED = (
    "core/state.py",
    "core/legal.py",
    "core/engine.py",
    "core/scoring.py",
    "core/view.py",
    "core/game.py",
    "core/bots/driver.py",
    "core/bots/asking.py",
    "core/bots/random_bot.py",
    "core/bots/valuation.py",
    "core/bots/heuristic.py",
    "core/app/session.py",
    "core/app/turns.py",
    "core/app/render.py",
    "core/app/updates.py",
    "core/app/markup.py",
    "core/app/story.py",
)
"""The game's state, the rules engine and its menus (`legal`), the views, the loop bots play games
in and both bots' choices: what every bot game runs (the expert's searches play heuristic games
too). Then what a chat command runs once its text is read: the game's session, the bots' turns
in it, and the table and private messages rendered. Compiled alone, the bots' loop and the
random bot saved nothing: they mostly read attributes of objects that plain modules made.
Compiled together, these modules call each other natively and read the state's seats and fields
as C structs. The classes that are subclassed or filled from a dict stay plain: the menus
(`menu.py`), trade offers, and the values views are made of (`view_values.py`)."""


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
    extensions = mypycify(["--explicit-package-bases", *paths], group_name="bohnanza.core.compiled")
    for extension in extensions:
        extension.optional = True  # no compiler: the plain modules
    return extensions


setup(ext_modules=compiled_modules())
