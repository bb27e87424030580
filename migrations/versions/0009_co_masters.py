"""a game's co-GMs: co_masters (issue 28.5; njudge's PROMOTE, vDiplomacy's co-moderators).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "co_masters",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("added_by", sa.String(length=320), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_co_masters_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_co_masters")),
        sa.UniqueConstraint("game_id", "email", name=op.f("uq_co_masters_game_id")),
    )
    with op.batch_alter_table("co_masters") as batch:
        batch.create_index(batch.f("ix_co_masters_game_id"), ["game_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("co_masters") as batch:
        batch.drop_index(batch.f("ix_co_masters_game_id"))
    op.drop_table("co_masters")
