"""confirmed opt-in (issue 29): the commands that give an address a seat, a game or a standing
answer wait in ``confirmations`` until the address answers a one-time confirmation mail.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "confirmations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=40), nullable=False),
        sa.Column("address", sa.String(length=320), nullable=False),
        sa.Column("inbound_id", sa.Integer(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.Column("what", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["inbound_id"], ["inbound_messages.id"],
                                name=op.f("fk_confirmations_inbound_id_inbound_messages"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_confirmations")),
        sa.UniqueConstraint("token", name=op.f("uq_confirmations_token")),
    )
    with op.batch_alter_table("confirmations") as batch:
        batch.create_index(batch.f("ix_confirmations_address"), ["address"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("confirmations") as batch:
        batch.drop_index(batch.f("ix_confirmations_address"))
    op.drop_table("confirmations")
