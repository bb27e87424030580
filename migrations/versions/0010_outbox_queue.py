"""the drain's queue stays fast as the outbox grows: the pending mails by id, and the maps not
drawn yet, each in a partial index (a lease and a painter's pick read only what is waiting, not
every mail ever sent and every map ever drawn).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

PENDING = sa.text("status = 'pending'")
UNDRAWN = sa.text("png IS NULL")


def upgrade() -> None:
    op.create_index("ix_outbound_messages_pending", "outbound_messages", ["id"], unique=False,
                    postgresql_where=PENDING, sqlite_where=PENDING)
    op.create_index("ix_map_images_undrawn", "map_images", ["id"], unique=False,
                    postgresql_where=UNDRAWN, sqlite_where=UNDRAWN)


def downgrade() -> None:
    op.drop_index("ix_map_images_undrawn", table_name="map_images")
    op.drop_index("ix_outbound_messages_pending", table_name="outbound_messages")
