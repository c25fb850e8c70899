"""Bot API method implementations; importing this package fills the method table."""

from . import bot_settings, files, messages, queries, updates
from .registry import METHODS, find_method

__all__ = ["METHODS", "bot_settings", "files", "find_method", "messages", "queries", "updates"]
