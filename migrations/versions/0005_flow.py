"""game flow: players.missed_in_row (consecutive missed deadlines), phases.opening (the seats and
settings when the phase opened) and phases.advance_orders (orders given in advance, kept at processing)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("missed_in_row", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("phases") as batch:
        batch.add_column(sa.Column("opening", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("advance_orders", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("phases") as batch:
        batch.drop_column("advance_orders")
        batch.drop_column("opening")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("missed_in_row")
