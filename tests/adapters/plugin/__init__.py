"""The example platform packages of docs/adapters.md (`pigeon`: a line platform; `mailbox`:
whole messages, nothing edited), each a project of its own with its contract tests in its
`tests/` folder, importable here as installed."""

from __future__ import annotations

import sys
from importlib import import_module
from pathlib import Path

HERE = Path(__file__).parent
PROJECTS = {"pigeon": HERE / "pigeon", "mailbox": HERE / "mailbox"}
for _project in PROJECTS.values():
    for _folder in (_project, _project / "tests"):
        if str(_folder) not in sys.path:
            sys.path.insert(0, str(_folder))

pigeon = import_module("bohnanza_pigeon")
mailbox = import_module("bohnanza_mailbox")
pigeon_contract = import_module("test_pigeon_contract")
mailbox_contract = import_module("test_mailbox_contract")
