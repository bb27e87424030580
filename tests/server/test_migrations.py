"""The schema comes only from the migrations, and they agree with the models."""

from __future__ import annotations

import os

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from app.db import models, models_web  # noqa: F401
from app.db.base import Base
from app.db.session import make_engine


def _diff(url: str) -> list[object]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return list(compare_metadata(context, Base.metadata))
    finally:
        engine.dispose()


def test_models_match_migrations_sqlite(database_url: str) -> None:
    assert _diff(database_url) == []


def test_models_match_migrations_postgresql() -> None:
    from app.db.migrate import upgrade
    from tests.e2e.conftest import create_database, database_url, drop_database

    try:
        name = create_database()
    except Exception as error:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is required in CI: {error}")
        pytest.skip(reason=f"no PostgreSQL: {error}")
    try:
        upgrade(database_url(name))
        assert _diff(database_url(name)) == []
    finally:
        drop_database(name)


def test_the_gms_notes_move_from_the_options_to_their_table_and_back(tmp_path: object) -> None:
    """Issue 27.3: a game stored with ``settings["notes"]`` loads; the migration moves its notes to
    ``gm_notes`` (and a downgrade moves them back)."""
    import json
    from pathlib import Path

    from alembic import command
    from sqlalchemy import text

    from app.db.migrate import alembic_config, upgrade

    assert isinstance(tmp_path, Path)
    url = f"sqlite:///{tmp_path / 'notes.db'}"
    upgrade(url, "0011")
    engine = make_engine(url)
    try:
        with engine.begin() as db:
            db.execute(text("INSERT INTO games (id, name, variant, status, master_email, master_password_hash, press, "
                            "settings, version, created_at) VALUES (1, 'alpha', 'standard', 'active', 'gm@x', 'h', "
                            "'white', :settings, 0, '2026-12-04 20:00:00')"),
                       {"settings": json.dumps({"nmr": "hold", "notes": ["first", "second"]})})
        upgrade(url)
        with engine.connect() as db:
            assert db.execute(text("SELECT game_id, text FROM gm_notes ORDER BY id")).all() == [
                (1, "first"), (1, "second")]
            assert json.loads(db.execute(text("SELECT settings FROM games")).scalar_one()) == {"nmr": "hold"}
        command.downgrade(alembic_config(url), "0011")
        with engine.connect() as db:
            assert json.loads(db.execute(text("SELECT settings FROM games")).scalar_one()) == {
                "nmr": "hold", "notes": ["first", "second"]}
    finally:
        engine.dispose()
