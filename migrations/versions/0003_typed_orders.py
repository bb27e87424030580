"""orders stored parsed: orders.order_json and phases.orders_typed (the codec's order JSON)

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("orders") as batch:
        batch.add_column(sa.Column("order_json", sa.JSON(), nullable=True))
    with op.batch_alter_table("phases") as batch:
        batch.add_column(sa.Column("orders_typed", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("phases") as batch:
        batch.drop_column("orders_typed")
    with op.batch_alter_table("orders") as batch:
        batch.drop_column("order_json")
