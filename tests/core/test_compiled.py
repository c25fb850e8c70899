"""The modules that `pip install` compiles (setup.py) are those of the sources as they are."""

from __future__ import annotations

import ast
import importlib
import re
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def compiled_sources() -> tuple[str, ...]:
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "COMPILED":
            return tuple(ast.literal_eval(node.value))
    raise AssertionError("setup.py names no COMPILED modules")


def test_make_builds_the_compiled_modules_again_whenever_their_sources_change() -> None:
    makefile = (ROOT / "Makefile").read_text().replace("\\\n", " ")  # continued lines
    listed = re.search(r"^COMPILED := (.*)$", makefile, re.M)
    assert listed is not None
    assert tuple(listed.group(1).split()) == compiled_sources()
    assert re.search(r"^\$\(STAMP\): .*\$\(COMPILED\)", makefile, re.M)


def test_a_compiled_module_is_never_older_than_its_source() -> None:
    # An extension module is imported before the source beside it: one built before the last
    # change to its source would run the code as it was.
    for path in compiled_sources():
        source = ROOT / path
        built = [source.with_suffix(suffix) for suffix in EXTENSION_SUFFIXES]
        for extension in (b for b in built if b.exists()):
            assert extension.stat().st_mtime >= source.stat().st_mtime, (
                f"{path} changed since it was compiled: run `make test` (or pip install -e .)"
            )
            module = importlib.import_module("bohnanza." + path[:-3].replace("/", "."))
            assert not str(module.__file__).endswith(".py")
