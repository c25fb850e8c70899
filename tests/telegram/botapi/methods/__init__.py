"""Bot API method implementations; importing this package fills the method table."""

from . import bot_settings, messages, queries, updates
from .registry import METHODS, find_method

__all__ = ["METHODS", "bot_settings", "find_method", "messages", "queries", "updates"]
