"""what a turn writes compressed by lz4 on PostgreSQL (issue 26): a results mail's text (4 to 5 kB,
and the zine's HTML) is over PostgreSQL's TOAST threshold, so every row a turn queues was
compressed by pglz (as were the phase's results text and positions, and the map's), about a tenth of the database's CPU a turn (8 mails: 0.6 ms with pglz, 0.4 ms
with lz4, measured on PostgreSQL 15), and again decompressed by the drain.  lz4 does both in a
fraction of the time.  A server built without lz4 keeps pglz; SQLite has no such thing.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04
"""

from __future__ import annotations

from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

_COLUMNS = {  # what a turn writes over the threshold: the mails, the phase (its results text and positions), the map
    "outbound_messages": ("body_text", "body_html"),
    "phases": ("results_text", "state_before", "state_after", "results", "opening", "orders_typed"),
    "map_images": ("state", "result"),
}


def _lz4_available() -> bool:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return False
    found = bind.exec_driver_sql("SELECT 'lz4' = ANY(enumvals) FROM pg_settings "
                                 "WHERE name = 'default_toast_compression'").scalar()
    return bool(found)


def _compress(method: str) -> None:
    if not _lz4_available():
        return
    for table, columns in _COLUMNS.items():
        for column in columns:
            op.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION {method}")


def upgrade() -> None:
    _compress("lz4")


def downgrade() -> None:
    _compress("pglz")
