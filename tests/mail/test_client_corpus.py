"""Issue 30: every mail of tests/mail/clients/ and of the held-out set tests/mail/clients_heldout/
(real client mails, a player's orders spliced in) through the IMAP door on PostgreSQL, in one judge
round; and replies through a personal reply address sent by SMTP, one of them by a real Debian MUA
(mutt, batch mode).

A mail is read right when Germany's current orders are exactly those its ``.expect`` names, the
judge's answer refuses none of its lines (no ``Error``), and a press it holds reached England with
exactly the player's text (nothing of a signature or a quote).  The share read right is printed
for each corpus (and written to ``$CORPUS_REPORT`` when set): the figure the closing note of the
issue asks for.
"""

from __future__ import annotations

import json
import os
import shutil
import smtplib
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

from app.db import queries
from app.db.models import Game, OutboundMessage, Press
from app.db.session import make_engine, make_sessionmaker
from app.mail.inbox.imap import ImapInbox
from app.mail.reading.messages import parse_message
from app.mail.runners.poller import poll_once
from app.services.bootstrap import transaction
from app.services.games.admin import SeatSpec, create_game_direct
from app.services.kernel.context import Judge
from app.settings import Settings
from tests.support.databases import PostgresTemplate
from tests.support.mail_services import MailServices

CORPUS = Path(__file__).parent / "clients"
HELDOUT = Path(__file__).parent / "clients_heldout"
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


@dataclass(frozen=True)
class Expected:
    name: str
    client: str
    game: str
    token: str | None
    orders: list[str]
    folder: Path = CORPUS
    mode: str = "per_unit"  # the game's order mode
    press: str | None = None  # the text of the press to England the mail holds

    @property
    def path(self) -> Path:
        return self.folder / f"{self.name}.eml"

    @property
    def message_id(self) -> str:
        return f"<corpus-{self.name.split('-', 1)[0]}@players.example>"


def corpus(folder: Path = CORPUS) -> list[Expected]:
    out = []
    for path in sorted(folder.glob("*.expect"), key=lambda p: int(p.name.split("-", 1)[0])):
        fields = dict(line.split(": ", 1) for line in path.read_text().splitlines() if ": " in line)
        signon = fields["signon"].split()
        press = fields["press"].replace(" | ", "\n") if "press" in fields else None
        out.append(Expected(path.stem, fields["client"], fields["game"], signon[1] if signon[0] == "token" else None,
                            fields["orders"].split(" | "), folder, fields.get("mode", "per_unit"), press))
    return out


@pytest.fixture
def pg_judge(postgres_template: PostgresTemplate) -> Iterator[Judge]:
    with postgres_template.copy() as url:
        engine = make_engine(url)
        settings = Settings(database_url=url, judge_address="judge@judge.test", outage_minutes=10**7)
        yield Judge(settings=settings, sessions=make_sessionmaker(engine))
        engine.dispose()


def _games(judge: Judge, names: list[tuple[str, str | None, str]], modes: dict[str, str] | None = None) -> None:
    """A started standard game for each (name, Germany's personal reply token or None, Germany's address),
    in the order mode ``modes`` names for it (``per_unit`` by default)."""
    with transaction(judge) as unit:
        for name, token, germany in names:
            seats = [SeatSpec(email=germany if p == "GERMANY" else f"{p.lower()}-{name}@players.example",
                              password=f"pw{p.lower()}", power=p) for p in POWERS]
            create_game_direct(judge, unit, name, f"gm-{name}@players.example", "masterpw", seats=seats,
                               settings={"reminder_hours": 0, "nmr": "hold",
                                         "orders": (modes or {}).get(name, "per_unit")})
            if token is not None:
                game = queries.game_by_name(unit.session, name)
                assert game is not None
                seat = queries.seat_for_power(unit.session, game.id, "GERMANY")
                assert seat is not None
                seat.reply_token = token


