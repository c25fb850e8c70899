"""Tests and test infrastructure for the Telegram adapter: a local Bot API and simulated users."""
