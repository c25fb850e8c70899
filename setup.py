"""The modules bot games and chat commands spend their time in, compiled with mypyc from their
typed sources (README: Development).

Everything else about the package is in pyproject.toml. What ships is compiled: the wheel
(`python -m build`, `pip install .`) and the image. A development install (`pip install -e .`,
`make play`, `make test`) runs the sources, so an edit takes effect at once; `make compiled`
(`BOHNANZA_COMPILE=1`) compiles them beside the sources, for the benchmarks. Without a C compiler
the modules stay plain Python: the extensions are optional, and games are played the very same
way either way.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import ClassVar

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

COMPILED = (
    "core/state.py",
    "core/legal.py",
    "core/checks.py",
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
    "core/app/seat_control.py",
    "core/app/turns.py",
    "core/app/render.py",
    "core/app/updates.py",
    "core/app/markup.py",
    "core/app/story.py",
)
"""The game's state, the rules engine and its menus (`legal`, and `checks` for what it
refuses), the views, the loop bots play games in and both bots' choices: what every bot game
runs (the expert's searches play heuristic games too). Then what a chat command runs once its
text is read: the game's session, the bots' turns in it, and the table and private messages
rendered. Compiled alone, the bots' loop and the random bot saved nothing: they mostly read
attributes of objects that plain modules made.
Compiled together, these modules call each other natively and read the state's seats and fields
as C structs. The classes that are subclassed or filled from a dict stay plain: the menus
(`menu.py`), trade offers, and the values views are made of (`view_values.py`). The only list of
them: the Makefile and the tests read it here."""

GROUP = "bohnanza.core.compiled"
"""The compiled modules' shared library is `bohnanza.core.compiled__mypyc`; each module's own
extension beside its source only hands it on."""

BUILT_FROM = "compiled-from.json"
"""Written beside the compiled modules: the sha256 of every source under core/ they were built
from (they import the plain ones). `bohnanza` runs the sources when one differs
(bohnanza.cli.compiled)."""

WHEEL_COMMANDS = {"bdist_wheel", "build", "build_ext", "install"}


def compiling() -> bool:
    """`BOHNANZA_COMPILE=1` or `0` decides; otherwise what ships compiles (a wheel, an image),
    and a development install (`pip install -e .`, which runs `editable_wheel`) does not."""
    chosen = os.environ.get("BOHNANZA_COMPILE", "").strip()
    if chosen:
        return chosen not in {"0", "no", "false"}
    return bool(WHEEL_COMMANDS & set(sys.argv[1:]))


def source_digests() -> dict[str, str]:
    """The sha256 of every source under core/, by its path inside the package."""
    core = Path("core")
    return {
        path.relative_to(core).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(core.rglob("*.py"))
    }


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
    extensions = mypycify(["--explicit-package-bases", *paths], group_name=GROUP)
    for extension in extensions:
        extension.optional = True  # no compiler: the plain modules
    return extensions


class BuildCompiled(build_ext):
    """Builds the extensions, then records beside them the sources they were built from."""

    digests: ClassVar[dict[str, str]] = {}

    def run(self) -> None:
        super().run()
        group = self.get_ext_filename(GROUP + "__mypyc")
        package = self.get_finalized_command("build_py").get_package_dir("bohnanza.core")
        for folder in (Path(self.build_lib, "bohnanza", "core"), Path(package)):
            if (folder / Path(group).name).exists():
                (folder / BUILT_FROM).write_text(json.dumps(self.digests, indent=1) + "\n")


if compiling():
    BuildCompiled.digests = source_digests()  # the sources as mypyc reads them
    setup(ext_modules=compiled_modules(), cmdclass={"build_ext": BuildCompiled})
else:
    setup()
