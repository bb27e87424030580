"""Migrated test databases, fast: the migrations run once per test process into a template, and
each test gets a copy of it (never used in production).

SQLite: the template is a file, a test's database a copy of it (well under a millisecond, where
an Alembic upgrade takes 0.1-0.2 s). PostgreSQL: a randomly named template database (other users
share the server, so every name is random), and each test a database made from it: the first a
``CREATE DATABASE ... TEMPLATE`` of it, each later one the same database put back as the template
holds it (every table emptied and the template's rows copied back in, the sequences set back).

A template can also hold what many tests set up the same way (``prepare``: the started game of
tests/server/conftest.py): that set-up then runs once per test process, and each test gets a copy
of its outcome.
"""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import sqlite3
import tempfile
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["PG_ADMIN", "PostgresTemplate", "admin_connect", "copy_sqlite", "drop_database", "migrate",
           "migrated_sqlite", "no_wait_for_disk", "postgres_url", "prepared_sqlite", "require_postgres",
           "sqlite_template", "temporary_files_in_memory"]

PG_ADMIN = os.environ.get("JUDGE_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


def admin_connect() -> Any:
    import psycopg

    return psycopg.connect(PG_ADMIN.replace("+psycopg", ""), autocommit=True, connect_timeout=5)


def postgres_url(name: str) -> str:
    return PG_ADMIN.rsplit("/", 1)[0] + "/" + name


def drop_database(name: str) -> None:
    with admin_connect() as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def no_wait_for_disk(conn: Any, name: str) -> None:
    """A test database needs no durability: its commits do not wait for the disk
    (``synchronous_commit = off``; the statements, transactions and what other sessions see are
    the same). A setting of the database: every session on it, a `judge serve` the test starts
    included."""
    conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')


def require_postgres() -> None:
    """Skip the test when there is no PostgreSQL to test on; under CI that is a failure."""
    import pytest

    try:
        with admin_connect() as conn:
            conn.execute("SELECT 1")
    except Exception as error:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL on 127.0.0.1:5432 is required in CI: {error}")
        pytest.skip(reason=f"PostgreSQL on 127.0.0.1:5432 is not available: {error}")


# ---------------------------------------------------------------------------------- SQLite

MEMORY = Path("/dev/shm")
MEMORY_NEEDED = 2 * 2**30  # bytes free: a run's temporary files take some 100 MB (pytest keeps three runs')


def temporary_files_in_memory() -> Path | None:
    """Temporary files in memory (tmpfs ``/dev/shm``), unless ``TMPDIR`` says where, or there is no
    such file system with room to spare: every test's ``tmp_path``, the SQLite databases among them,
    and those of the processes the tests start (``TMPDIR`` is inherited). A SQLite commit waits for
    the disk (fsync, about a millisecond, more when other processes write); in memory it does not.
    Returns the folder chosen, or None."""
    if os.environ.get("TMPDIR"):
        return None
    try:
        free = os.statvfs(MEMORY)
    except OSError:
        return None
    if free.f_bavail * free.f_frsize < MEMORY_NEEDED or not os.access(MEMORY, os.W_OK | os.X_OK):
        return None
    os.environ["TMPDIR"] = str(MEMORY)
    tempfile.tempdir = None  # read again from TMPDIR
    return MEMORY



def migrated_sqlite(path: Path) -> Path:
    """A database file at ``path`` brought to the head revision, its write-ahead log folded in
    (so that the file alone is the whole database)."""
    from app.db.migrate import upgrade

    upgrade(f"sqlite:///{path}")
    return _fold_wal(path)


def prepared_sqlite(template: Path, path: Path, prepare: Callable[[str], None]) -> Path:
    """A template at ``path``: a copy of ``template`` after ``prepare(url)`` ran on it (which must
    close its connections), its write-ahead log folded in."""
    prepare(copy_sqlite(template, path))
    return _fold_wal(path)


def _fold_wal(path: Path) -> Path:
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return path


_template: Path | None = None


def sqlite_template() -> Path:
    """This process's migrated SQLite template (made on first use, removed at exit)."""
    global _template
    if _template is None:
        folder = Path(tempfile.mkdtemp(prefix="judge-template-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _template = migrated_sqlite(folder / "judge.sqlite3")
    return _template


def migrate(url: str) -> None:
    """Bring the database at ``url`` to the head revision: a new SQLite file is a copy of the
    template, anything else is upgraded (a no-op on a copy of a template)."""
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        if not path.exists():
            copy_sqlite(sqlite_template(), path)
            return
    from app.db.migrate import upgrade

    upgrade(url)


def copy_sqlite(template: Path, path: Path) -> str:
    """A copy of the migrated ``template`` at ``path``; returns its URL."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, path)
    return f"sqlite:///{path}"


# ---------------------------------------------------------------------------------- PostgreSQL


class PostgresTemplate:
    """A migrated template database; ``copy()`` yields the URL of a database that holds what the
    template holds. Given ``based_on`` and ``prepare``: a copy of that template after
    ``prepare(url)`` ran on it (which must close its connections).

    A test's database is made, or put back for the next test, by a thread of its own while a
    test runs (the test need not wait for it). Putting back: whoever is still connected is
    disconnected, every table emptied and the template's rows copied back in (foreign keys
    unchecked while they are: ``session_replication_role = replica``), each sequence set where the
    template's is. A database that cannot be put back is dropped and a new copy made."""

    def __init__(self, based_on: PostgresTemplate | None = None, prepare: Callable[[str], None] | None = None) -> None:
        from app.db.migrate import upgrade

        self.name = f"judge_tpl_{secrets.token_hex(6)}"
        with admin_connect() as conn:
            if based_on is None:
                conn.execute(f'CREATE DATABASE "{self.name}"')
            else:
                conn.execute(f'CREATE DATABASE "{self.name}" TEMPLATE "{based_on.name}"')
            no_wait_for_disk(conn, self.name)
        try:
            if based_on is None:
                upgrade(postgres_url(self.name))
            if prepare is not None:
                prepare(postgres_url(self.name))
            with admin_connect() as conn:  # nobody may be connected to a template while it is copied
                conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                             (self.name,))
            self._tables, self._rows, self._sequences = _contents(self.name)
        except BaseException:
            drop_database(self.name)
            raise
        self._jobs = ThreadPoolExecutor(max_workers=1, thread_name_prefix="postgres-template")
        self._ready: deque[Future[str]] = deque([self._jobs.submit(self.create)])

    def create(self) -> str:
        """A new database copied from the template; returns its name."""
        name = f"judge_e2e_{secrets.token_hex(6)}"
        with admin_connect() as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{self.name}"')
            no_wait_for_disk(conn, name)
        return name

    def put_back(self, name: str) -> str:
        """Database ``name``, used by a test, made to hold what the template holds again (or, when
        that fails, a new copy); returns its name."""
        import psycopg

        try:
            with admin_connect() as conn:
                conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
            with psycopg.connect(postgres_url(name).replace("+psycopg", ""), connect_timeout=5) as conn:
                conn.execute("SET session_replication_role = replica")
                conn.execute("TRUNCATE " + ", ".join(f'"{t}"' for t in self._tables) + " RESTART IDENTITY")
                with conn.cursor() as cursor:
                    for table, rows in self._rows.items():
                        with cursor.copy(f'COPY "{table}" FROM STDIN') as copy:
                            copy.write(rows)
                    for sequence, value in self._sequences:
                        cursor.execute("SELECT setval(%s, %s, %s)", (sequence, value or 1, value is not None))
            return name
        except Exception:
            drop_database(name)
            return self.create()

    @contextmanager
    def copy(self) -> Iterator[str]:
        ready = self._ready.popleft() if self._ready else self._jobs.submit(self.create)
        name = ready.result()
        try:
            yield postgres_url(name)
        finally:
            self._ready.append(self._jobs.submit(self.put_back, name))

    def drop(self) -> None:
        self._jobs.shutdown(wait=True)
        for ready in self._ready:
            if ready.exception() is None:
                drop_database(ready.result())
        drop_database(self.name)


def _contents(name: str) -> tuple[list[str], dict[str, bytes], list[tuple[str, int | None]]]:
    """Of database ``name``: its tables (but ``alembic_version``, which no test changes), the rows
    of those that have any (``COPY`` text), and its sequences with their last values."""
    import psycopg

    with psycopg.connect(postgres_url(name).replace("+psycopg", ""), autocommit=True, connect_timeout=5) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version' "
            "ORDER BY tablename")]
        rows: dict[str, bytes] = {}
        with conn.cursor() as cursor:
            for table in tables:
                with cursor.copy(f'COPY "{table}" TO STDOUT') as copy:
                    data = b"".join(bytes(block) for block in copy)
                if data:
                    rows[table] = data
        sequences = [(f"public.{row[0]}", row[1]) for row in conn.execute(
            "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public'")]
    return tables, rows, sequences
