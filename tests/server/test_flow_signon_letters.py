"""Issue 9.2: every start mail gives the sign-on letter that works, for every power of every variant."""

from __future__ import annotations

import re

import pytest

from app import variants
from app.services.ruleset.powers import PowerBook
from tests.server.conftest import Harness

_SIGNON = re.compile(r"SIGNON (\S+) <your password>")


@pytest.mark.parametrize("variant", variants.available())
def test_each_start_mail_gives_a_letter_that_signs_on(harness: Harness, variant: str) -> None:
    book = PowerBook(harness.judge.variant_data(variant))
    harness.send("gm@example.com", f"CREATE vgame masterpw {variant}\nSET REMINDER 0\nSIGNOFF")
    for number, pid in enumerate(book.ids):
        out = harness.send(f"p{number}@example.com", f"JOIN vgame pw{number} {pid}")
        assert out.status == "done", out
    if not harness.outbox(kind="start"):
        harness.send("gm@example.com", "SIGNON master@vgame masterpw\nSTART")
    starts = harness.outbox(kind="start")
    assert len(starts) == len(book.ids)
    for number, pid in enumerate(book.ids):
        address = f"p{number}@example.com"
        mail = [m for m in starts if m.recipients[0] == address]
        assert len(mail) == 1
        found = _SIGNON.search(mail[0].body_text)
        assert found is not None, mail[0].body_text
        handle = found.group(1)
        assert handle.endswith("vgame") and book.by_letter(handle[: -len("vgame")]) == pid, (variant, pid, handle)
        reply = harness.send(address, f"SIGNON {handle} pw{number}\n")
        assert reply.status == "done"
        assert "Error" not in harness.last_reply(address), harness.last_reply(address)
