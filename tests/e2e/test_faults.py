"""Faults over the real servers: the same message twice, SMTP down for a while, bad input."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from email.message import EmailMessage
from email.utils import make_msgid

from sqlalchemy import func, select

from app.db.models import InboundMessage, OutboundMessage
from tests.e2e.conftest import (
    IMAP_PORT,
    Mailbox,
    ServerProcess,
    create_started_game,
    local_judge,
    mail_control,
    send_mail,
    server_env,
    subject_has,
    text_of,
    unique,
    wait_until,
)


def append_to_inbox(judge_address: str, raw: bytes) -> None:
    """Put a message straight into the judge's IMAP inbox (also bytes no MTA would pass)."""
    from imapclient import IMAPClient

    with IMAPClient("127.0.0.1", port=IMAP_PORT, ssl=False, timeout=30) as client:
        client.login(judge_address, "secret")
        client.append("INBOX", raw)


def quiet(judge_address: str, judge) -> bool:  # type: ignore[no-untyped-def]
    """Whether the judge is done: its IMAP inbox empty (a handled mail leaves it, a copy too) and
    every mail it queued sent (the test SMTP server delivers before it says 250): no more mail
    will come of what was sent so far."""
    from imapclient import IMAPClient

    with IMAPClient("127.0.0.1", port=IMAP_PORT, ssl=False, timeout=30) as client:
        client.login(judge_address, "secret")
        client.select_folder("INBOX", readonly=True)
        if client.search(["ALL"]):
            return False
    with judge.sessions.begin() as db:
        return not db.scalar(select(func.count()).select_from(OutboundMessage).where(OutboundMessage.status != "sent"))


def test_same_message_twice_is_processed_once(pg_url: str, mail_services: None,
                                              server_factory: Callable[..., ServerProcess]) -> None:
    judge_address = unique("judge")
    player = Mailbox(unique("player"))
    server_factory(server_env(pg_url, judge_address)).start()
    message_id = make_msgid(domain="players.test")
    send_mail(player.address, judge_address, "LIST\n", message_id=message_id)
    send_mail(player.address, judge_address, "LIST\n", message_id=message_id)
    player.wait_for(lambda m: True, what="the answer")
    judge = local_judge(pg_url)
    wait_until(lambda: quiet(judge_address, judge), timeout=60, what="both copies handled, every answer sent")
    assert len(player.fetch_all()) == 1
    with judge.sessions.begin() as db:
        assert db.scalar(select(func.count()).select_from(InboundMessage)) == 1


def test_smtp_down_then_back_sends_exactly_once(pg_url: str, mail_services: None,
                                                server_factory: Callable[..., ServerProcess]) -> None:
    judge_address = unique("judge")
    name = f"s{secrets.token_hex(3)}"
    judge = local_judge(pg_url, judge_address)
    players = create_started_game(judge, name)
    server_factory(server_env(pg_url, judge_address)).start()
    france = Mailbox(players["FRANCE"])
    # Drain the start notices first, so that only our reply is in flight below.
    wait_until(lambda: len(france.fetch_all()) == 1, timeout=60, what="the start notice")
    assert mail_control("smtp-down").returncode == 0
    try:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = players["FRANCE"], judge_address, "orders"
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(f"SIGNON F{name} pwfrance\nA Par-Bur\n")
        append_to_inbox(judge_address, msg.as_bytes())

        def tried() -> bool:
            with judge.sessions.begin() as db:
                rows = db.scalars(select(OutboundMessage).where(OutboundMessage.kind == "reply")).all()
                return bool(rows) and all(r.attempts >= 1 and r.status == "pending" for r in rows)

        wait_until(tried, timeout=30, what="a failed send attempt")
    finally:
        assert mail_control("smtp-up").returncode == 0
    ack = france.wait_for(subject_has("Re: orders"), timeout=90, what="the delayed acknowledgement")
    assert "A PAR - BUR" in text_of(ack)
    wait_until(lambda: quiet(judge_address, judge), timeout=60, what="every answer sent")
    assert len([m for _, m in france.fetch_all() if "Re: orders" in str(m["Subject"])]) == 1
    with judge.sessions.begin() as db:
        statuses = set(db.scalars(select(OutboundMessage.status)))
        assert statuses == {"sent"}


def _msg(sender: str, to: str, subject: str = "test") -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Message-ID"] = make_msgid(domain="players.test")
    return msg


