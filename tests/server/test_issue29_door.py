"""Issue 29, the mail door: the SPF/DMARC guard reads its own server's verdict and treats
``softfail`` as ``fail`` (item 2); a near-miss of a sign-on never echoes the password (item 8); an
address with a NUL (or a byte that is no UTF-8) is refused at the door (item 10)."""

from __future__ import annotations

import pytest

from app.db import queries
from app.mail.runners.inbound import handle_raw
from tests.server.conftest import Harness, make_mail

OURS = "mx.judge.test"


def _game_exists(harness: Harness, name: str) -> bool:
    with harness.judge.sessions.begin() as db:
        return queries.game_by_name(db, name) is not None


# ----------------------------------------------------------------------------- item 2


@pytest.mark.parametrize(("result", "refused"), [
    ("spf=softfail smtp.mailfrom=gm@example.com", True),
    ("dmarc=fail header.from=example.com", True),
    ("dmarc=none header.from=example.com", False),
    ("dmarc=temperror header.from=example.com", False),
])
def test_create_obeys_the_table_of_verdicts(harness: Harness, result: str, refused: bool) -> None:
    harness.judge.settings.authserv_id = OURS
    harness.send("gm@example.com", "CREATE guarded guardpass1", headers={"Authentication-Results": f"{OURS}; {result}"})
    assert ("failed its domain's SPF or DMARC check" in harness.last_reply("gm@example.com")) is refused
    assert _game_exists(harness, "guarded") is not refused


def test_a_trusted_fail_below_twenty_other_headers_refuses_create(harness: Harness) -> None:
    harness.judge.settings.authserv_id = OURS
    raw = make_mail("gm@example.com", "CREATE guarded guardpass1")
    relays = b"".join(b"Authentication-Results: relay%d.example; dmarc=pass\r\n" % n for n in range(20))
    raw = relays + f"Authentication-Results: {OURS}; dmarc=fail header.from=example.com\r\n".encode() + raw
    handle_raw(harness.judge, raw)
    assert "failed its domain's SPF or DMARC check" in harness.last_reply("gm@example.com")
    assert not _game_exists(harness, "guarded")


# ----------------------------------------------------------------------------- item 8


NEAR_MISSES = ["SIGN-ON Falpha {pw}", "SIGNIN Falpha {pw}", "S1GNON Falpha {pw}", "ＳＩＧＮＯＮ Falpha {pw}",
               "SIGNONFalpha {pw}", "SINGON Falpha {pw}", "LOGINFalpha {pw}", "SIGN IN Falpha {pw}"]


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_a_near_miss_of_a_sign_on_never_echoes_the_password(harness: Harness, line: str) -> None:
    """The line is no command, so it is echoed: its password is masked, in the body and the Subject."""
    line = line.format(pw="Tr0ub4dor")
    sender = harness.judge.settings.admin_address  # of record: a stranger's answer quotes nothing at all (i29a)
    harness.send(sender, line, subject=line)
    (answer,) = harness.outbox(to=sender, kind="reply")
    assert "Tr0ub4dor" not in answer.body_text and "Tr0ub4dor" not in answer.subject
    assert "****" in answer.body_text


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_the_mask_of_a_near_miss(line: str) -> None:
    from app.services.mailout.redact import mask_passwords

    assert mask_passwords(line.format(pw="secret")) == line.format(pw="****")


def test_what_is_not_a_near_miss_stays_shown() -> None:
    from app.services.mailout.redact import mask_passwords

    for line in ("A Par - Bur", "F Nth S A Yor - Bel", "SIGNONFalpha", "Hello, I think we should talk",
                 "A Smy-Con", "JOIN alpha **** France"):
        assert mask_passwords(line) == line


# ----------------------------------------------------------------------------- item 10


@pytest.mark.parametrize("sender", [b"poison14\x00@bad.test", b"poison14\x80@bad.test", b"<poison14\x00@bad.test>",
                                    b"Poison <poison14\x80@bad.test>", "jos\u00e9@bad.test".encode()])
def test_an_address_the_judge_cannot_answer_is_refused_at_the_door(harness: Harness, sender: bytes) -> None:
    """A NUL (which Dovecot delivers as the byte 0x80, read as "€") or any byte that makes no ASCII
    address: the mail is recorded, nothing is run, no answer is queued (it would fail in the outbox)."""
    from sqlalchemy import select

    from app.db.models import InboundMessage

    raw = b"From: " + sender + b"\r\nTo: judge@judge.test\r\nSubject: hi\r\nMessage-ID: <p14@bad.test>\r\n\r\nHELP\r\n"
    outcome = handle_raw(harness.judge, raw)
    assert outcome.status == "ignored"
    assert harness.outbox() == []
    with harness.judge.sessions.begin() as db:
        (row,) = db.scalars(select(InboundMessage)).all()
        assert row.status == "ignored" and row.error and ("control character" in row.error or "ASCII" in row.error)
