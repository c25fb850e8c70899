"""Ratings and statistics per room and per platform, derived from the finished games.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("platform", sa.String(40), primary_key=True),
        sa.Column("room", sa.String(200), primary_key=True),
        sa.Column("player_platform", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.String(200), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("ordinal", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("coins", sa.Integer(), nullable=False),
        sa.Column("last_game_id", sa.String(200), nullable=False),
        sa.Column("last_played_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["platform", "room", "ordinal"])
    op.create_table(
        "rating_boards",
        sa.Column("platform", sa.String(40), primary_key=True),
        sa.Column("room", sa.String(200), primary_key=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("last_game_id", sa.String(200), nullable=False),
        sa.Column("last_finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    # The games stored so far are rated the first time `bohnanza stats --rebuild` runs; a
    # migration does not replay them (it holds no rating library of its own).


def downgrade() -> None:
    op.drop_table("rating_boards")
    op.drop_index("ix_ratings_board", "ratings")
    op.drop_table("ratings")
