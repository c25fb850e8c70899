"""Who asked for each seat move and why, and the claims waiting for a seat: a seat moves to a
new account only once that account sends the code its player was given privately.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("seat_moves") as table:
        table.add_column(sa.Column("asked_by", sa.String(200), nullable=False, server_default=""))
        table.add_column(sa.Column("reason", sa.String(40), nullable=False, server_default=""))
    op.create_table(
        "seat_claims",
        sa.Column("game_id", sa.String(200), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("position", sa.Integer(), primary_key=True),
        sa.Column("platform", sa.String(40), nullable=False),
        sa.Column("user_id", sa.String(200), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("asked_by", sa.String(200), nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("wrong", sa.Integer(), nullable=False),
    )
    op.create_index("ix_seat_claims_claimant", "seat_claims", ["platform", "user_id"])


def downgrade() -> None:
    op.drop_index("ix_seat_claims_claimant", "seat_claims")
    op.drop_table("seat_claims")
    with op.batch_alter_table("seat_moves") as table:
        table.drop_column("reason")
        table.drop_column("asked_by")
