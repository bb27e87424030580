"""Issue 11, loops and floods (answer budget, absence cap) and quarantined mail (answered once)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.db import queries
from app.db.models import InboundMessage
from app.services.ruleset import variant_data
from tests.server.conftest import Harness, player, signon

# ----------------------------------------------------------------------------- 9: answer budget


def test_auto_responder_without_marks_gets_three_answers_an_hour(harness: Harness) -> None:
    answers = []
    for round_ in range(20):
        harness.send("bot@example.com", "I am out of the office until Monday.", subject=f"Re: Re: judge {round_}")
        answers.append(len(harness.outbox(to="bot@example.com")))
        harness.clock.advance(minutes=1)
    assert answers[-1] == 3
    harness.clock.advance(hours=1)
    harness.send("bot@example.com", "Still out of the office.")
    assert len(harness.outbox(to="bot@example.com")) == 4


def test_replies_to_the_judges_answers_count(started: Harness) -> None:
    token = started.outbox(to=player("ITALY"), kind="start")[0].reply_to
    assert token
    before = len(started.outbox(to=player("ITALY"), kind="reply"))
    for _ in range(6):  # a reply to the judge's answer, quoting it, with no command in it
        started.send(player("ITALY"), "> Game 'alpha' has started.\n> You are Italy.", to=token)
    assert len(started.outbox(to=player("ITALY"), kind="reply")) == before + 3


def test_out_of_office_text_to_a_personal_address_counts(started: Harness) -> None:
    token = started.outbox(to=player("ITALY"), kind="start")[0].reply_to
    assert token
    before = len(started.outbox(to=player("ITALY"), kind="reply"))
    for _ in range(6):  # signed on by the address, but its lines are no orders
        started.send(player("ITALY"), "I am out of the office until Monday.\nRegards, Italy", to=token)
    assert len(started.outbox(to=player("ITALY"), kind="reply")) == before + 3
    started.send(player("ITALY"), "A Ven H", to=token)  # a valid order is always answered
    assert "A VEN H" in started.last_reply(player("ITALY"))


def test_mail_with_a_command_is_always_answered(started: Harness) -> None:
    """To an address of record; a stranger gets a few answers an hour in all (issue 18.3)."""
    before = len(started.outbox(to=player("ITALY")))
    for _ in range(6):
        started.send(player("ITALY"), "blah")
    for _ in range(5):
        started.send(player("ITALY"), "LIST")
    assert len(started.outbox(to=player("ITALY"))) == before + 3 + 5


# ----------------------------------------------------------------------------- 10: absence cap


def test_overlapping_absences_cannot_push_the_deadline_without_end(started: Harness) -> None:
    def deadline() -> object:
        with started.judge.sessions.begin() as db:
            game = queries.game_by_name(db, "alpha")
            assert game is not None
            return game.deadline

    first = deadline()
    replies = []
    for start, end in (("2026-03-02", "2026-03-12"), ("2026-03-11", "2026-03-22"), ("2026-03-21", "2026-04-01"),
                       ("2026-03-31", "2026-04-10")):
        started.send(player("FRANCE"), signon("FRANCE") + f"SET ABSENCE {start} TO {end}")
        replies.append(started.last_reply(player("FRANCE")))
    assert "Absence recorded" in replies[0]
    assert all("capped at 14 days in any 60" in reply for reply in replies[1:])
    assert str(deadline()) < "2026-03-14"  # the day after the first absence (its end date included)
    assert first is not None


def test_the_gm_grants_more(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "SET ABSENCE 2026-03-02 TO 2026-03-12")
    started.send(player("FRANCE"), signon("FRANCE") + "SET ABSENCE 2026-03-11 TO 2026-03-20")
    assert "capped" in started.last_reply(player("FRANCE"))
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nGRANT ABSENCE France 10")
    assert "France may now be absent 24 days in any 60" in started.last_reply("gm@example.com")
    started.send(player("FRANCE"), signon("FRANCE") + "SET ABSENCE 2026-03-11 TO 2026-03-20")
    assert "Absence recorded" in started.last_reply(player("FRANCE"))
    started.send(player("GERMANY"), signon("GERMANY") + "GRANT ABSENCE Germany 99")
    assert "only the game master" in started.last_reply(player("GERMANY"))


def test_absences_far_apart_are_allowed(started: Harness) -> None:
    started.send(player("FRANCE"), signon("FRANCE") + "SET ABSENCE 2026-03-02 TO 2026-03-14")
    started.send(player("FRANCE"), signon("FRANCE") + "SET ABSENCE 2026-05-10 TO 2026-05-20")
    assert "Absence recorded" in started.last_reply(player("FRANCE"))


def test_covered_days() -> None:
    from datetime import UTC, datetime, timedelta

    from app.services.seats.absence import covered_days

    def day(n: int) -> datetime:
        return datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=n)

    window = timedelta(days=60)
    assert covered_days([(day(0), day(10)), (day(5), day(12))], window) == 12
    assert covered_days([(day(0), day(10)), (day(55), day(65))], window) == 15
    assert covered_days([(day(0), day(10)), (day(100), day(104))], window) == 10


# ----------------------------------------------------------------------------- 12: quarantined mail


def _break_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(name: str) -> object:
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(variant_data, "variant_data", broken)


def test_quarantined_mail_is_answered_once_and_the_gm_told(started: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    _break_the_engine(monkeypatch)
    body = signon("FRANCE") + "A Par-Bur"
    outcomes = [started.send(player("FRANCE"), body, message_id="<boom@test>").status for _ in range(4)]
    assert outcomes == ["failed", "failed", "quarantined", "quarantined"]
    answers = [r for r in started.outbox(to=player("FRANCE"), kind="reply") if r.in_reply_to == "<boom@test>"]
    assert len(answers) == 1 and "could not be processed" in answers[0].body_text
    gm = started.outbox(to="gm@example.com", kind="gm")
    assert len(gm) == 1 and "quarantined" in gm[0].body_text and player("FRANCE") in gm[0].body_text


def test_mail_quarantined_by_a_retry_goes_to_the_quarantine_folder(started: Harness, tmp_path: object,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    from app.mail.inbox.maildir import MaildirInbox
    from app.mail.maildir import deliver
    from app.mail.runners.inbound import process_stored, store_raw
    from app.mail.runners.poller import poll_once
    from tests.server.conftest import make_mail

    raw = make_mail(player("FRANCE"), signon("FRANCE") + "A Par-Bur", message_id="<crash@test>")
    box = Path(str(tmp_path)) / "inbox"
    deliver(box, raw)
    inbound_id, _ = store_raw(started.judge, raw)  # the process died after storing it, three times
    _break_the_engine(monkeypatch)
    for _ in range(3):
        process_stored(started.judge, inbound_id)
    with started.judge.sessions.begin() as db:
        assert db.scalars(select(InboundMessage.status).where(InboundMessage.id == inbound_id)).one() == "quarantined"
    poll_once(started.judge, MaildirInbox(box))
    assert len(list((box / ".Quarantine" / "cur").iterdir())) == 1
    assert not list((box / "cur").iterdir())
