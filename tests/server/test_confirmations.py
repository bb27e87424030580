"""Issue 29: nothing happens to an address until it answers (items 1, 3, 4, 5).

Confirmed opt-in: JOIN, OBSERVE, CREATE, DOD3 CREATE, TAKEOVER on a mail that has not proved its
mailbox wait for one confirmation mail (a reply to ``judge+c-<token>@``, or ``CONFIRM <token>``);
strangers' answers quote nothing and are capped; a forged sender changes nothing; held mail is
listed and answered once its sender confirms."""

from __future__ import annotations

import asyncio
import email
import email.policy
import re
import threading
from email.message import EmailMessage

import pytest
from sqlalchemy import func, select

from app.db.models import Game, InboundMessage, OutboundMessage, Player
from app.db.statuses import InboundStatus
from app.mail.outbound.drain import drain_once
from app.mail.outbound.mailer import MemoryMailer
from app.mail.runners import inbound
from app.mail.runners.inbound import handle_raw, process_stored
from app.scheduler import tick
from app.services.bootstrap import transaction
from app.services.errors import DomainError
from app.services.games.lobby import create_game
from app.services.kernel.actor import Actor
from app.services.seats.confirmations import held_mails, use_confirmation
from tests.server.conftest import Harness, hold_all, make_mail, player, signon, token_address
from tests.support.units import unit

VICTIM = "victim@third.test"
SPAM = "Cheap pills, no prescription: visit http://spam.example/buy-now and win a prize today!!"
DMARC_FAIL = {"Authentication-Results": "mx.judge.test; dmarc=fail (p=reject) header.from=third.test"}


def _seats(harness: Harness, address: str) -> int:
    with harness.judge.sessions.begin() as db:
        return db.scalar(select(func.count()).select_from(Player).where(Player.email == address)) or 0


def _games_of(harness: Harness, address: str) -> int:
    with harness.judge.sessions.begin() as db:
        return db.scalar(select(func.count()).select_from(Game).where(Game.master_email == address)) or 0


def _to(harness: Harness, address: str) -> list[OutboundMessage]:
    return [row for row in harness.outbox() if address in row.recipients]


def _delivered(harness: Harness, address: str) -> list[tuple[int, str]]:
    """What the victim's mailbox receives (the outbox drained into a memory mailer): each mail's size
    in bytes, and its subject and text decoded."""
    mailer = MemoryMailer()
    for _ in range(200):
        if not asyncio.run(drain_once(harness.judge, mailer)):
            break
    mails = []
    for sent in mailer.sent:
        if address in sent.recipients:
            message = email.message_from_bytes(sent.message_bytes, policy=email.policy.default)
            body = message.get_body(("plain",))
            text = body.get_content() if isinstance(body, EmailMessage) else ""
            mails.append((len(sent.message_bytes), f"{message['Subject']}\n{text}"))
    return mails


def _padded(command: str) -> str:
    """A 250-byte forged mail body: a command, then the spam line the answer used to quote."""
    body = f"{command}\n{SPAM}\n"
    return body + "x" * max(0, 250 - len(body.encode()))


# ----------------------------------------------------------------------------- the blocker: the reflection


@pytest.mark.parametrize("seat", ["OBSERVE alpha anypass1", "CREATE vicx pw12345678"])
def test_one_forged_seat_then_thirty_mails_reach_the_victim_as_one_small_confirmation(started: Harness,
                                                                                      seat: str) -> None:
    for _ in range(2):
        hold_all(started)
        tick(started.judge)
    started.send(VICTIM, seat, confirm=False)  # forged: the victim never answers
    for number in range(30):
        started.send(VICTIM, _padded(("HELP", "HISTORY alpha", "MAP alpha")[number % 3]), confirm=False)
    mails = _delivered(started, VICTIM)
    size = sum(length for length, _ in mails)
    print(f"\nreflection ({seat.split()[0]}): the victim received {len(mails)} mails, {size} bytes")
    assert _seats(started, VICTIM) == 0 and _games_of(started, VICTIM) == 0  # no seat, no game
    assert len(mails) <= 1 + started.judge.settings.stranger_budget
    assert sum("Waiting for your confirmation" in text for _, text in mails) == 1  # one confirmation mail
    assert size < 40_000
    assert not any("spam.example" in text or "prescription" in text for _, text in mails)
    with unit(started.judge) as uow:  # the rest is held: kept, listed for the judgekeeper
        assert len(held_mails(uow)) >= 30 - started.judge.settings.stranger_budget


# ----------------------------------------------------------------------------- item 1: confirmed opt-in


def _confirmation(harness: Harness, address: str) -> tuple[str, str]:
    row = [r for r in _to(harness, address) if r.reply_to and r.reply_to.startswith("judge+c-")][-1]
    code = re.search(r"CONFIRM ([a-z0-9]+)", row.body_text)
    assert code is not None and row.reply_to == f"judge+c-{code.group(1)}@judge.test"
    return row.reply_to, code.group(1)


