"""scripts/mail-services.sh itself: idempotent, reports its state, and its servers do what they say."""

from __future__ import annotations

import smtplib
import time

import pytest
from imapclient import IMAPClient
from imapclient.exceptions import LoginError

from tests.support.mail_services import MailServices


def test_start_is_idempotent_and_status_reports_both(mail_services: MailServices) -> None:
    started = time.monotonic()
    again = mail_services.run("start")
    assert again.returncode == 0, again.stderr
    assert time.monotonic() - started < 10  # nothing reinstalled or restarted
    status = mail_services.run("status")
    assert status.returncode == 0
    assert f"dovecot: running on 127.0.0.1:{mail_services.imap_port}" in status.stdout
    assert f"smtp: running on 127.0.0.1:{mail_services.smtp_port}" in status.stdout


def test_status_says_when_smtp_is_down(mail_services: MailServices) -> None:
    mail_services.smtp_down()
    try:
        status = mail_services.run("status")
        assert status.returncode == 1 and "smtp: stopped" in status.stdout
        with pytest.raises(ConnectionRefusedError):
            smtplib.SMTP(mail_services.smtp_host, mail_services.smtp_port, "localhost", timeout=5)
    finally:
        mail_services.smtp_up()
    assert mail_services.run("status").returncode == 0


def test_any_judge_test_address_logs_in_with_the_test_password(mail_services: MailServices) -> None:
    with IMAPClient(mail_services.imap_host, mail_services.imap_port, ssl=False, timeout=10) as client:
        client.login(mail_services.new_address("anyone"), "secret")
        assert b"IDLE" in client.capabilities()


@pytest.mark.parametrize(("user", "password"), [("x@judge.test", "wrong"), ("x@elsewhere.test", "secret")])
def test_other_logins_are_refused(mail_services: MailServices, user: str, password: str) -> None:
    with (
        IMAPClient(mail_services.imap_host, mail_services.imap_port, ssl=False, timeout=10) as client,
        pytest.raises(LoginError),
    ):
        client.login(user, password)


def test_kick_of_a_user_without_connections_is_harmless(mail_services: MailServices) -> None:
    mail_services.kick(mail_services.new_address("nobody"))