def test_bad_input_gets_answers_and_never_stops_the_poller(pg_url: str, mail_services: None,
                                                           server_factory: Callable[..., ServerProcess]) -> None:
    judge_address = unique("judge")
    name = f"b{secrets.token_hex(3)}"
    judge = local_judge(pg_url, judge_address)
    players = create_started_game(judge, name)
    server = server_factory(server_env(pg_url, judge_address)).start()
    senders: dict[str, bytes] = {}

    def add(label: str, raw: bytes) -> None:
        senders[label] = raw

    s = {label: unique(label) for label in ("empty", "html", "latin", "attach", "big", "broken", "inject",
                                            "unknown")}
    msg = _msg(s["empty"], judge_address)
    msg.set_content("")
    add("empty", msg.as_bytes())
    msg = _msg(s["html"], judge_address)
    msg.set_content("<html><body><p>LIST</p></body></html>", subtype="html")
    add("html", msg.as_bytes())
    msg = _msg(s["latin"], judge_address, "Caf\u00e9")
    msg.set_content("LIST\nCaf\u00e9 cr\u00e8me\n", charset="iso-8859-1")
    add("latin", msg.as_bytes())
    msg = _msg(s["attach"], judge_address)
    msg.set_content("LIST\n")
    msg.add_attachment(b"\x00\x01binary" * 100, maintype="application", subtype="octet-stream",
                       filename="orders.bin")
    add("attach", msg.as_bytes())
    msg = _msg(s["big"], judge_address)
    msg.set_content("LIST\n" + ("x" * 70 + "\n") * 73000)
    add("big", msg.as_bytes())
    add("broken", (f"From: {s['broken']}\r\nTo: {judge_address}\r\nSubject: broken\r\n"
                   f"Message-ID: <{secrets.token_hex(6)}@players.test>\r\n"
                   "Content-Type: multipart/mixed; boundary=\"nope\"\r\n\r\n--nope\r\n"
                   "Content-Type: text/plain; charset=x-unknown-charset\r\n\r\nLIST\r\n").encode())
    add("inject", (f"From: {s['inject']}\r\nTo: {judge_address}\r\n"
                   "Subject: hello\r\n =?utf-8?q?x=0D=0ABcc:_victim@judge.test?=\r\n"
                   f"Message-ID: <{secrets.token_hex(6)}@players.test>\r\n\r\nLIST\r\n").encode())
    msg = _msg(s["unknown"], judge_address)
    msg.set_content("SIGNON Fnosuchgame secret\nA Par-Bur\n")
    add("unknown", msg.as_bytes())
    # Orders for another power's units, by a real player.
    msg = _msg(players["FRANCE"], judge_address)
    msg.set_content(f"SIGNON F{name} pwfrance\nA Mun-Ruh\nF Kie-Den\n")
    add("foreign", msg.as_bytes())
    # An automatic reply must not be answered.
    msg = _msg(unique("robot"), judge_address, "Out of office")
    msg["Auto-Submitted"] = "auto-replied"
    msg.set_content("I am away.")
    add("robot", msg.as_bytes())

    for raw in senders.values():
        append_to_inbox(judge_address, raw)

    def all_done() -> bool:
        with judge.sessions.begin() as db:
            rows = db.scalars(select(InboundMessage)).all()
            return len(rows) == len(senders) and all(r.status in ("done", "ignored") for r in rows)

    wait_until(all_done, timeout=90, what="every bad message to be handled")
    assert server.process is not None and server.process.poll() is None, "the server died"
    replies = {label: Mailbox(address).wait_for(lambda m: True, timeout=60, what=f"answer to {label}")
               for label, address in s.items()}
    assert "no commands found" in text_of(replies["empty"])
    assert "Games on this judge" in text_of(replies["html"])
    assert "Games on this judge" in text_of(replies["latin"])
    assert "Games on this judge" in text_of(replies["attach"])
    unknown = text_of(replies["unknown"])  # a stranger: its answer quotes nothing it sent (issue 29 item 5)
    assert "Error: refused." in unknown and "nosuchgame" not in unknown
    assert "\n" not in str(replies["inject"]["Subject"])
    france = Mailbox(players["FRANCE"])
    foreign = france.wait_for(subject_has("Re: test"), timeout=60, what="answer to foreign orders")
    assert "the unit at Munich is not yours" in text_of(foreign)
    with judge.sessions.begin() as db:
        robot = db.scalars(select(InboundMessage).where(InboundMessage.subject == "Out of office")).one()
        assert robot.status == "ignored"
        to_robot = db.scalars(select(OutboundMessage)).all()
        assert not [r for r in to_robot if r.recipients[0].startswith("robot-")]


def test_imap_connection_dropped_while_mail_arrives(pg_url: str, mail_services: None,
                                                   server_factory: Callable[..., ServerProcess]) -> None:
    judge_address = unique("judge")
    player = Mailbox(unique("player"))
    # a stranger's eight mails in a minute: more than the strangers' budget (issue 18.3), not the point here
    server_factory(server_env(pg_url, judge_address, JUDGE_STRANGER_BUDGET="100")).start()
    count = 8
    for n in range(count):
        send_mail(player.address, judge_address, f"LIST\n// mail {n}\n")
        if n % 2 == 0:
            mail_control("kick", judge_address)
        time.sleep(0.2)
    judge = local_judge(pg_url)

    def all_done() -> bool:
        with judge.sessions.begin() as db:
            rows = db.scalars(select(InboundMessage)).all()
            return len(rows) == count and all(r.status == "done" for r in rows)

    wait_until(all_done, timeout=90, what="every mail despite the dropped connections")
    wait_until(lambda: len(player.fetch_all()) == count, timeout=60, what="one answer per mail")
    wait_until(lambda: quiet(judge_address, judge), timeout=60, what="every answer sent")
    assert len(player.fetch_all()) == count
