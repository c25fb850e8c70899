"""A chat port with the defaults of a platform that can do little: a plugin writes only what
its platform does (`send`, and `send_private` where there are private chats).

What is not written is not done: nothing is edited (`MessageGone`, so the runner sends anew),
deleted or sent as a file, no "typing…" is shown, and an answer is a message in the chat the
input came from. The `capabilities` a port declares must not claim what it does not write:
`port_lacks` names any such claim, `serve_chat` refuses the port, and a subclass with such
capabilities as a class attribute fails at its definition.
"""

from __future__ import annotations

from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Message
from bohnanza.core.app.ports import Capabilities, ChatPort, MessageGone, Unreachable

NEEDS: dict[str, tuple[str, ...]] = {
    "private_messages": ("send_private",),
    "edits": ("edit", "edit_private"),
    "deletes": ("delete",),
    "files": ("send_file",),
}
"""The methods a port writes for each capability it claims (`edit_private`: with private
messages only)."""


class BasePort:
    """Everything of a `ChatPort` but `send`; a subclass overrides what its platform does
    and declares it in `capabilities` (by default: rooms only, no private messages)."""

    platform: str
    capabilities: Capabilities = Capabilities(private_messages=False)

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        caps = cls.__dict__.get("capabilities")
        if isinstance(caps, Capabilities):
            lacking = lacks(cls, caps)
            if lacking:
                raise TypeError(f"{cls.__name__}: {lacking}")

    def how_to_reach(self, tr: Translator) -> str:
        return ""

    async def send(self, room: str, message: Message) -> str:
        raise NotImplementedError

    async def send_private(self, user_id: str, message: Message) -> str:
        raise Unreachable(user_id)

    async def answer(self, inbound: Inbound, text: str) -> None:
        if inbound.private:
            await self.send_private(inbound.user_id, Message(text))
        else:
            await self.send(inbound.room, Message(text))

    async def thinking(self, inbound: Inbound, busy: bool) -> None:
        return None

    async def send_file(self, room: str, filename: str, data: bytes, caption: str) -> str:
        return ""

    async def edit(self, room: str, message_id: str, message: Message) -> None:
        raise MessageGone(message_id)

    async def edit_private(self, user_id: str, message_id: str, message: Message) -> None:
        raise MessageGone(message_id)

    async def delete(self, room: str, message_id: str) -> None:
        return None


def lacks(cls: type, caps: Capabilities) -> str:
    """What `caps` claims that a BasePort class does not write ("" when nothing)."""
    missing = [
        f"claims {claim} but does not write {method}"
        for claim, methods in NEEDS.items()
        if getattr(caps, claim)
        for method in methods
        if not (method == "edit_private" and not caps.private_messages)
        and getattr(cls, method, None) is getattr(BasePort, method)
    ]
    return "; ".join(missing)


def port_lacks(port: ChatPort) -> str:
    """What a port's capabilities claim that it does not write ("" when nothing, and for a
    port not built on BasePort, which writes every method itself)."""
    if not isinstance(port, BasePort):
        return ""
    return lacks(type(port), port.capabilities)
