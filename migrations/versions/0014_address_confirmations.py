"""a seat (or a game) pointed at another address waits for that address's confirmation (issue 29
item 1): ``confirmations`` also hold address changes (SET ADDRESS, REPLACE, DOD3 SEAT), which come
from no waiting mail (the dashboard's) and name the seat, the game and who asked.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("confirmations") as batch:
        batch.alter_column("inbound_id", existing_type=sa.Integer(), nullable=True)
        batch.add_column(sa.Column("game_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("player_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("asked_by", sa.String(length=320), nullable=True))
        batch.add_column(sa.Column("secret", sa.String(length=255), nullable=True))
        batch.add_column(sa.Column("detail", sa.String(length=40), nullable=True))
        batch.create_foreign_key(batch.f("fk_confirmations_game_id_games"), "games", ["game_id"], ["id"],
                                 ondelete="CASCADE")
        batch.create_foreign_key(batch.f("fk_confirmations_player_id_players"), "players", ["player_id"], ["id"],
                                 ondelete="CASCADE")
        batch.create_index(batch.f("ix_confirmations_asked_by"), ["asked_by"], unique=False)


def downgrade() -> None:
    op.execute("DELETE FROM confirmations WHERE inbound_id IS NULL")
    with op.batch_alter_table("confirmations") as batch:
        batch.drop_index(batch.f("ix_confirmations_asked_by"))
        batch.drop_constraint(batch.f("fk_confirmations_player_id_players"), type_="foreignkey")
        batch.drop_constraint(batch.f("fk_confirmations_game_id_games"), type_="foreignkey")
        batch.drop_column("detail")
        batch.drop_column("secret")
        batch.drop_column("asked_by")
        batch.drop_column("player_id")
        batch.drop_column("game_id")
        batch.alter_column("inbound_id", existing_type=sa.Integer(), nullable=False)
