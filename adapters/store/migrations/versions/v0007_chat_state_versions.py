"""A version for each game's chat state: a write names the version it read, so of two workers
the second to write what its players were shown (the numbers of their lists among it) learns
that the other wrote first, and reads the game again.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("chat_states") as table:
        table.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("chat_states") as table:
        table.drop_column("version")
