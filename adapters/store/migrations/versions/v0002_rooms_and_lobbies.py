"""Where each game is played (platform and room, for several workers) and stored lobbies.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("platform", sa.String(40), nullable=True))
        batch.add_column(sa.Column("room", sa.String(200), nullable=True))
    op.create_index("ix_games_room", "games", ["platform", "room", "status"])
    _fill_rooms()
    op.create_table(
        "lobbies",
        sa.Column("platform", sa.String(40), primary_key=True),
        sa.Column("room", sa.String(200), primary_key=True),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def _fill_rooms() -> None:
    """Games stored before this revision keep their platform and room in their options."""
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        sa.column("options", sa.Text),
        sa.column("platform", sa.String),
        sa.column("room", sa.String),
    )
    connection = op.get_bind()
    for game_id, options in connection.execute(sa.select(games.c.id, games.c.options)).all():
        try:
            data = json.loads(options)
        except ValueError:
            continue  # the audit names an unreadable game; the migration leaves it as it is
        if not isinstance(data, dict) or "platform" not in data or "room" not in data:
            continue
        connection.execute(
            sa.update(games)
            .where(games.c.id == game_id)
            .values(platform=str(data["platform"])[:40], room=str(data["room"])[:200])
        )


def downgrade() -> None:
    op.drop_table("lobbies")
    op.drop_index("ix_games_room", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("room")
        batch.drop_column("platform")
