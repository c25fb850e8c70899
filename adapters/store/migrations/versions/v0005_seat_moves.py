"""Seats moved to a new identity (a player's new nick or account), kept beside the seats the
game began with (those are part of the game's hash chain and never change).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "seat_moves",
        sa.Column("game_id", sa.String(200), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("position", sa.Integer(), primary_key=True),
        sa.Column("platform", sa.String(40), nullable=False),
        sa.Column("user_id", sa.String(200), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("moved_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_seat_moves_player", "seat_moves", ["platform", "user_id"])


def downgrade() -> None:
    op.drop_index("ix_seat_moves_player", "seat_moves")
    op.drop_table("seat_moves")
