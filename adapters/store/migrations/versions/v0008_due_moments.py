"""The next moment something is due in each game (a reminder, a deadline, a bot's trading
window closing), kept with its chat state and indexed: a worker's clock wakes only the games
whose moment has come, and loads no other.

Games stored before are given their chat state's last write as the moment: the clock looks
at each of them once, and writes its true moment.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("chat_states") as table:
        table.add_column(sa.Column("due_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_chat_states_due_at", "chat_states", ["due_at"])
    op.execute("UPDATE chat_states SET due_at = updated_at")


def downgrade() -> None:
    op.drop_index("ix_chat_states_due_at", "chat_states")
    with op.batch_alter_table("chat_states") as table:
        table.drop_column("due_at")
