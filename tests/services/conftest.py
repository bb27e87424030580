"""The services tests reuse the server harness: a migrated SQLite database, the real engine, a clock."""

from tests.server.conftest import (
    database_url,
    harness,
    postgres_started_template,
    sqlite_started_template,
    started,
)

__all__ = ["database_url", "harness", "postgres_started_template", "sqlite_started_template", "started"]