def _poll_all(judge: Judge, services: MailServices, address: str) -> None:
    """The judge's poller over the mailbox until it is empty (one round for the whole corpus)."""
    inbox = ImapInbox(services.imap_host, services.imap_port, address, services.password, batch_size=500)
    try:
        while poll_once(judge, inbox):
            pass
    finally:
        inbox.close()


def _answers(judge: Judge) -> dict[str, str]:
    with judge.sessions.begin() as db:
        rows = db.scalars(select(OutboundMessage).where(OutboundMessage.kind == "reply")).all()
        return {row.in_reply_to or "": row.body_text for row in rows}


def current_orders(answer: str) -> list[str]:
    if "Current orders for Germany:\n" not in answer:
        return []
    block = answer.rsplit("Current orders for Germany:\n", 1)[1].split("End of orders.", 1)[0]
    return [line.strip() for line in block.splitlines() if line.strip()]


def verdict(expected: Expected, answer: str | None, presses: list[tuple[list[str], str]] | None = None) -> str:
    """"" when the mail was read right, else what went wrong.  ``presses``: (recipients, text) of the
    press its game received."""
    if answer is None:
        return "no answer"
    orders = current_orders(answer)
    if sorted(orders) != sorted(expected.orders):
        return f"orders {orders}"
    refused = [line for line in answer.splitlines() if "Error" in line]
    if refused:
        return f"refused {refused[:3]}"
    wanted = [] if expected.press is None else [(["ENGLAND"], expected.press)]
    return "" if (presses or []) == wanted else f"press {presses}"


def _presses(judge: Judge) -> dict[str, list[tuple[list[str], str]]]:
    with judge.sessions.begin() as db:
        rows = db.execute(select(Game.name, Press.recipients, Press.body).join(Press, Press.game_id == Game.id)).all()
        out: dict[str, list[tuple[list[str], str]]] = {}
        for name, recipients, body in rows:
            out.setdefault(name, []).append((list(recipients), body))
        return out


def test_every_client_mail_is_read_right(mail_services: MailServices, pg_judge: Judge) -> None:
    corpora = {"client corpus": corpus(CORPUS), "held-out client corpus": corpus(HELDOUT)}
    assert len(corpora["client corpus"]) >= 60 and len(corpora["held-out client corpus"]) >= 40
    mails = [mail for chosen in corpora.values() for mail in chosen]
    _games(pg_judge, [(m.game, m.token, parse_message(m.path.read_bytes()).sender) for m in mails],
           {m.game: m.mode for m in mails})  # each player writes from the address of record of its seat
    judge_box = mail_services.new_address("judge")
    with mail_services.imap(judge_box) as client:
        for mail in mails:
            client.append("INBOX", mail.path.read_bytes())
    _poll_all(pg_judge, mail_services, judge_box)  # one poll round for both corpora

    answers, presses = _answers(pg_judge), _presses(pg_judge)
    report: dict[str, object] = {}
    wrong: dict[str, str] = {}
    for label, chosen in corpora.items():
        missed = {m.name: why for m in chosen
                  if (why := verdict(m, answers.get(m.message_id), presses.get(m.game)))}
        share = f"{len(chosen) - len(missed)}/{len(chosen)}"
        print(f"\n{label}: {share} read right")
        report[label] = {"read_right": share, "wrong": missed}
        wrong.update(missed)
    if os.environ.get("CORPUS_REPORT"):
        Path(os.environ["CORPUS_REPORT"]).write_text(json.dumps(report, indent=1, ensure_ascii=False))
    assert not wrong, f"wrong: {json.dumps(report, indent=1, ensure_ascii=False)}"


# ------------------------------------------------------------------ personal reply address, by SMTP

ACK = """:: Judge: PJDG  Game: {game}  Variant: standard
:: Deadline: S1901M Thu Dec 03 2026 18:00 UTC

Current orders for Germany:

  A BER - SIL
End of orders.
"""


