"""dashboard accounts proven by mailbox control: email_codes (one-time codes mailed to an
address) and gm_accounts.proven_at.  Accounts made before this revision were made by a game's
master password, which a forged mail can set: their passwords and sessions are cleared, so each
proves its address once by a mailed code (or is set again with `judge dashboard account`).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "email_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("code_hash", sa.String(length=200), nullable=False),
        sa.Column("client", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_email_codes")),
    )
    with op.batch_alter_table("email_codes") as batch:
        batch.create_index("ix_email_codes_email_created_at", ["email", "created_at"], unique=False)
    with op.batch_alter_table("gm_accounts") as batch:
        batch.add_column(sa.Column("proven_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("DELETE FROM web_sessions")
    op.execute("UPDATE gm_accounts SET password_hash = ''")


def downgrade() -> None:
    with op.batch_alter_table("gm_accounts") as batch:
        batch.drop_column("proven_at")
    with op.batch_alter_table("email_codes") as batch:
        batch.drop_index("ix_email_codes_email_created_at")
    op.drop_table("email_codes")
