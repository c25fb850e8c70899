"""The example platform packages of docs/adapters.md (`pigeon`: a line platform; `mailbox`:
whole messages, nothing edited), each a project of its own, importable here as installed."""

from __future__ import annotations

import sys
from importlib import import_module
from pathlib import Path

HERE = Path(__file__).parent
PROJECTS = {"pigeon": HERE / "pigeon", "mailbox": HERE / "mailbox"}
for _project in PROJECTS.values():
    if str(_project) not in sys.path:
        sys.path.insert(0, str(_project))

pigeon = import_module("bohnanza_pigeon")
mailbox = import_module("bohnanza_mailbox")
