"""Issue 26 item 2 (the send path): a header line written straight (``header_line``) is the one the
email package writes (parse into its header classes, fold with the SMTP policy), for every value
it takes the short way, and for the others it is the package's own."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from email.utils import format_datetime

import pytest

from app.mail.reading import messages
from app.mail.reading.messages import _POLICY, header_line

NAMES = ["From", "To", "Reply-To", "Subject", "Date", "Message-ID", "In-Reply-To", "References",
         "Auto-Submitted", "X-Auto-Response-Suppress", "List-Id", "List-Unsubscribe"]


def _outcome(write: object, name: str, value: str) -> bytes | str:
    """The line written, or the name of the exception raised (a value the package cannot parse)."""
    try:
        return write(name, value)  # type: ignore[operator,no-any-return]
    except Exception as exc:
        return type(exc).__name__


def _package(name: str, value: str) -> bytes:
    return _POLICY.fold_binary(*_POLICY.header_store_parse(name, value))


def _values(rng: random.Random) -> list[str]:
    printable = [chr(c) for c in range(33, 127)]
    values = []
    for _ in range(1500):
        length = rng.randrange(1, 110)
        words = "".join(rng.choice(printable + [" "] * 8) for _ in range(length))
        values.append(words)
        values.append(" ".join(words.split()))
    for _ in range(500):
        local = rng.choice(["p1", "judge+u-abc234", "a.b", "a..b", ".a", "x_y-z", "o'hara", "a(b)", '"q"'])
        domain = rng.choice(["players.test", "judge.test", "a-b.c.d", "x..y", "-x.test", "[127.0.0.1]"])
        values += [f"{local}@{domain}", f"<{local}@{domain}>", f"Name <{local}@{domain}>",
                   f"Game alpha <{domain}>", f"<mailto:{local}@{domain}?subject=unsubscribe>"]
    start = datetime(1999, 1, 1, tzinfo=UTC)
    for n in range(300):
        moment = start + timedelta(seconds=rng.randrange(10**9))
        if n % 3 == 1:
            moment = moment.astimezone(timezone(timedelta(minutes=rng.randrange(-720, 721, 15))))
        values.append(format_datetime(moment.replace(tzinfo=None) if n % 3 == 2 else moment))
    values += ["=?utf-8?q?caf=C3=A9?=", "Résultats", "x" * 76, "x" * 77, "a  b", " lead", "trail "]
    return values


@pytest.mark.parametrize("name", NAMES)
def test_a_header_written_straight_is_the_email_package_s(name: str) -> None:
    for value in _values(random.Random(name)):
        assert _outcome(header_line, name, value) == _outcome(_package, name, value), (name, value)


def test_the_judge_s_usual_headers_take_the_short_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """A results mail's headers never go through the header classes (the point of ``header_line``)."""
    class Refused:
        def __getattr__(self, name: str) -> object:
            raise AssertionError("parsed")

    monkeypatch.setattr(messages, "_POLICY", Refused())
    for name, value in [("From", "judge@judge.test"), ("To", "p3@players.test"),
                        ("Subject", "Diplomacy results alpha S1901M"), ("Date", format_datetime(datetime.now(UTC))),
                        ("Message-ID", "<r12.3@judge.test>"), ("Auto-Submitted", "auto-generated"),
                        ("List-Id", "Game alpha <alpha.games.judge.test>"),
                        ("List-Unsubscribe", "<mailto:judge+u-abc234@judge.test?subject=unsubscribe>")]:
        assert header_line(name, value) == f"{name}: {value}\r\n".encode()
