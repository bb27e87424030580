"""the leases that ran out are found in a partial index of the mails being sent
(``ix_outbound_messages_sending``: ``lease_until`` where ``status = 'sending'``) instead of
``ix_outbound_messages_due`` (``status, next_try`` over every mail): the drain's query of expired
leases reads an index of the few mails in flight (it walked every mail of the table in id order),
and a mail's other changes of status (queued, released, sent) no longer update an index over
every mail (the pending mails are read from ``ix_outbound_messages_pending``).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

SENDING = sa.text("status = 'sending'")


def upgrade() -> None:
    op.create_index("ix_outbound_messages_sending", "outbound_messages", ["lease_until"], unique=False,
                    postgresql_where=SENDING, sqlite_where=SENDING)
    op.drop_index("ix_outbound_messages_due", table_name="outbound_messages")


def downgrade() -> None:
    op.create_index("ix_outbound_messages_due", "outbound_messages", ["status", "next_try"], unique=False)
    op.drop_index("ix_outbound_messages_sending", table_name="outbound_messages")
