"""Every command the README and docs/ show in a `sh`, `console` or `bash` block still works.

A command that needs no server is run: each block's commands in order, by bash, in a folder of
its own holding a store of two simulated games (`store.db`, also `$BOHNANZA_DB`), with the
installed `bohnanza` first on the PATH. `make` lines are checked for their target, `pip install`
lines for their extras, `python bench/...` lines for their script and options. A command that
needs a server says so at its end (`# needs: a Telegram bot token`), or its block says so in its
first line; a `bohnanza` command so marked is not run, but its subcommand and options are checked
against the real typer app. NOT_OURS names the few commands that belong to other projects.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer.main

from bohnanza.cli.app import build_app

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELLS = ("sh", "console", "bash")
NEEDS = re.compile(r"\s#\s*needs:\s*(?P<what>\S.*)$")
# Commands of a plugin's own project, shown in the guide to writing one (docs/adapters.md).
NOT_OURS = {
    "python3 -m venv .venv": "a plugin's own folder",
    "CC=/bin/false .venv/bin/pip install /path/to/bohnanza": "a plugin's own venv",
    ".venv/bin/pip install mypy pytest ./bohnanza-mailbox": "a plugin package to install",
    ".venv/bin/mypy --strict -p bohnanza_mailbox": "a plugin package to check",
}


@dataclass(frozen=True)
class Command:
    doc: str
    line: int
    text: str
    needs: str | None


@dataclass(frozen=True)
class Block:
    doc: str
    line: int
    commands: tuple[Command, ...]


def blocks() -> list[Block]:
    found = []
    for path in DOCS:
        name = str(path.relative_to(ROOT))
        lines = path.read_text().splitlines()
        index = 0
        while index < len(lines):
            fence = lines[index].strip()
            index += 1
            if not fence.startswith("```") or fence[3:].strip() not in SHELLS:
                if fence.startswith("```"):  # another language: skip to its end
                    while index < len(lines) and not lines[index].strip().startswith("```"):
                        index += 1
                    index += 1
                continue
            start, console, body = index, fence[3:].strip() == "console", []
            while not lines[index].strip().startswith("```"):
                body.append((index + 1, lines[index]))
                index += 1
            index += 1
            found.append(Block(name, start, tuple(commands_of(name, body, console))))
    return found


def commands_of(doc: str, body: list[tuple[int, str]], console: bool) -> list[Command]:
    block_needs = None
    if body and (first := re.match(r"\s*#\s*needs:\s*(\S.*)$", body[0][1])):
        block_needs = first.group(1)
    commands, pending, pending_line = [], "", 0
    for number, raw in body:
        text = raw.strip()
        if console:
            if not text.startswith("$ "):
                continue
            text = text[2:]
        if not pending and (not text or text.startswith("#")):
            continue
        if not pending:
            pending_line = number
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        text, pending = pending + text, ""
        marked = NEEDS.search(text)
        needs = marked.group("what") if marked else block_needs
        if marked:
            text = text[: marked.start()].rstrip()
        commands.append(Command(doc, pending_line, text, needs))
    return commands


BLOCKS = blocks()
COMMANDS = [c for b in BLOCKS for c in b.commands]


def words(command: Command) -> list[str]:
    """The command's words, without the environment assignments in front."""
    parts = shlex.split(command.text, comments=True)
    while parts and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", parts[0]):
        parts.pop(0)
    return parts


def is_not_ours(command: Command) -> bool:
    return any(command.text.startswith(text) for text in NOT_OURS)


def is_checked_only(command: Command) -> bool:
    first = words(command)[:2]
    return first[:1] == ["make"] or first == ["pip", "install"] or first[:1] == ["python"]


def test_the_docs_show_commands() -> None:
    assert any(c.doc == "README.md" and c.text.startswith("bohnanza ") for c in COMMANDS)
    assert any(c.needs for c in COMMANDS)


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: f"{c.doc}:{c.line}")
def test_a_command_is_run_checked_or_says_what_it_needs(command: Command) -> None:
    if is_not_ours(command):
        return
    if command.needs is not None:
        assert len(command.needs) > 5, f"{command.doc}:{command.line}: say which server it needs"
    parts = words(command)
    if parts[:1] == ["bohnanza"]:
        assert_known_options(parts[1:])
    elif parts[:1] == ["make"]:
        targets = re.findall(r"(?m)^([a-z][a-z-]*):", (ROOT / "Makefile").read_text())
        assert set(parts[1:]) <= set(targets), f"{command.doc}:{command.line}: no such target"
    elif parts[:2] == ["pip", "install"]:
        assert_known_extras(parts[2:])
    elif parts[:1] == ["python"]:
        assert_bench_options(parts[1:])


def assert_known_options(args: list[str]) -> None:
    """The subcommand exists and every option the line names is one of its options."""
    command = typer.main.get_command(build_app())
    rest = list(args)
    while rest and rest[0] in getattr(command, "commands", {}):
        command = command.commands[rest.pop(0)]  # type: ignore[attr-defined]
    assert not hasattr(command, "commands"), f"bohnanza {' '.join(args)}: no such command"
    known = {o for p in command.params for o in (*p.opts, *p.secondary_opts)} | {"--help"}
    named = {a.split("=")[0] for a in rest if a.startswith("-") and a != "-"}
    assert named <= known, f"bohnanza {' '.join(args)}: unknown options {sorted(named - known)}"


def assert_known_extras(args: list[str]) -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    for arg in args:
        match = re.fullmatch(r"(?:\.|bohnanza)(?:\[(?P<extras>[a-z,]+)\])?", arg)
        assert match, f"pip install {arg}: not this project"
        assert set((match.group("extras") or "").split(",")) - {""} <= set(extras), arg


def assert_bench_options(args: list[str]) -> None:
    script = ROOT / args[0]
    assert args[0].startswith("bench/") and script.is_file(), f"python {args[0]}: no such script"
    shown = subprocess.run(
        [sys.executable, str(script), "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, "COLUMNS": "200"},
    ).stdout
    for option in (a.split("=")[0] for a in args[1:] if a.startswith("--")):
        assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", shown), f"{args}: {option}"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("store") / "store.db"
    run_bash(f"bohnanza simulate --players 3 --games 2 --seed 9 --db {path}", path.parent)
    return path


def run_bash(script: str, folder: Path, db: Path | None = None) -> subprocess.CompletedProcess[str]:
    scripts = Path(sys.executable).parent
    env = {
        "PATH": f"{scripts}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(folder),
        "LANG": "C.UTF-8",
        **({"BOHNANZA_DB": str(db)} if db else {}),
    }
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def to_run(block: Block) -> list[Command]:
    return [
        c
        for c in block.commands
        if c.needs is None and not is_checked_only(c) and not is_not_ours(c)
    ]


RUN = [b for b in BLOCKS if to_run(b)]


@pytest.mark.slow
@pytest.mark.parametrize("block", RUN, ids=lambda b: f"{b.doc}:{b.line}")
def test_the_commands_of_a_block_run_and_succeed(block: Block, store: Path, tmp_path: Path) -> None:
    own = tmp_path / "store.db"
    own.write_bytes(store.read_bytes())
    runs = to_run(block)
    script = "\n".join(c.text for c in runs)
    done = run_bash(script, tmp_path, own)
    assert done.returncode == 0, f"{block.doc}:{block.line}:\n{script}\n{done.stderr}"
