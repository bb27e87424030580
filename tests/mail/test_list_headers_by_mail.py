"""Issue 30 item 8 and issue 29 item 1, through the real test SMTP and IMAP servers on PostgreSQL: a
results mail reaches an observer's mailbox with the headers clients thread and filter by
(``List-Id``, ``List-Unsubscribe``, ``Auto-Submitted: auto-generated``, ``X-Auto-Response-Suppress``)
and the note saying how to stop it; a mail to its ``List-Unsubscribe`` address, sent by SMTP and
read by the judge from its IMAP mailbox, leaves the observer seat at once, and the observer is told."""

from __future__ import annotations

import asyncio
import re
import smtplib
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from sqlalchemy import select

from app.db import queries
from app.db.models import Player
from app.db.session import make_engine, make_sessionmaker
from app.db.statuses import SeatRole
from app.mail.inbox.imap import ImapInbox
from app.mail.outbound.drain import drain_once
from app.mail.outbound.mailer import SmtpMailer
from app.mail.runners.poller import poll_once
from app.services.bootstrap import transaction
from app.services.games.admin import SeatSpec, create_game_direct
from app.services.games.lobby import join_game
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.turns.process import process_turn
from app.settings import Settings
from tests.support.databases import PostgresTemplate
from tests.support.mail_services import MailServices
from tests.support.shown import shown_text

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


@pytest.fixture
def judge(postgres_template: PostgresTemplate, mail_services: MailServices) -> Iterator[Judge]:
    with postgres_template.copy() as url:
        engine = make_engine(url)
        settings = Settings(database_url=url, judge_address=mail_services.new_address("judge"), outage_minutes=10**7)
        yield Judge(settings=settings, sessions=make_sessionmaker(engine))
        engine.dispose()


def _mails(services: MailServices, address: str) -> list[EmailMessage]:
    with services.imap(address) as client:
        uids = sorted(client.search("ALL"))
        data = client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
    out = []
    for uid in uids:
        parsed = message_from_bytes(data[uid][b"BODY[]"], policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        out.append(parsed)
    return out


def _drain(judge: Judge, services: MailServices) -> None:
    mailer = SmtpMailer(services.smtp_host, services.smtp_port, timeout=10)
    while asyncio.run(drain_once(judge, mailer)):
        pass


def _poll(judge: Judge, services: MailServices) -> None:
    inbox = ImapInbox(services.imap_host, services.imap_port, judge.settings.judge_address, services.password)
    try:
        while poll_once(judge, inbox):
            pass
    finally:
        inbox.close()


def test_a_results_mail_carries_its_list_headers_and_its_unsubscribe_address_leaves_the_observer(
        judge: Judge, mail_services: MailServices) -> None:
    new = mail_services.new_address
    seats = [SeatSpec(email=new(power.lower()), password=f"pw{power.lower()}", power=power) for power in POWERS]
    watcher = new("watcher")
    with transaction(judge) as unit:
        create_game_direct(judge, unit, "lists", new("gm"), "masterpw", seats=seats,
                           settings={"reminder_hours": 0, "nmr": "hold"})
        join_game(judge, unit, Actor(watcher), "lists", "watchpw1", observe=True)
    with transaction(judge) as unit:
        game = queries.game_by_name(unit.session, "lists")
        assert game is not None
        process_turn(unit, judge, game)
    _drain(judge, mail_services)

    [results] = [m for m in _mails(mail_services, watcher) if m["Subject"] == "Diplomacy results lists S1901M"]
    domain = judge.settings.judge_domain
    assert results["List-Id"] == f"Game lists <lists.games.{domain}>"
    assert results["Auto-Submitted"] == "auto-generated"
    assert results["X-Auto-Response-Suppress"] == "All"
    found = re.fullmatch(r"<mailto:([^?>]+)\?subject=unsubscribe>", str(results["List-Unsubscribe"]).strip())
    assert found is not None, results["List-Unsubscribe"]
    leave = found.group(1)
    local = judge.settings.judge_local
    assert re.fullmatch(rf"{re.escape(local)}\+u-[a-z0-9]+@{re.escape(domain)}", leave), leave
    body = results.get_body(preferencelist=("plain",))
    assert body is not None
    text = shown_text(body)
    assert "You get this mail because you observe game 'lists'." in " ".join(text.split())
    assert [line for line in str(body.get_content()).replace("\r\n", "\n").split("\n") if len(line) > 78] == []
    # a player's results carry the player's own note and address
    [france] = [m for m in _mails(mail_services, seats[2].email) if m["Subject"] == "Diplomacy results lists S1901M"]
    assert france["List-Unsubscribe"] != results["List-Unsubscribe"]
    assert "you play in game 'lists'" in " ".join(shown_text(france.get_body(preferencelist=("plain",))).split())

    # the observer's mail program sends its unsubscribe mail
    unsubscribe = EmailMessage()
    unsubscribe["From"], unsubscribe["To"], unsubscribe["Subject"] = watcher, leave, "unsubscribe"
    unsubscribe["Message-ID"] = "<unsubscribe-1@players.example>"
    unsubscribe.set_content("This message was automatically generated by Gmail.\n")
    with smtplib.SMTP(mail_services.smtp_host, mail_services.smtp_port, timeout=30) as smtp:
        smtp.send_message(unsubscribe)  # to the sub-address: the test SMTP server delivers it to the judge's mailbox
    _poll(judge, mail_services)
    with judge.sessions.begin() as db:
        observers = db.scalars(select(Player).where(Player.role == SeatRole.OBSERVER)).all()
        assert observers == []
    _drain(judge, mail_services)
    [told] = [m for m in _mails(mail_services, watcher) if m["Subject"] == "Diplomacy game lists: you no longer observe it"]
    assert told["In-Reply-To"] == "<unsubscribe-1@players.example>" and told["Auto-Submitted"] == "auto-replied"
    assert told["List-Unsubscribe"] is None  # the seat is gone: nothing more to stop

    # the address worked once: a second mail to it changes nothing and is not answered
    unsubscribe.replace_header("Message-ID", "<unsubscribe-2@players.example>")
    with smtplib.SMTP(mail_services.smtp_host, mail_services.smtp_port, timeout=30) as smtp:
        smtp.send_message(unsubscribe)
    _poll(judge, mail_services)
    _drain(judge, mail_services)
    assert len([m for m in _mails(mail_services, watcher) if "no longer observe" in str(m["Subject"])]) == 1
