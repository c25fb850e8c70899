"""Alembic migrations of the game store's schema; the newest revision is the schema version."""
