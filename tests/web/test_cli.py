"""`judge dashboard account`: a GM account from the command line, password on stdin."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest
from sqlalchemy import select

from app import dashboard_cli as cli
from app.db.models_web import GmAccount
from app.db.session import make_engine
from app.services.kernel.security import verify_password


def _run(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch) -> int:
    parser = argparse.ArgumentParser(prog="judge")
    cli.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return int(args.handler(args))


def test_account_created_then_password_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'judge.sqlite3'}"
    monkeypatch.setenv("JUDGE_DATABASE_URL", url)
    assert _run(["dashboard", "account", "Keeper@Example.com"], "first-password\n", monkeypatch) == 0
    assert "created" in capsys.readouterr().out
    assert _run(["dashboard", "account", "keeper@example.com"], "second-password\n", monkeypatch) == 0
    assert "password changed" in capsys.readouterr().out
    assert _run(["dashboard", "account", "keeper@example.com"], "short\n", monkeypatch) == 2
    assert "at least 8 characters" in capsys.readouterr().err
    engine = make_engine(url)
    with engine.connect() as conn:
        rows = list(conn.execute(select(GmAccount.email, GmAccount.password_hash)))
    engine.dispose()
    assert [email for email, _ in rows] == ["keeper@example.com"]
    assert verify_password(rows[0][1], "second-password")
