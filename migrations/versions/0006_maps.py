"""maps in mail: map_images (one PNG per rendered phase, keyed by its inputs) and
outbound_messages.map_id (the picture a queued mail carries)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "map_images",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("phase", sa.String(length=12), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("renderer_version", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=40), nullable=False),
        sa.Column("title", sa.String(length=80), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("png", sa.LargeBinary(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_map_images_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_map_images")),
        sa.UniqueConstraint("digest", name=op.f("uq_map_images_digest")),
    )
    with op.batch_alter_table("map_images") as batch:
        batch.create_index(batch.f("ix_map_images_game_id"), ["game_id"], unique=False)
    with op.batch_alter_table("outbound_messages") as batch:
        batch.add_column(sa.Column("map_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(batch.f("fk_outbound_messages_map_id_map_images"), "map_images", ["map_id"], ["id"],
                                 ondelete="SET NULL")


def downgrade() -> None:
    with op.batch_alter_table("outbound_messages") as batch:
        batch.drop_constraint(batch.f("fk_outbound_messages_map_id_map_images"), type_="foreignkey")
        batch.drop_column("map_id")
    with op.batch_alter_table("map_images") as batch:
        batch.drop_index(batch.f("ix_map_images_game_id"))
    op.drop_table("map_images")
