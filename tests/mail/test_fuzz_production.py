"""Issue 19 item 7: the inbound fuzzer's short run through the production shape -- 2,000 generated
mails (hostile headers in every charset, over-long ids and addresses, control characters, lines past
every column) delivered to a real dovecot mailbox and read by the judge's own poller into a real
PostgreSQL database: 0 crashes, 0 stalls, 0 unanswered human mails, 0 duplicate answers.

The long run is by hand: ``python benchmarks/fuzz_inbound.py --long --imap 127.0.0.1:10143
--postgres postgresql+psycopg://postgres@127.0.0.1:5432/postgres --fast-hash``."""

from __future__ import annotations

import logging

import pytest
from argon2 import PasswordHasher

from app.services.kernel import security
from benchmarks.fuzz_imap import ImapTarget
from benchmarks.fuzz_inbound import run_fuzz
from tests.e2e.conftest import PG_ADMIN
from tests.support.mail_services import MailServices

SHORT_RUN = 2000


def test_the_short_fuzz_run_through_imap_and_postgresql(mail_services: MailServices, monkeypatch: pytest.MonkeyPatch,
                                                         postgres_admin: str) -> None:
    # the fuzzer quiets the app's loggers (failures are counted from the database): as they were, after
    monkeypatch.setattr(logging.getLogger("app"), "level", logging.getLogger("app").level)
    # argon2 at its least cost: the same code path, far less CPU per sign-on
    monkeypatch.setattr(security, "_HASHER", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    target = ImapTarget(mail_services.imap_host, mail_services.imap_port, mail_services.domain,
                        mail_services.password)
    figures = run_fuzz(SHORT_RUN, batch=SHORT_RUN, seed=19, imap=target, postgres=postgres_admin)
    report = "\n".join(figures.lines() + figures.examples)
    assert figures.mails == SHORT_RUN and figures.refused == 0, report
    assert figures.human > SHORT_RUN // 2, report
    assert (figures.crashes, figures.stalls, figures.unanswered, figures.duplicate_answers) == (0, 0, 0, 0), report


@pytest.fixture
def postgres_admin() -> str:
    from tests.e2e.conftest import _admin_connect

    try:
        with _admin_connect() as conn:
            conn.execute("SELECT 1")
    except Exception as error:
        import os

        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is required in CI: {error}")
        pytest.skip(reason=f"no PostgreSQL on 127.0.0.1:5432: {error}")
    return PG_ADMIN
