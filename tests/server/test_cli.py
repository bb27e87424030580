"""`judge mail send`, `judge game create`, `judge mail read` in embedded mode."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from app.cli import main
from app.server_cli import build_mail


def test_build_mail_wraps_a_plain_body() -> None:
    raw = build_mail(b"SIGNON Fgame pw\nA Par-Bur\n", "me@example.com", "judge@judge.test", "orders")
    assert b"From: me@example.com" in raw and b"A Par-Bur" in raw and b"Message-ID:" in raw


def test_build_mail_keeps_a_full_message() -> None:
    raw = build_mail(b"Subject: hi\nFrom: a@b.c\n\nLIST\n", "me@example.com", "judge@judge.test", "x")
    assert b"From: a@b.c" in raw and b"To: judge@judge.test" in raw


def test_game_create_and_mail_send(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("JUDGE_DATABASE_URL", f"sqlite:///{tmp_path / 'j.sqlite3'}")
    monkeypatch.setenv("JUDGE_MAILDIR_INBOX", str(tmp_path / "in"))
    monkeypatch.setenv("JUDGE_MAILDIR_OUTBOX", str(tmp_path / "out"))
    players = [f"--player={p}={p.lower()}@example.com:pw" for p in
               ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")]
    assert main(["game", "create", "demo", "--master", "gm@example.com", "--password", "gm", *players]) == 0
    assert "has started" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"SIGNON Fdemo pw\nA Par-Bur\n")))
    assert main(["mail", "send", "--from", "france@example.com"]) == 0
    assert len(list((tmp_path / "in" / "new").iterdir())) == 1
    assert main(["mail", "read", "france@example.com"]) == 0
    assert "no mail" in capsys.readouterr().out


def test_mail_read_shows_no_empty_reply_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21 item 11: a mail without a Reply-To (the GM's, a resent one) is shown without an
    empty ``Reply-To:`` line; a player's mail shows its personal reply address."""
    from app.mail.maildir import mailbox_for
    from app.mail.reading.messages import OutgoingMail, render_message

    monkeypatch.setenv("JUDGE_DATABASE_URL", f"sqlite:///{tmp_path / 'j.sqlite3'}")
    monkeypatch.setenv("JUDGE_MAILDIR_OUTBOX", str(tmp_path / "out"))
    for address, reply_to in (("gm@example.com", None), ("france@example.com", "judge+tok@judge.test")):
        box = mailbox_for(tmp_path / "out", address)
        (box / "new").mkdir(parents=True)
        raw = render_message(OutgoingMail(to=address, subject="Diplomacy results demo S1901M", text="Results.\n",
                                          reply_to=reply_to), "judge@judge.test")
        (box / "new" / "1.judge").write_bytes(raw)
    assert main(["mail", "read", "gm@example.com"]) == 0
    out = capsys.readouterr().out
    assert "Subject: Diplomacy results demo S1901M" in out and "Reply-To" not in out, out
    assert main(["mail", "read", "france@example.com"]) == 0
    assert "Reply-To: judge+tok@judge.test\n" in capsys.readouterr().out
