"""a mail waits for its map out of the drain's queue: the status ``waiting`` (mails whose map is
not drawn yet), released by the painter by map (``ix_outbound_messages_waiting``), so that a lease
reads only the mails it can send.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

WAITING = sa.text("status = 'waiting'")


def upgrade() -> None:
    op.create_index("ix_outbound_messages_waiting", "outbound_messages", ["map_id"], unique=False,
                    postgresql_where=WAITING, sqlite_where=WAITING)
    op.execute("UPDATE outbound_messages SET status = 'waiting' WHERE status = 'pending' "
               "AND map_id IN (SELECT id FROM map_images WHERE png IS NULL)")


def downgrade() -> None:
    op.execute("UPDATE outbound_messages SET status = 'pending' WHERE status = 'waiting'")
    op.drop_index("ix_outbound_messages_waiting", table_name="outbound_messages")
