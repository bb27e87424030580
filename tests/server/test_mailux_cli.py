"""Issue 8 item 17: `judge mail read` works from any directory (the paths come from the settings,
relative ones from the judge's home, never from the working directory); --last N and --all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.cli import main
from app.mail.maildir import deliver, mailbox_for
from app.server_cli import build_mail
from app.settings import PROJECT_DIR, Settings


def test_relative_paths_are_read_from_the_home_not_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    settings = Settings()
    assert settings.maildir_outbox == PROJECT_DIR / "var" / "mail" / "outbox"
    assert settings.database_url == f"sqlite:///{PROJECT_DIR / 'var' / 'judge.sqlite3'}"
    assert Settings(maildir_outbox=tmp_path / "out").maildir_outbox == tmp_path / "out"


def test_mail_read_from_another_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "judge"
    monkeypatch.setenv("JUDGE_HOME", str(home))
    for key in ("JUDGE_MAILDIR_OUTBOX", "JUDGE_MAILDIR_INBOX", "JUDGE_DATABASE_URL"):
        monkeypatch.delenv(key, raising=False)
    box = mailbox_for(home / "var" / "mail" / "outbox", "france@example.com")
    for number in (1, 2, 3):
        path = deliver(box, build_mail(f"answer number {number}\n".encode(), "judge@judge.test",
                                       "france@example.com", f"reply {number}"))
        os.utime(path, ns=(number * 10**9, number * 10**9))  # delivered one after the other
    elsewhere = tmp_path / "somewhere" / "else"
    elsewhere.mkdir(parents=True)
    monkeypatch.chdir(elsewhere)
    assert main(["mail", "read", "france@example.com"]) == 0
    out = capsys.readouterr().out
    assert "answer number 3" in out and "answer number 2" not in out
    assert main(["mail", "read", "france@example.com", "--last", "2"]) == 0
    out = capsys.readouterr().out
    assert "answer number 2" in out and "answer number 3" in out and "answer number 1" not in out
    assert main(["mail", "read", "france@example.com", "--all"]) == 0
    assert "answer number 1" in capsys.readouterr().out
