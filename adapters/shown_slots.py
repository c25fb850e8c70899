"""The ledger of which message shows which slot of a chat, for one platform.

What each slot shows is kept in the store (the platform's message id and a digest of the
content): the platform edits the message it last showed, and an unchanged message is not sent
again. A slot whose player never got its message (he was unreachable) shows nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging

from bohnanza.adapters.runner_ports import SlotLedger
from bohnanza.core.app.messages import Message
from bohnanza.core.app.ports import Clock, ShownView

log = logging.getLogger("bohnanza.adapters.runner")
"""The runner's log, as operators know it."""


def digest(message: Message) -> str:
    """A short fingerprint of a message's text, buttons (with their numbers, where they are
    listed numbered) and HTML (a message without HTML or numbers keeps the fingerprint it had
    before messages had them)."""
    shown: tuple[object, ...] = (message.text, message.buttons)
    if message.html is not None:
        shown += (message.html,)
    numbers = tuple(button.number for row in message.buttons for button in row)
    if any(numbers):
        shown += (numbers,)
    return hashlib.blake2s(repr(shown).encode(), digest_size=12).hexdigest()


class ShownSlots:
    """What each slot of a platform's chats shows, read from and noted in a `SlotLedger`."""

    def __init__(self, ledger: SlotLedger, platform: str, clock: Clock) -> None:
        self._ledger = ledger
        self._platform = platform
        self._clock = clock

    def shown(self, chat: str, slot: str | None) -> ShownView | None:
        """The message a slot shows (None: none, or one its player never got)."""
        if slot is None:
            return None
        shown = self._ledger.load_view(self._platform, chat, slot)
        if shown is not None and not shown.message_id:
            return None  # the player never got it (he was unreachable)
        return shown

    def note(self, chat: str, slot: str | None, view: ShownView) -> None:
        """Note what the platform took. A failure here must not send the message again: it
        is only logged, and the slot is shown anew when its views are next derived."""
        if slot is None:
            return
        try:
            self._ledger.save_view(self._platform, chat, slot, view, self._clock.now())
        except Exception as error:
            log.warning("%s: what a chat shows was not noted: %s", self._platform, error)

    def note_sending(self, chat: str, slot: str | None) -> None:
        """Before a new message goes into a slot that shows an older one: the slot is noted as
        showing nothing known yet. Should the process die between the send and its note, the
        next view then comes as a new message below it (the player's newest message about the
        game is the current one), not as an edit of the older message above a stale one.
        Unlike `note`, a failure here raises: nothing is sent before the store took it."""
        if slot is not None:
            self._ledger.save_view(self._platform, chat, slot, ShownView("", ""), self._clock.now())

    def forget(self, chat: str, slot: str) -> None:
        """The slot's player no longer has its message: the next view is sent anew (best
        effort: a failure leaves an edit to try, which falls back to a new message)."""
        with contextlib.suppress(Exception):
            self._ledger.save_view(self._platform, chat, slot, ShownView("", ""), self._clock.now())
