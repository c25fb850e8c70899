"""The first schema: games, seats and actions.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(200), primary_key=True),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("deck", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("header_hash", sa.String(64), nullable=False),
        sa.Column("action_count", sa.Integer(), nullable=False),
        sa.Column("head_hash", sa.String(64), nullable=False),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_created_at", "games", ["created_at"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(200), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("position", sa.Integer(), primary_key=True),
        sa.Column("platform", sa.String(40), nullable=False),
        sa.Column("user_id", sa.String(200), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("strategy", sa.String(200), nullable=True),
    )
    op.create_index("ix_seats_player", "seats", ["platform", "user_id"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(200), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("actor", sa.Integer(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("reshuffles", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_seats_player", "seats")
    op.drop_table("seats")
    op.drop_index("ix_games_created_at", "games")
    op.drop_index("ix_games_status", "games")
    op.drop_table("games")
