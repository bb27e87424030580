"""mail as clients thread and filter it (issue 30.8), a one-time address that stops a seat's mail
(issue 29.1): players.leave_token, outbound_messages.thread_refs and .unsubscribe.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _token() -> str:
    return "".join(secrets.choice("abcdefghijkmnpqrstuvwxyz23456789") for _ in range(20))


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("leave_token", sa.String(length=40), nullable=True))
    players = sa.table("players", sa.column("id", sa.Integer()), sa.column("leave_token", sa.String(length=40)))
    connection = op.get_bind()
    for (player_id,) in connection.execute(sa.select(players.c.id)).all():  # every seat has its token
        connection.execute(players.update().where(players.c.id == player_id).values(leave_token=_token()))
    with op.batch_alter_table("players") as batch:
        batch.create_unique_constraint(batch.f("uq_players_leave_token"), ["leave_token"])
    with op.batch_alter_table("outbound_messages") as batch:
        batch.add_column(sa.Column("thread_refs", sa.Text(), nullable=True))
        batch.add_column(sa.Column("unsubscribe", sa.String(length=320), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbound_messages") as batch:
        batch.drop_column("unsubscribe")
        batch.drop_column("thread_refs")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint(batch.f("uq_players_leave_token"), type_="unique")
        batch.drop_column("leave_token")
