"""CONTEST <phase> <text> by mail: who may contest what, what is stored, who is told."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.db.models import AuditEntry, Game
from app.db.models_web import Contest
from app.services.errors import DomainError
from app.services.games.contests import Verdict, answer_contest, contests_of
from app.services.kernel.actor import Actor, Role
from tests.server.conftest import Harness, hold_all, player, signon
from tests.support.units import unit


@pytest.fixture
def processed(started: Harness) -> Harness:
    hold_all(started)
    assert started.send("gm@example.com", "SIGNON master@alpha masterpw\nPROCESS").status == "done"
    return started


@pytest.mark.parametrize("body, reply", [
    (signon("FRANCE") + "CONTEST S1901M my fleet should have held", "Your contest of S1901M was sent to the GM"),
    (signon("FRANCE") + "CONTEST s1901m lower case works too", "Your contest of S1901M was sent to the GM"),
    (signon("FRANCE") + "CONTEST F1901M not yet played", "Error: game 'alpha' has no processed phase F1901M"),
    (signon("FRANCE") + "CONTEST S1901M", "usage: CONTEST <phase> <what is wrong>"),
    (signon("FRANCE") + "CONTEST S1901M " + "x" * 2001, "a contest is at most 2000 characters"),
    ("CONTEST S1901M not signed on", "Error:"),
])
def test_contest_replies(processed: Harness, body: str, reply: str) -> None:
    processed.send(player("FRANCE"), body)
    assert reply in processed.last_reply(player("FRANCE"))


def test_a_contest_is_stored_audited_and_mailed_to_the_gm(processed: Harness) -> None:
    processed.send(player("ITALY"), signon("ITALY") + "CONTEST S1901M Venice was supported")
    with processed.judge.sessions.begin() as db:
        row = db.scalar(select(Contest))
        assert row is not None and (row.phase, row.power, row.status) == ("S1901M", "ITALY", "open")
        assert row.address == player("ITALY") and row.text == "Venice was supported"
        assert db.scalar(select(AuditEntry).where(AuditEntry.action == "contest")) is not None
    gm = processed.outbox(to="gm@example.com", kind="contest")
    assert gm and gm[-1].subject == "Diplomacy contest alpha S1901M" and "Italy" in gm[-1].body_text


def test_only_the_master_answers_and_only_once(processed: Harness) -> None:
    processed.send(player("ITALY"), signon("ITALY") + "CONTEST S1901M Venice was supported")
    with unit(processed.judge) as uow:
        db = uow.session
        row = db.scalar(select(Contest))
        assert row is not None
        game_id, contest_id = row.game_id, row.id
        game = db.get(Game, game_id)
        assert game is not None
        with pytest.raises(DomainError):
            answer_contest(processed.judge, uow, Actor(player("FRANCE"), Role.PLAYER, game_id), game, contest_id,
                           Verdict.REJECTED, "no")
        master = Actor("gm@example.com", Role.GM, game_id)
        with pytest.raises(DomainError, match="write the answer"):
            answer_contest(processed.judge, uow, master, game, contest_id, Verdict.REJECTED, "  ")
        view = answer_contest(processed.judge, uow, master, game, contest_id, Verdict.ANSWERED, "Noted.")
        assert view.status == "answered" and not view.open
        with pytest.raises(DomainError, match="already answered"):
            answer_contest(processed.judge, uow, master, game, contest_id, Verdict.REJECTED, "again")
        assert [c.status for c in contests_of(processed.judge, uow, master, game)] == ["answered"]
    mail = processed.outbox(to=player("ITALY"), kind="contest")[-1]
    assert mail.subject.endswith(": answered") and "Noted." in mail.body_text
