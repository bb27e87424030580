"""GM accounts, their linked games, web sessions and sign-in attempts (the dashboard)

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('gm_accounts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('password_hash', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_sign_in', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_gm_accounts')),
    sa.UniqueConstraint('email', name=op.f('uq_gm_accounts_email'))
    )
    op.create_table('sign_in_attempts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=320), nullable=False),
    sa.Column('client', sa.String(length=100), nullable=False),
    sa.Column('ok', sa.Boolean(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sign_in_attempts'))
    )
    with op.batch_alter_table('sign_in_attempts', schema=None) as batch_op:
        batch_op.create_index('ix_sign_in_attempts_address_at', ['address', 'at'], unique=False)
        batch_op.create_index('ix_sign_in_attempts_client_at', ['client', 'at'], unique=False)

    op.create_table('gm_account_games',
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('linked_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['gm_accounts.id'], name=op.f('fk_gm_account_games_account_id_gm_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_gm_account_games_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('account_id', 'game_id', name=op.f('pk_gm_account_games'))
    )
    op.create_table('web_sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('csrf_token', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['gm_accounts.id'], name=op.f('fk_web_sessions_account_id_gm_accounts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_web_sessions')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_web_sessions_token_hash'))
    )
    with op.batch_alter_table('web_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_web_sessions_account_id'), ['account_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('web_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_web_sessions_account_id'))

    op.drop_table('web_sessions')
    op.drop_table('gm_account_games')
    with op.batch_alter_table('sign_in_attempts', schema=None) as batch_op:
        batch_op.drop_index('ix_sign_in_attempts_client_at')
        batch_op.drop_index('ix_sign_in_attempts_address_at')

    op.drop_table('sign_in_attempts')
    op.drop_table('gm_accounts')