@pytest.mark.parametrize("command", ["OBSERVE alpha watchpw1", "TAKEOVER france@alpha takepw11"])
def test_a_seat_waits_for_the_address_to_confirm(started: Harness, command: str) -> None:
    newcomer = "newcomer@example.org"
    started.send(newcomer, command, confirm=False)
    assert _seats(started, newcomer) == 0
    answer = started.last_reply(newcomer)
    assert "Waiting for your confirmation" in answer and "watchpw1" not in answer
    address, _code = _confirmation(started, newcomer)
    started.send(newcomer, "> quoted confirmation\n", to=address, confirm=False)
    if command.startswith("OBSERVE"):
        assert _seats(started, newcomer) == 1
        assert "Confirmed: the commands of your mail run now" in started.last_reply(newcomer)
    else:
        assert "Confirmed" in started.last_reply(newcomer)  # the takeover ran (refused: France is played)
    outcome = started.send(newcomer, "yes", to=address, confirm=False)  # single-use
    assert outcome.status == "done" and "used already, or it expired" in started.last_reply(newcomer)
    assert _seats(started, newcomer) == (1 if command.startswith("OBSERVE") else 0)


def test_confirm_code_in_a_mail_and_expiry(started: Harness) -> None:
    started.send("a@example.org", "JOIN alpha pw123456\nOBSERVE alpha watch123", confirm=False)
    _, code = _confirmation(started, "a@example.org")
    started.send("a@example.org", f"CONFIRM {code}", confirm=False)
    assert _seats(started, "a@example.org") == 1  # the JOIN ran (refused: alpha has started), then the OBSERVE
    started.send("b@example.org", "OBSERVE alpha watch123", confirm=False)
    address, _ = _confirmation(started, "b@example.org")
    started.clock.advance(hours=started.judge.settings.confirm_hours + 1)
    started.send("b@example.org", "yes", to=address, confirm=False)
    assert _seats(started, "b@example.org") == 0
    assert "used already, or it expired" in started.last_reply("b@example.org")


def test_confirmed_mail_runs_from_the_waiting_line(started: Harness) -> None:
    started.send("a@example.org", "LIST\nOBSERVE alpha watch123\nSUMMARY alpha", confirm=False)
    _, code = _confirmation(started, "a@example.org")
    started.send("a@example.org", f"CONFIRM {code}", confirm=False)
    assert _seats(started, "a@example.org") == 1
    answer = started.last_reply("a@example.org")
    assert "OBSERVE alpha ****" in answer and "SUMMARY alpha" in answer and "> LIST" not in answer


def test_proof_needs_no_confirmation(started: Harness) -> None:
    """A personal reply address, or the password of a seat of the very address, is proof already."""
    started.send(player("FRANCE"), "CREATE beta masterpw1", to=token_address(started, "FRANCE"), confirm=False)
    assert _games_of(started, player("FRANCE")) == 1
    started.send(player("ITALY"), signon("ITALY") + "CREATE gamma masterpw1", confirm=False)
    assert _games_of(started, player("ITALY")) == 1
    started.send("x@example.org", signon("ITALY") + "CREATE delta masterpw1", confirm=False)  # not its seat
    assert _games_of(started, "x@example.org") == 0
    started.send(player("ENGLAND"), "CREATE epsilon masterpw1", confirm=False)  # of record, but no proof
    assert _games_of(started, player("ENGLAND")) == 0 and "Waiting for your confirmation" in started.last_reply(
        player("ENGLAND"))


def test_one_confirmation_wins_a_race(started: Harness) -> None:
    """Two replies to one confirmation address at once (PostgreSQL: two connections): one seat."""
    started.send("race@example.org", "OBSERVE alpha watch123", confirm=False)
    address, _ = _confirmation(started, "race@example.org")
    mails = [make_mail("race@example.org", "yes", to=address) for _ in range(4)]
    barrier = threading.Barrier(len(mails))
    errors: list[BaseException] = []

    def reply(raw: bytes) -> None:
        try:
            barrier.wait()
            handle_raw(started.judge, raw)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=reply, args=(raw,)) for raw in mails]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert _seats(started, "race@example.org") == 1


def test_a_code_is_used_once_by_two_transactions_at_once(started: Harness) -> None:
    """One conditional UPDATE: while one transaction holds the code (not committed yet), another one
    waits, then finds it used (a read-then-write would give it to both)."""
    started.send("race@example.org", "OBSERVE alpha watch123", confirm=False)
    _, code = _confirmation(started, "race@example.org")
    results: dict[str, object] = {}

    def second() -> None:
        with transaction(started.judge) as unit:
            results["second"] = use_confirmation(started.judge, unit, code)

    with transaction(started.judge) as unit:
        results["first"] = use_confirmation(started.judge, unit, code)
        other = threading.Thread(target=second)
        other.start()
        other.join(0.5)  # it waits for this transaction
    other.join()
    assert results["first"] is not None and results["second"] is None, results


# ----------------------------------------------------------------------------- item 3: a forged sender


