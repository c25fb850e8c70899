"""What runs first when `bohnanza` starts: compiled modules built from other sources than those
beside them are set aside (one line says so), then the command runs.

The modules setup.py compiles sit beside their sources, and Python imports an extension module
before the source of the same name: one built before the last edit to a source under core/
(its own, or a plain module it imports) would run the code as it was. The build records the
sha256 of every source under core/ it read (`compiled-from.json`); when one differs, or there is
no record, a finder placed first on `sys.meta_path` imports those modules from their sources.
Nothing here imports bohnanza.core: it runs before any compiled module could be loaded.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from collections.abc import Mapping, Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import TextIO

BUILT_FROM = "compiled-from.json"
"""Beside the compiled modules: the sha256 of each source under core/ they were built from."""


def core_folder() -> Path | None:
    """The folder bohnanza.core is imported from (its `__init__` is not run)."""
    spec = importlib.util.find_spec("bohnanza.core")
    locations = spec.submodule_search_locations if spec is not None else None
    return Path(next(iter(locations))) if locations else None


def compiled_beside_sources(core: Path) -> dict[str, Path]:
    """Each module under `core` built as an extension beside its source: its source by name."""
    found: dict[str, Path] = {}
    for suffix in EXTENSION_SUFFIXES:
        for extension in core.rglob("*" + suffix):
            source = extension.with_name(extension.name[: -len(suffix)] + ".py")
            if source.is_file():
                parts = source.relative_to(core).with_suffix("").parts
                found[".".join(("bohnanza.core", *parts))] = source
    return found


def changed_source(core: Path) -> str | None:
    """Why the compiled modules under `core` are not those of its sources (a source changed
    since they were built, or they record none), or None when they are."""
    try:
        built = json.loads((core / BUILT_FROM).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        built = None
    if not isinstance(built, dict):
        return "were built from sources they keep no record of"
    now = {
        path.relative_to(core).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in core.rglob("*.py")
    }
    for name in sorted(now.keys() | built.keys()):
        if now.get(name) != built.get(name):
            return f"are older than core/{name}"
    return None


class SourcesFirst(MetaPathFinder):
    """Imports the named modules from their sources, whatever is built beside them."""

    def __init__(self, sources: Mapping[str, Path]) -> None:
        self.sources = dict(sources)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        source = self.sources.get(fullname)
        return None if source is None else importlib.util.spec_from_file_location(fullname, source)


def run_sources_if_stale(stream: TextIO | None = None) -> bool:
    """Set aside compiled modules that are not those of the sources beside them, saying so on
    `stream` (stderr) in one line with the command that builds them again. True if it did."""
    core = core_folder()
    if core is None:
        return False
    compiled = compiled_beside_sources(core)
    reason = changed_source(core) if compiled else None
    if reason is None:
        return False
    rebuild = (
        "make compiled"
        if (core.parent / "setup.py").is_file()
        else "pip install --force-reinstall bohnanza"
    )
    print(
        f"warning: the compiled modules {reason}: running the sources (rebuild: {rebuild})",
        file=stream or sys.stderr,
    )
    if not any(isinstance(finder, SourcesFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, SourcesFirst(compiled))
    return True


def main() -> None:
    """Console entry point: stale compiled modules set aside, then the `bohnanza` command."""
    run_sources_if_stale()
    from .app import main as run_command

    run_command()
