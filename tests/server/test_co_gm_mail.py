"""Co-GMs by mail (issue 28.5): a co-GM whose dashboard account proved its address gets the game
master's mail (results, reports, requests), and signs on by mail as a GM of the game with its own
account's password; the audit names whoever did each thing, and the master's own business (its
password, its address, the game's GMs) stays the master's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from app.db.models import AuditEntry, Game
from app.db.models_web import CoMaster, GmAccount
from app.mail.runners import inbound
from app.services.kernel.security import hash_password
from tests.server.conftest import Harness, player, signon

MASTER = "SIGNON master@alpha masterpw\n"
CO = "helper@example.org"  # a co-GM whose account proved its address
LAZY = "lazy@example.org"  # a co-GM added by the master, whose account never proved it


def _co_gms(h: Harness, *, proven: bool = True, password: str = "helperpass") -> None:
    with h.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "alpha"))
        assert game is not None
        db.add(CoMaster(game_id=game.id, email=CO, added_by="gm@example.com"))
        db.add(CoMaster(game_id=game.id, email=LAZY, added_by="gm@example.com"))
        db.add(GmAccount(email=CO, password_hash=hash_password(password),
                         proven_at=datetime(2026, 3, 1, tzinfo=UTC) if proven else None))
        db.add(GmAccount(email=LAZY, password_hash=hash_password("lazypass1")))


def test_a_proven_co_gm_gets_the_masters_mail(started: Harness) -> None:
    h = started
    _co_gms(h)
    h.send("gm@example.com", MASTER + "PROCESS")  # the results: every player, the master and its co-GM
    results = [m for m in h.outbox(kind="results") if m.subject == "Diplomacy results alpha S1901M"]
    to = sorted(r for m in results for r in m.recipients)
    assert "gm@example.com" in to and CO in to and LAZY not in to
    h.send(player("FRANCE"), signon("FRANCE") + "RESIGN")  # a report to the GM
    resigned = [m.recipients[0] for m in h.outbox() if m.subject == "Diplomacy player resigned alpha"]
    assert resigned == ["gm@example.com", CO]
    h.send("newcomer@example.org", "TAKEOVER france@alpha newpass123")  # a request the GM approves
    asked = [m.recipients[0] for m in h.outbox() if m.subject.startswith("Diplomacy game alpha: newcomer")]
    assert asked == ["gm@example.com", CO]
    h.send("gm@example.com", MASTER + "PRESS TO France\nA word.\nENDPRESS")
    h.send(player("GERMANY"), signon("GERMANY") + "PRESS TO M\nTo the GM.\nENDPRESS")  # press to the GM
    to_gm = [m.recipients[0] for m in h.outbox(kind="press") if "To the GM." in m.body_text]
    assert to_gm == ["gm@example.com", CO]
    for _ in range(10):  # a seat guessed at locks, and its GMs are told
        h.send(player("FRANCE"), "SIGNON Talpha guess\nA Con-Bul")
    locked = [m.recipients[0] for m in h.outbox(kind="lockout")]
    assert locked == [player("TURKEY"), "gm@example.com", CO]


def test_a_co_gm_signs_on_by_mail_with_its_own_accounts_password(started: Harness) -> None:
    h = started
    _co_gms(h)
    h.send(CO, "SIGNON master@alpha helperpass\nPAUSE")
    reply = h.last_reply(CO)
    assert "Signed on as a co-GM of game 'alpha'." in reply and "Game paused." in reply
    h.send(CO, "SIGNON Malpha helperpass\nRESUME\nPROMOTE friend@example.org")
    reply = " ".join(h.last_reply(CO).split())
    assert "only the master of 'alpha' may do that, not a co-GM" in reply  # the GMs' own business
    h.send(CO, "SIGNON master@alpha helperpass\nSET PASSWORD takenover1")
    assert "only the master of 'alpha' may do that, not a co-GM" in " ".join(h.last_reply(CO).split())
    h.send(CO, "SIGNON master@alpha helperpass\nSET ADDRESS helper2@example.org")
    assert "only the master of 'alpha' may do that, not a co-GM" in " ".join(h.last_reply(CO).split())
    with h.judge.sessions() as db:
        game = db.scalar(select(Game).where(Game.name == "alpha"))
        assert game is not None and game.master_email == "gm@example.com"
        rows = [(a.actor, a.action) for a in db.scalars(select(AuditEntry).order_by(AuditEntry.id))]
    assert (CO, "pause") in rows and (CO, "resume") in rows  # the audit names the co-GM
    assert not [m for m in h.outbox(to="friend@example.org")]
    h.send("gm@example.com", MASTER + "STATUS")  # the master's password still signs the master on
    assert "Signed on as the master of game 'alpha'." in h.last_reply("gm@example.com")


def test_no_co_gm_sign_on_without_a_proven_account_and_its_password(started: Harness) -> None:
    h = started
    _co_gms(h)
    h.send(CO, "SIGNON master@alpha wrongpass\nPAUSE")
    assert "wrong master password" in h.last_reply(CO)
    h.send(LAZY, "SIGNON master@alpha lazypass1\nPAUSE")  # a co-GM whose account never proved its address
    assert "wrong master password" in h.last_reply(LAZY)
    h.send("stranger@example.org", "SIGNON master@alpha helperpass\nPAUSE")  # the password is the account's
    assert "wrong master password" in h.last_reply("stranger@example.org")
    with h.judge.sessions() as db:
        assert not db.scalar(select(AuditEntry).where(AuditEntry.action == "pause"))


def test_a_quarantined_mail_of_the_game_is_told_to_its_proven_co_gm(started: Harness,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    h = started
    _co_gms(h)

    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the commands exploded")

    monkeypatch.setattr(inbound, "run_commands", explode)
    for _ in range(3):
        h.send(player("FRANCE"), signon("FRANCE") + "A Par-Bur", message_id="<doomed@players.test>")
    told = [m.recipients[0] for m in h.outbox() if m.subject == "Diplomacy mail quarantined alpha"]
    assert told == ["gm@example.com", CO]
