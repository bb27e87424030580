"""the due games are found by an index (issue 26): ``games.grace_until`` is indexed beside
``games.deadline``, so the scheduler's look for due games each tick (``deadline <= now OR
grace_until <= now``) reads the two indexes (a BitmapOr on PostgreSQL), not every game.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04
"""

from __future__ import annotations

from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(op.f("ix_games_grace_until"), "games", ["grace_until"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_games_grace_until"), table_name="games")
