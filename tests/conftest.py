"""What every test shares: Hypothesis profiles, a cheap password hasher, migrated template
databases, and the grouping of tests that share a server when the suite runs on several
processes (pytest-xdist, `make test`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import databases, hypothesis_profiles, xdist_groups
from tests.support.databases import PostgresTemplate, require_postgres

hypothesis_profiles.load()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "argon2: hash passwords with the production argon2 parameters (slow)")
    config.addinivalue_line("markers", "compiled_engine: runs the compiled engine itself, whatever POSTAL_JUDGE_ENGINE "
                                       "says (`make test` runs it once the engine is built)")
    databases.temporary_files_in_memory()  # before anything makes a temporary file (tests/support/databases.py)
    xdist_groups.start(config)


# ---------------------------------------------------------------------------------- passwords


@pytest.fixture(autouse=True)
def cheap_password_hasher(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Argon2 at its smallest cost (microseconds instead of 45 ms a hash) in this test process,
    except for tests marked ``argon2``. Hashes stay argon2 hashes: a server started by a test
    verifies them with its own, production, hasher."""
    if request.node.get_closest_marker("argon2"):
        return
    from argon2 import PasswordHasher

    from app.services.kernel import security

    monkeypatch.setattr(security, "_HASHER", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))


# ---------------------------------------------------------------------------------- databases


@pytest.fixture(scope="session")
def sqlite_template() -> Path:
    """A SQLite database migrated once per test process; tests copy it (tests.support.databases)."""
    return databases.sqlite_template()


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[PostgresTemplate]:
    """A PostgreSQL database migrated once per test process; tests get copies of it."""
    require_postgres()
    template = PostgresTemplate()
    yield template
    template.drop()


# ---------------------------------------------------------------------------------- pytest-xdist
# Tests that share a module's set-up run in one worker (tests/support/xdist_groups.py).


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    return xdist_groups.make_scheduler(config, log)


def pytest_collection_finish(session: pytest.Session) -> None:
    xdist_groups.publish_groups(session.config, session.items)


def pytest_unconfigure(config: pytest.Config) -> None:
    xdist_groups.finish(config)
