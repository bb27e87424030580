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
