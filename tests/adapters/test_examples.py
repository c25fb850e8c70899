"""The example platforms of docs/adapters.md (`pigeon`, a line platform on `LinePort`, and
`mailbox`, whole messages, nothing edited, on `BasePort`) keep the chat-port contract: under
pytest by their own tests (`plugin/*/tests`), and without pytest with the same harnesses; a port
claiming what it does not write is refused."""

from __future__ import annotations

from typing import Any

import pytest

from bohnanza.adapters.contract import ChatHarness, check_port
from bohnanza.adapters.kit import BasePort, Capabilities, Message

from .plugin import mailbox, mailbox_contract, pigeon_contract

PigeonHarness = pigeon_contract.PigeonHarness
MailboxHarness = mailbox_contract.MailboxHarness


@pytest.mark.parametrize("make", [PigeonHarness, MailboxHarness], ids=["pigeon", "mailbox"])
def test_the_contract_runs_without_pytest_and_tells_each_outcome(make: Any) -> None:
    harness: ChatHarness = make()
    outcomes = check_port(harness)
    assert [o for o in outcomes if o.result == "broken"] == []
    assert sum(o.result == "passed" for o in outcomes) >= 5
    skipped = {o.check: o.reason for o in outcomes if o.result == "not applicable"}
    assert skipped["an_edit_replaces_the_message"] == "the platform cannot edit messages"


def test_a_port_that_cannot_edit_is_written_to_for_decisions_only() -> None:
    caps = mailbox.MailboxPort(set()).capabilities
    assert not caps.edits and caps.private_on_decisions
    assert not Capabilities(edits=True).private_on_decisions
    assert Capabilities(edits=True, private_updates="decisions").private_on_decisions
    assert not Capabilities(private_updates="every change").private_on_decisions


def test_a_port_claiming_what_it_does_not_write_is_refused_at_its_definition() -> None:
    with pytest.raises(TypeError, match="claims edits but does not write edit"):

        class Boasting(BasePort):
            capabilities = Capabilities(edits=True, private_messages=False)

            async def send(self, room: str, message: Message) -> str:
                return "1"

    class Plain(BasePort):
        async def send(self, room: str, message: Message) -> str:
            return "1"

    assert not Plain.capabilities.private_messages