def _judge_at(pg_judge: Judge, address: str) -> Judge:
    settings = pg_judge.settings.model_copy(update={"judge_address": address})
    return Judge(settings=settings, sessions=pg_judge.sessions)


def test_an_outlook_reply_to_the_personal_reply_address_by_smtp(mail_services: MailServices, pg_judge: Judge) -> None:
    judge_box = mail_services.new_address("judge")
    judge = _judge_at(pg_judge, judge_box)
    _games(judge, [("smtp1", "smtp1token", "otto@players.example")])
    local, _, domain = judge_box.partition("@")
    msg = EmailMessage()
    msg["From"] = "Bismarck, Otto <otto@players.example>"  # an unquoted comma in the name, as Outlook writes it
    msg["To"] = f"{local}+smtp1token@{domain}"
    msg["Subject"] = "RE: Diplomacy orders smtp1 S1901M"
    msg["Message-ID"] = "<smtp1-reply@players.example>"
    msg.set_content("A Ber-Pru\nA Mun-Bur\nF Kie-Hol\n\nGet Outlook for iOS\n________________________________\n"
                    f"From: {judge_box}\nSent: Thursday, December 3, 2026 6:02 PM\nTo: Germany\n"
                    "Subject: Diplomacy orders smtp1 S1901M\n\n" + ACK.format(game="smtp1"))
    with smtplib.SMTP(mail_services.smtp_host, mail_services.smtp_port, timeout=30) as smtp:
        smtp.send_message(msg)  # to the sub-address: the test SMTP server delivers it to the judge's mailbox
    _poll_all(judge, mail_services, judge_box)
    answer = _answers(judge)["<smtp1-reply@players.example>"]
    assert current_orders(answer) == ["A BER - PRU", "A MUN - BUR", "F KIE - HOL"]
    assert "Error" not in answer and "reading stopped at line 6" in answer


def test_a_flowed_reply_sent_by_mutt(mail_services: MailServices, pg_judge: Judge, tmp_path: Path) -> None:
    judge_box = mail_services.new_address("judge")
    judge = _judge_at(pg_judge, judge_box)
    _games(judge, [("mutt1", "mutt1token", "hans@players.example")])
    local, _, domain = judge_box.partition("@")
    body = tmp_path / "body.txt"  # as an editor wraps it for a flowed mail: soft breaks end in a space
    body.write_text("Army Berlin - Prussia, Army Munich - Burgundy, \nFleet Kiel - Holland\n\n"
                    "On Thu, Dec 03, 2026 at 06:02:00PM +0100, judge wrote:\n"
                    + "".join(f"> {line}\n" if line else ">\n" for line in ACK.format(game="mutt1").splitlines()))
    muttrc = tmp_path / "muttrc"
    muttrc.write_text(f"set smtp_url=\"smtp://{mail_services.smtp_host}:{mail_services.smtp_port}/\"\n"
                      "set from=\"hans@players.example\"\nset use_from=yes\nset text_flowed=yes\n"
                      "set send_charset=\"us-ascii:utf-8\"\nset record=\"\"\nset copy=no\n"
                      "set ssl_starttls=no\nset ssl_force_tls=no\n")
    mutt = shutil.which("mutt") or "/usr/bin/mutt"
    result = subprocess.run([mutt, "-n", "-F", str(muttrc), "-s", "Re: Diplomacy orders mutt1 S1901M",
                             f"{local}+mutt1token@{domain}"], stdin=body.open("rb"), capture_output=True,
                            timeout=60, check=False, env={**os.environ, "HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr  # mutt: installed by scripts/mail-services.sh install
    _poll_all(judge, mail_services, judge_box)
    answers = list(_answers(judge).values())
    assert len(answers) == 1
    assert current_orders(answers[0]) == ["A BER - PRU", "A MUN - BUR", "F KIE - HOL"]
    assert "Error" not in answers[0]
