"""Bots that play from their own view only."""
