"""contests: a player contests a processed phase's adjudication by mail; the GM answers it

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "contests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=12), nullable=False),
        sa.Column("power", sa.String(length=40), nullable=False),
        sa.Column("address", sa.String(length=320), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("answer", sa.Text(), nullable=True),
        sa.Column("answered_by", sa.String(length=320), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_contests_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_contests")),
    )
    with op.batch_alter_table("contests") as batch:
        batch.create_index(batch.f("ix_contests_game_id"), ["game_id"], unique=False)
        batch.create_index(batch.f("ix_contests_status"), ["status"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("contests") as batch:
        batch.drop_index(batch.f("ix_contests_status"))
        batch.drop_index(batch.f("ix_contests_game_id"))
    op.drop_table("contests")
