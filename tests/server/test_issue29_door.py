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
