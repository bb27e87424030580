"""Regenerate docs/samples/: the invented game "lepanto" played by mail through the judge itself
(SQLite in a temporary folder, a fixed clock), once in each layout, and its mails written out.

    python tools/make_samples.py            # writes docs/samples/*.txt and *.html

The game: Spring 1901 with Italy sending no orders (the NMR) and France's mail with two refused
orders (the acknowledgement); Fall 1901 with an English army convoyed to Norway and the Austrian
army in Galicia bounced and dislodged; its retreat; the Winter builds; before it all, the GM's change
of two settings (SET DRAW EXPIRES, SET TAKEOVER), told to the players in one notice; the GM's ruling that ends the game
in a draw (DECLARE DRAW), with a statement.
"""

from __future__ import annotations

import itertools
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sqlalchemy import select  # noqa: E402

from app.db.migrate import upgrade  # noqa: E402
from app.db.models import OutboundMessage  # noqa: E402
from app.db.session import make_engine, make_sessionmaker  # noqa: E402
from app.mail.runners.inbound import handle_raw  # noqa: E402
from app.services.kernel.context import Judge  # noqa: E402
from app.settings import Settings  # noqa: E402

OUT = ROOT / "docs" / "samples"
GM, GAME = "gm@example.com", "lepanto"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
READER = "italy@example.com"  # whose copy of the results is written out

SPRING = {
    "AUSTRIA": "A Bud-Ser\nF Tri-Alb\nA Vie-Gal",
    "ENGLAND": "F Edi-Nwg\nF Lon-Nth\nA Lvp-Yor",
    "GERMANY": "A Ber-Kie\nF Kie-Den\nA Mun-Ruh",
    "RUSSIA": "A Mos-Ukr\nF Sev-Bla\nF StP/sc-Bot\nA War H",
    "TURKEY": "F Ank-Bla\nA Con-Bul\nA Smy-Arm",
}
FRANCE_SPRING = "A Par-Bur\nA Mun-Ruh\nF Bre-Burgundy\nA Mar-Spa\nF Bre-Mao\nSIGNOFF"
PRESS = "BROADCAST\nFrance offers peace to all who hold still.\nENDPRESS"
FALL = {
    "AUSTRIA": "A Gal-Rum\nF Alb-Gre\nA Ser H",
    "ENGLAND": "A Yor-Nth-Nwy\nF Nth C A Yor-Nwy\nF Nwg H",
    "FRANCE": "F Mao-Por\nA Spa H\nA Bur H",
    "GERMANY": "A Ruh-Hol\nF Den H\nA Kie H",
    "ITALY": "F Nap-Ion\nA Rom-Apu\nA Ven H",
    "RUSSIA": "A War-Gal\nA Ukr S A War-Gal\nF Sev-Rum\nF Bot-Swe",
    "TURKEY": "F Ank H\nA Arm H\nA Bul H",
}
RETREAT = {"AUSTRIA": "A Gal-Boh"}
WINTER = {
    "AUSTRIA": "Build A Bud\nBuild F Tri",
    "ENGLAND": "Build F Lon",
    "FRANCE": "Build F Bre\nBuild A Par",
    "GERMANY": "Build A Ber\nBuild A Mun",
    "RUSSIA": "Build A War",
    "TURKEY": "Build A Con",
}


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class Table:
    """The judge with a fresh database; ``send`` delivers one mail to it."""

    def __init__(self, folder: Path) -> None:
        url = f"sqlite:///{folder / 'samples.sqlite3'}"
        upgrade(url)
        self.clock = Clock()
        self.judge = Judge(settings=Settings(database_url=url, judge_address="judge@judge.test"),
                           sessions=make_sessionmaker(make_engine(url)), clock=self.clock)
        self.ids = itertools.count(1)

    def send(self, sender: str, body: str) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, "judge@judge.test", "orders"
        msg["Message-ID"] = f"<sample{next(self.ids)}@example.com>"
        msg.set_content(body)
        handle_raw(self.judge, msg.as_bytes())
        self.clock.now += timedelta(minutes=5)

    def mails(self, to: str) -> list[OutboundMessage]:
        with self.judge.sessions.begin() as db:
            rows = list(db.scalars(select(OutboundMessage).order_by(OutboundMessage.id)))
            db.expunge_all()
        return [row for row in rows if row.recipients[0] == to]


def _player(power: str) -> str:
    return f"{power.lower()}@example.com"


def _signon(power: str) -> str:
    return f"SIGNON {power[0]}{GAME} pw{power.lower()}\n"


def _orders(table: Table, orders: dict[str, str]) -> None:
    for power, lines in orders.items():
        table.send(_player(power), _signon(power) + lines)


def _process(table: Table) -> None:
    table.send(GM, f"SIGNON master@{GAME} masterpw\nPROCESS")


def play(layout: str, folder: Path) -> dict[str, str]:
    """The game in ``layout``; returns file name -> text."""
    table = Table(folder)
    table.send(GM, f"CREATE {GAME} masterpw\nSET REMINDER 0\nSET EARLY off\nSET TIMEZONE Europe/London\n"
                   f"SET PRESS white\nSET PRESS postal\nSET LAYOUT {layout}\nSIGNOFF")
    for power in POWERS:
        table.send(_player(power), f"JOIN {GAME} pw{power.lower()} {power}")
    table.send(GM, f"SIGNON master@{GAME} masterpw\n"
                   "NOTE Welcome to Lepanto, a sample game. Press is published with the results.")
    files: dict[str, str] = {}
    table.send(GM, f"SIGNON master@{GAME} masterpw\nSET DRAW EXPIRES PHASE\nSET TAKEOVER open")
    told = [row for row in table.mails(READER) if row.subject == f"Diplomacy settings changed {GAME}"][-1]
    files[f"{layout}-settings-changed.txt"] = told.body_text
    _orders(table, SPRING)
    table.send(_player("FRANCE"), _signon("FRANCE") + PRESS + "\n" + FRANCE_SPRING)
    files[f"{layout}-acknowledgement.txt"] = table.mails(_player("FRANCE"))[-1].body_text
    for phase, orders in (("movement-S1901M", {}), ("movement-F1901M", FALL), ("retreat-F1901R", RETREAT),
                          ("adjustment-W1901A", WINTER)):
        _orders(table, orders)
        _process(table)
        results = [row for row in table.mails(READER) if row.kind == "results"][-1]
        assert phase.rpartition("-")[2] in results.subject, (phase, results.subject)
        files[f"{layout}-{phase}.txt"] = results.body_text
        if results.body_html is not None:
            files[f"{layout}-{phase}.html"] = results.body_html
    table.send(GM, f"SIGNON master@{GAME} masterpw\nDECLARE DRAW Austria, England, France, Germany, Russia, Turkey\n"
                   "Italy's player has not been heard of since Spring; the six others agreed by press to\n"
                   "a draw, and I so rule.\n\nThank you all for a lively year.\nENDSTATEMENT")
    ended = [row for row in table.mails(READER) if row.kind == "end"][-1]
    files[f"{layout}-game-over.txt"] = ended.body_text
    return files


def main() -> int:
    for layout in ("judge", "zine"):
        with tempfile.TemporaryDirectory() as folder:
            for name, text in play(layout, Path(folder)).items():
                (OUT / name).write_text(text, encoding="utf-8")
                print(f"wrote docs/samples/{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
