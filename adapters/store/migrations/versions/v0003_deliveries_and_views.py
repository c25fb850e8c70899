"""Inputs applied once, the chat state of each game, what each chat was last shown, and each
player's settings.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "deliveries",
        sa.Column("platform", sa.String(40), primary_key=True),
        sa.Column("delivery_id", sa.String(255), primary_key=True),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_deliveries_received_at", "deliveries", ["received_at"])
    op.create_table(
        "chat_states",
        sa.Column("game_id", sa.String(200), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("action_count", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "views",
        sa.Column("platform", sa.String(40), primary_key=True),
        sa.Column("chat", sa.String(260), primary_key=True),
        sa.Column("slot", sa.String(260), primary_key=True),
        sa.Column("message_id", sa.String(200), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "player_settings",
        sa.Column("platform", sa.String(40), primary_key=True),
        sa.Column("user_id", sa.String(255), primary_key=True),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_settings")
    op.drop_table("views")
    op.drop_table("chat_states")
    op.drop_index("ix_deliveries_received_at", "deliveries")
    op.drop_table("deliveries")
