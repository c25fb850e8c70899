"""A compiled module built from other sources than those beside it never runs: `bohnanza` says
so in one line, naming the rebuild, and runs the sources."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from bohnanza.cli.start import (
    BUILT_FROM,
    SourcesFirst,
    changed_source,
    compiled_beside_sources,
    core_folder,
)

RUN_COPY = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); "
    "from bohnanza.cli.start import main; sys.argv[0] = 'bohnanza'; main()"
)


def copy_of_core(tmp_path: Path) -> Path:
    """A copy of the package's core/ sources alone, importable as bohnanza.core from tmp_path."""
    core = core_folder()
    assert core is not None
    copied = tmp_path / "bohnanza" / "core"
    shutil.copytree(
        core, copied, ignore=shutil.ignore_patterns("*.so", "*.pyd", BUILT_FROM, "__pycache__")
    )
    return copied


def record_sources(core: Path) -> None:
    digests = {
        p.relative_to(core).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in core.rglob("*.py")
    }
    (core / BUILT_FROM).write_text(json.dumps(digests))


def build_beside(source: Path) -> Path:
    """A file where the extension module of `source` is looked for first. It is no extension:
    importing it fails, so a command that succeeds did not import it."""
    extension = source.with_name(source.stem + EXTENSION_SUFFIXES[0])
    extension.write_bytes(b"not the module as it is now")
    return extension


@pytest.mark.slow
def test_bohnanza_runs_the_sources_of_a_module_edited_since_it_was_compiled(
    tmp_path: Path,
) -> None:
    core = copy_of_core(tmp_path)
    record_sources(core)
    build_beside(core / "scoring.py")
    with (core / "scoring.py").open("a") as source:
        source.write("\n# edited since it was compiled\n")
    ran = subprocess.run(
        [sys.executable, "-c", RUN_COPY, str(tmp_path), "simulate", "--games", "1",
         "--players", "3", "--out", str(tmp_path / "records")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert ran.stderr.splitlines() == [
        "warning: the compiled modules are older than core/scoring.py: running the sources "
        "(rebuild: pip install --force-reinstall bohnanza)"
    ]
    assert len(list((tmp_path / "records").glob("*.json"))) == 1


def test_compiled_modules_that_record_no_sources_are_set_aside_too(tmp_path: Path) -> None:
    core = copy_of_core(tmp_path)
    build_beside(core / "bots" / "heuristic.py")
    assert changed_source(core) == "were built from sources they keep no record of"
    assert compiled_beside_sources(core) == {
        "bohnanza.core.bots.heuristic": core / "bots" / "heuristic.py"
    }


def test_compiled_modules_built_from_the_sources_as_they_are_run(tmp_path: Path) -> None:
    core = copy_of_core(tmp_path)
    record_sources(core)
    build_beside(core / "state.py")
    assert changed_source(core) is None
    (core / "cards.py").write_text((core / "cards.py").read_text() + "\n# a plain module\n")
    assert changed_source(core) == "are older than core/cards.py"
    (core / "new_module.py").write_text("")
    assert changed_source(core) == "are older than core/cards.py"
    (core / "cards.py").unlink()
    assert changed_source(core) == "are older than core/cards.py"


def test_a_plain_install_says_nothing() -> None:
    from bohnanza.cli.start import run_sources_if_stale

    said = io.StringIO()
    core = core_folder()
    assert core is not None
    if not compiled_beside_sources(core):
        assert run_sources_if_stale(said) is False
        assert said.getvalue() == ""


def test_the_finder_imports_the_named_modules_from_their_sources(tmp_path: Path) -> None:
    source = tmp_path / "anything.py"
    source.write_text("WHERE = 'source'\n")
    spec = SourcesFirst({"bohnanza.core.anything": source}).find_spec(
        "bohnanza.core.anything", None
    )
    assert spec is not None and spec.origin == str(source)
    assert SourcesFirst({}).find_spec("bohnanza.core.state", None) is None