def test_a_sender_failing_dmarc_changes_nothing(started: Harness) -> None:
    started.judge.settings.authserv_id = "mx.judge.test"
    lines = "\n".join("OBSERVE alpha watch123" for _ in range(10))
    started.send(VICTIM, lines, headers=DMARC_FAIL)  # confirm=True: even the confirmation is not there
    assert _seats(started, VICTIM) == 0
    answers = _to(started, VICTIM)
    assert len(answers) == 1 and "ran none of" in answers[0].body_text and answers[0].reply_to is None
    assert "OBSERVE" not in answers[0].body_text


# ----------------------------------------------------------------------------- item 4: limits aimed at people


def test_forged_creates_do_not_block_the_gms_new_game(harness: Harness) -> None:
    gm = "realgm@example.org"
    for number in range(harness.judge.settings.creates_per_day):
        harness.send(gm, f"CREATE forged{number} pw12345678", confirm=False)
    assert _games_of(harness, gm) == 0
    with transaction(harness.judge) as unit:  # the dashboard's "New game" (a GM signed in proved the mailbox)
        try:
            create_game(harness.judge, unit, Actor(gm), "realgame", "masterpw1")
        except DomainError as error:  # pragma: no cover - the failure on main
            pytest.fail(f"the GM's own game was refused: {error}")
    assert _games_of(harness, gm) == 1


def test_forged_mails_do_not_drop_a_newcomers_join(started: Harness) -> None:
    newcomer = "newbie@example.org"
    for _ in range(started.judge.settings.stranger_budget + 2):
        started.send(newcomer, "HELP", confirm=False)
    with unit(started.judge) as uow:
        held = [mail for mail in held_mails(uow) if mail.sender == newcomer]
    assert len(held) == 2 and all("JUDGE_STRANGER_BUDGET" in mail.why for mail in held)
    outcome = started.send(newcomer, "OBSERVE alpha mypass123", confirm=False)
    assert outcome.status == "done"  # run and answered: a confirmation
    address, _ = _confirmation(started, newcomer)
    started.send(newcomer, "yes", to=address, confirm=False)
    assert _seats(started, newcomer) == 1
    with started.judge.sessions.begin() as db:  # the held mails run again, and are answered
        released = list(db.scalars(select(InboundMessage.id).where(InboundMessage.id.in_([m.id for m in held]))))
        assert all(db.get_one(InboundMessage, i).status == InboundStatus.RECEIVED for i in released)
    before = len(_to(started, newcomer))
    for inbound_id in released:
        process_stored(started.judge, inbound_id)
    assert len(_to(started, newcomer)) == before + 2


# ----------------------------------------------------------------------------- item 5: no spam relay


def test_all_strangers_together_get_at_most_the_hourly_cap(harness: Harness) -> None:
    cap = harness.judge.settings.stranger_cap
    for number in range(cap + 10):
        harness.send(f"forged{number}@third.test", f"HELP\n{SPAM}", confirm=False, subject=f"{SPAM} {number}")
    answers = [row for row in harness.outbox() if row.recipients[0].endswith("@third.test")]
    assert len(answers) == cap
    assert not any("spam.example" in row.body_text or "spam.example" in row.subject for row in answers)
    notices = harness.outbox(to=harness.judge.settings.admin_address)
    assert len(notices) == 1 and "JUDGE_STRANGER_CAP" in notices[0].body_text
    with unit(harness.judge) as uow:
        assert len(held_mails(uow)) == 10


def test_the_cap_holds_under_parallel_mails(harness: Harness) -> None:
    """Eight strangers' mails at once (PostgreSQL: eight connections) against a cap of three."""
    harness.judge.settings.stranger_cap = 3
    mails = [make_mail(f"parallel{n}@third.test", "HELP") for n in range(8)]
    barrier = threading.Barrier(len(mails))

    def send(raw: bytes) -> None:
        barrier.wait()
        handle_raw(harness.judge, raw)

    threads = [threading.Thread(target=send, args=(raw,)) for raw in mails]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    answers = [row for row in harness.outbox() if row.recipients[0].endswith("@third.test")]
    assert len(answers) <= 3, [row.recipients for row in answers]


def test_an_answer_to_a_stranger_quotes_nothing(harness: Harness) -> None:
    harness.send("someone@third.test", f"LIST {SPAM}\n{SPAM}\nHISTORY nosuch{SPAM[:10]}", subject=SPAM)
    answer = harness.outbox(to="someone@third.test")[-1]
    assert "spam" not in answer.body_text.lower() and "spam" not in answer.subject.lower()
    assert "Cheap" not in answer.body_text and "> LIST" in answer.body_text


def test_a_strangers_quarantined_mail_is_answered_without_its_subject(harness: Harness,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> int:
        raise RuntimeError("the judge failed")

    monkeypatch.setattr(inbound, "run_commands", broken)
    for _ in range(harness.judge.settings.max_attempts):
        harness.send("someone@third.test", "HELP", subject=SPAM, message_id="<poison@third.test>", confirm=False)
    answer = harness.outbox(to="someone@third.test")[-1]
    assert "could not be processed" in answer.body_text
    assert "spam" not in answer.body_text.lower() and "spam" not in answer.subject.lower()
