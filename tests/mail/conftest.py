"""Fixtures of the mail tests: the real dovecot + SMTP servers for the integration tests."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support.mail_services import (
    MailServices,
    services_running,
    skip_reason,
    start_mail_services,
    stop_mail_services,
)


@pytest.fixture(scope="session")
def mail_services() -> Iterator[MailServices]:
    """dovecot on 127.0.0.1:10143 and the test SMTP server on 127.0.0.1:10025 (ports 200 up for
    each further xdist worker: tests/support/xdist_groups.py `mail_ports`).

    Skipped only where they cannot run at all (not root and dovecot missing, or no
    apt-get); under CI that is a failure, never a skip.
    """
    reason = skip_reason()
    if reason is not None:
        print(f"\nmail integration tests skipped: {reason}")
        if os.environ.get("CI"):
            pytest.fail(f"real mail servers are required in CI: {reason}")
        pytest.skip(reason=reason)
    was_running = services_running()
    services = start_mail_services()
    yield services
    if not was_running:
        stop_mail_services()
