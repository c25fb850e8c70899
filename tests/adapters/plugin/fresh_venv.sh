#!/bin/sh
# The example plugins checked as docs/adapters.md tells a plugin author: a fresh virtual
# environment, bohnanza installed as a wheel, the plugins beside it, mypy --strict on them,
# the contract run without pytest, and the platforms found by their entry points.
# Usage: tests/adapters/plugin/fresh_venv.sh [DIR]   (takes a few minutes: it builds bohnanza)
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
plugins="$root/tests/adapters/plugin"
env=${1:-$(mktemp -d)/venv}
python3 -m venv "$env"
CC=/bin/false "$env/bin/pip" install -q "$root"
"$env/bin/pip" install -q mypy "$plugins/pigeon" "$plugins/mailbox"
cd "$(mktemp -d)"  # not the source tree: the installed packages are checked
"$env/bin/mypy" --strict --no-incremental -p bohnanza_pigeon -p bohnanza_mailbox
"$env/bin/python" - <<'PY'
import asyncio
import sys

from bohnanza.adapters.contract import check_port
from bohnanza.adapters.platforms import platforms
from bohnanza_mailbox import MailboxPort


class Harness:
    room, player, other_player, stranger = "#street", "ann", "bob", "eve"

    def __init__(self) -> None:
        self.port = MailboxPort({"ann", "bob"})

    def run(self, work):
        async def wrapped():
            return await work

        return asyncio.run(wrapped())

    def room_texts(self):
        return list(self.port.boxes.get(self.room, []))

    def private_texts(self, user):
        return list(self.port.boxes.get(f"@{user}", []))


outcomes = check_port(Harness())
broken = [o for o in outcomes if o.result == "broken"]
assert not broken, broken
assert "pytest" not in sys.modules
assert {"pigeon", "mailbox"} <= set(platforms())
print(f"contract: {sum(o.result == 'passed' for o in outcomes)} passed, none broken")
PY
