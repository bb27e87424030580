"""The tests' PostgreSQL databases (tests/support/databases.py): each test's database holds what
its template holds, whatever the test before it left there."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from tests.support.databases import PostgresTemplate, require_postgres


def _connect(url: str) -> Any:
    return psycopg.connect(url.replace("+psycopg", ""), autocommit=True)


def _audit_row(url: str, actor: str) -> int:
    with _connect(url) as conn:
        row = conn.execute("INSERT INTO audit_log (actor, action, detail, created_at) "
                           "VALUES (%s, 'test', '{}', now()) RETURNING id", (actor,)).fetchone()
        return int(row[0])


def _contents(url: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    with _connect(url) as conn:
        return (conn.execute("SELECT id, actor FROM audit_log ORDER BY id").fetchall(),
                conn.execute("SELECT name FROM judge_state ORDER BY name").fetchall())


@pytest.fixture(scope="module")
def template() -> Iterator[PostgresTemplate]:
    """A template that holds two audit rows (its id sequence moved on) and a server value."""
    require_postgres()

    def prepare(url: str) -> None:
        _audit_row(url, "first")
        _audit_row(url, "second")
        with _connect(url) as conn:
            conn.execute("INSERT INTO judge_state (name, value) VALUES ('last_tick', now())")

    made = PostgresTemplate(prepare=prepare)
    yield made
    made.drop()


def test_the_next_test_gets_the_same_database_put_back_as_the_template_holds_it(template: PostgresTemplate) -> None:
    with template.copy() as url:
        first = url
        held = _contents(url)
        assert held == ([(1, "first"), (2, "second")], [("last_tick",)])
        assert _audit_row(url, "mine") == 3
        with _connect(url) as conn:
            conn.execute("DELETE FROM judge_state")
            conn.execute("DELETE FROM audit_log WHERE id = 1")
        left_open = _connect(url)  # a connection the test forgot, inside a transaction
        left_open.execute("BEGIN")
        left_open.execute("SELECT * FROM audit_log FOR UPDATE")
    with template.copy() as url:
        assert url == first  # put back, not copied again
        assert _contents(url) == held
        assert _audit_row(url, "next") == 3  # the ids go on from the template's
    left_open.close()


def test_two_databases_at_once_are_two_copies(template: PostgresTemplate) -> None:
    with template.copy() as one, template.copy() as two:
        assert one != two
        _audit_row(one, "only in one")
        assert _contents(two)[0] == [(1, "first"), (2, "second")]
