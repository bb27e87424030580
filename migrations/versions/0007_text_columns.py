"""text a person sent is TEXT (issue 19.5): orders.unit, orders.line and orders.order,
players.preferences and players.draw.  PostgreSQL refuses a value longer than a VARCHAR where SQLite
stores it: a 60-character line that is no order overflowed orders.unit and lost the whole mail.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# table -> (column, its old VARCHAR length, nullable)
_COLUMNS = {
    "orders": (("unit", 40, False), ("line", 400, False), ("order", 200, True)),
    "players": (("preferences", 100, False), ("draw", 200, True)),
}


def upgrade() -> None:
    for table, columns in _COLUMNS.items():
        with op.batch_alter_table(table) as batch:
            for column, length, nullable in columns:
                batch.alter_column(column, existing_type=sa.String(length=length), type_=sa.Text(),
                                   existing_nullable=nullable)


def downgrade() -> None:
    """Back to the VARCHARs; a longer value is cut to fit (on PostgreSQL; SQLite keeps it)."""
    for table, columns in _COLUMNS.items():
        with op.batch_alter_table(table) as batch:
            for column, length, nullable in columns:
                batch.alter_column(column, existing_type=sa.Text(), type_=sa.String(length=length),
                                   existing_nullable=nullable, postgresql_using=f'left("{column}", {length})')
