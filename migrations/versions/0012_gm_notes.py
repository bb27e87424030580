"""the GM's notes for the next results are rows (gm_notes), not a key in a game's options: the
notes a game keeps in ``games.settings["notes"]`` move to the table (and back on a downgrade).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

_GAMES = sa.table("games", sa.column("id", sa.Integer), sa.column("settings", sa.JSON))
_NOTES = sa.table("gm_notes", sa.column("id", sa.Integer), sa.column("game_id", sa.Integer),
                  sa.column("text", sa.Text), sa.column("created_at", sa.DateTime(timezone=True)))


def _settings(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        value = json.loads(value)
    return dict(value or {})


def upgrade() -> None:
    op.create_table(
        "gm_notes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_gm_notes_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gm_notes")),
    )
    with op.batch_alter_table("gm_notes") as batch:
        batch.create_index(batch.f("ix_gm_notes_game_id"), ["game_id"], unique=False)
    bind = op.get_bind()
    for game_id, value in bind.execute(sa.select(_GAMES.c.id, _GAMES.c.settings)).all():
        settings = _settings(value)
        notes = settings.pop("notes", None)
        if notes is None:
            continue
        now = sa.func.now()
        for note in notes if isinstance(notes, list) else [notes]:
            bind.execute(_NOTES.insert().values(game_id=game_id, text=str(note), created_at=now))
        bind.execute(_GAMES.update().where(_GAMES.c.id == game_id).values(settings=settings))


def downgrade() -> None:
    bind = op.get_bind()
    rows = bind.execute(sa.select(_NOTES.c.game_id, _NOTES.c.text).order_by(_NOTES.c.id)).all()
    by_game: dict[int, list[str]] = {}
    for game_id, text in rows:
        by_game.setdefault(game_id, []).append(text)
    for game_id, notes in by_game.items():
        value = bind.execute(sa.select(_GAMES.c.settings).where(_GAMES.c.id == game_id)).scalar_one()
        settings = _settings(value)
        settings["notes"] = [*settings.get("notes", []), *notes]
        bind.execute(_GAMES.update().where(_GAMES.c.id == game_id).values(settings=settings))
    with op.batch_alter_table("gm_notes") as batch:
        batch.drop_index(batch.f("ix_gm_notes_game_id"))
    op.drop_table("gm_notes")
