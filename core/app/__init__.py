"""The chat application: lobby, turns, trading, deadlines and views, written once for all.

Adapters hand over `Inbound` input and deliver the `Outbound` messages the application returns;
`ChatService` decides, `Runner` connects a service to a `ChatPort` and a `Clock`.
"""

from .inbound import Inbound
from .messages import Button, Message, Outbound, Reply, ToPlayer, ToRoom
from .ports import Capabilities, ChatPort, Clock

__all__ = [
    "Button",
    "Capabilities",
    "ChatPort",
    "Clock",
    "Inbound",
    "Message",
    "Outbound",
    "Reply",
    "ToPlayer",
    "ToRoom",
]
