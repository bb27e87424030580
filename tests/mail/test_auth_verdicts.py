"""The SPF/DMARC guard (issue 29 item 2): the judge reads only its own mail server's
``Authentication-Results`` (the topmost run with ``JUDGE_AUTHSERV_ID``), every one of them, and
gives each result an explicit verdict (docs/commands.md, "Forged mail")."""

from __future__ import annotations

import pytest

from app.mail.reading.auth_results import AuthVerdict, sender_authentication, sender_failed_authentication
from app.mail.reading.messages import parse_message

OURS = "mail.judge.test"
SENDER = "france@example.com"


@pytest.mark.parametrize(("results", "verdict"), [
    ("dmarc=pass header.from=example.com", AuthVerdict.PASS),
    ("spf=pass smtp.mailfrom=bounce@mail.example.com", AuthVerdict.PASS),  # aligned (a subdomain)
    ("dkim=pass header.d=example.com", AuthVerdict.PASS),
    ("dmarc=fail (p=none) header.from=example.com", AuthVerdict.FAIL),
    ("spf=fail smtp.mailfrom=france@example.com", AuthVerdict.FAIL),
    ("spf=softfail smtp.mailfrom=france@example.com", AuthVerdict.FAIL),
    ("spf=softfail smtp.mailfrom=france@example.com; dmarc=pass header.from=example.com", AuthVerdict.PASS),
    ("dmarc=none header.from=example.com", AuthVerdict.UNPROVEN),
    ("spf=none smtp.mailfrom=france@example.com", AuthVerdict.UNPROVEN),
    ("spf=neutral smtp.mailfrom=france@example.com", AuthVerdict.UNPROVEN),
    ("dmarc=permerror header.from=example.com", AuthVerdict.UNPROVEN),
    ("dmarc=temperror header.from=example.com", AuthVerdict.UNPROVEN),
    ("spf=pass smtp.mailfrom=bounce@other.org", AuthVerdict.UNPROVEN),  # not aligned
    ("dkim=pass header.d=other.org", AuthVerdict.UNPROVEN),
    ("spf=fail smtp.mailfrom=bounce@other.org", AuthVerdict.UNPROVEN),  # another domain's failure
])
def test_each_result_has_a_verdict(results: str, verdict: AuthVerdict) -> None:
    assert sender_authentication([f"{OURS}; {results}"], OURS, SENDER) == verdict
    assert sender_failed_authentication([f"{OURS}; {results}"], OURS, SENDER) is (verdict == AuthVerdict.FAIL)


def test_no_header_of_ours_is_unproven_and_no_setting_is_unchecked() -> None:
    assert sender_authentication([], OURS, SENDER) == AuthVerdict.UNPROVEN
    assert sender_authentication(["other.example; dmarc=pass header.from=example.com"], OURS, SENDER) \
        == AuthVerdict.UNPROVEN
    assert sender_authentication([f"{OURS}; dmarc=fail"], "", SENDER) == AuthVerdict.UNCHECKED


def test_a_pass_below_another_servers_header_was_written_by_the_sender() -> None:
    """Our server's headers are on top; one with our id further down proves nothing..."""
    forged = [f"{OURS}; dmarc=none header.from=example.com", "relay.example; spf=pass",
              f"{OURS}; dmarc=pass header.from=example.com"]
    assert sender_authentication(forged, OURS, SENDER) == AuthVerdict.UNPROVEN
    assert sender_authentication(forged[1:], OURS, SENDER) == AuthVerdict.UNPROVEN
    # ...but the topmost run of ours counts, however many headers it has
    assert sender_authentication(forged[:1] + forged[2:], OURS, SENDER) == AuthVerdict.PASS


def test_a_trusted_fail_below_twenty_other_headers_still_refuses() -> None:
    headers = "".join(f"Authentication-Results: relay{n}.example; dmarc=pass header.from=example.com\r\n"
                      for n in range(20))
    raw = (f"Authentication-Results: {OURS}; dmarc=pass header.from=example.com\r\n{headers}"
           f"Authentication-Results: {OURS}; dmarc=fail header.from=example.com\r\n"
           f"From: {SENDER}\r\nTo: judge@judge.test\r\nSubject: x\r\n\r\nHELP\r\n").encode()
    mail = parse_message(raw)
    assert len(mail.auth_results) == 22
    assert sender_authentication(mail.auth_results, OURS, mail.sender) == AuthVerdict.FAIL
