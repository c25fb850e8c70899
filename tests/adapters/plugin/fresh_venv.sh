#!/bin/sh
# The example plugins checked as docs/adapters.md tells a plugin author: a fresh virtual
# environment, bohnanza installed as a wheel, the plugins beside it (copied out of this tree, as
# their authors have them), mypy --strict on them and their tests, each plugin's contract tests
# run with pytest in its own folder, the contract run without pytest, and the platforms found
# by their entry points.
# Usage: tests/adapters/plugin/fresh_venv.sh [DIR]   (takes a few minutes: it builds bohnanza)
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
plugins="$root/tests/adapters/plugin"
env=${1:-$(mktemp -d)/venv}
python3 -m venv "$env"
CC=/bin/false "$env/bin/pip" install -q "$root"
work=$(mktemp -d)  # not the source tree: the installed packages are checked
cp -r "$plugins/pigeon" "$plugins/mailbox" "$work"
"$env/bin/pip" install -q mypy pytest "$work/pigeon" "$work/mailbox"
for plugin in pigeon mailbox; do
    (cd "$work/$plugin" && "$env/bin/mypy" --strict --no-incremental -p "bohnanza_$plugin" \
        && "$env/bin/mypy" --strict --no-incremental tests \
        && "$env/bin/pytest" -q -p no:cacheprovider tests)
done
cd "$work"
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
