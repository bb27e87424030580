"""Order mails per second through the inbound pipeline: parse, authenticate, validate, store,
acknowledge (the reply written to the outbox).

    python benchmarks/inbound.py [--mails 300] [--database-url URL]

Without --database-url a throwaway SQLite file is used; --postgres uses a throwaway database
on the local PostgreSQL; with --database-url (an existing, empty database) the migrations run first.  Two figures are printed: sign-on by
password (argon2 verification per mail) and by personal reply address (no password).
"""

from __future__ import annotations

import argparse
import secrets
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.db import queries
from app.db.migrate import upgrade
from app.db.session import make_engine, make_sessionmaker
from app.mail.runners.inbound import handle_raw
from app.services.bootstrap import transaction
from app.services.games.admin import SeatSpec, create_game_direct
from app.services.kernel.context import Judge
from app.settings import Settings

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
OPENINGS = {
    "AUSTRIA": ["A Vie-Gal", "A Bud-Ser", "F Tri-Alb"], "ENGLAND": ["F Lon-Nth", "F Edi-Nwg", "A Lvp-Yor"],
    "FRANCE": ["A Par-Bur", "A Mar-Spa", "F Bre-Mao"], "GERMANY": ["F Kie-Den", "A Mun-Ruh", "A Ber-Kie"],
    "ITALY": ["A Ven-Tyr", "A Rom-Ven", "F Nap-Ion"], "RUSSIA": ["A Mos-Ukr", "A War-Gal", "F Sev-Bla"],
    "TURKEY": ["A Con-Bul", "A Smy-Arm", "F Ank-Bla"],
}


def _mail(sender: str, to: str, body: str, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, "orders"
    msg["Message-ID"] = f"<bench{n}@players.test>"
    msg.set_content(body)
    return msg.as_bytes()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=300)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--postgres", default=None, metavar="ADMIN_URL", nargs="?",
                        const="postgresql+psycopg://postgres@127.0.0.1:5432/postgres",
                        help="use a throwaway database on this PostgreSQL server")
    args = parser.parse_args()
    throwaway = None
    if args.postgres:
        import psycopg

        throwaway = f"judge_inbound_{secrets.token_hex(4)}"
        with psycopg.connect(args.postgres.replace("+psycopg", ""), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{throwaway}"')
        args.database_url = args.postgres.rsplit("/", 1)[0] + "/" + throwaway
    try:
        return run(args)
    finally:
        if throwaway:
            import psycopg

            with psycopg.connect(args.postgres.replace("+psycopg", ""), autocommit=True) as conn:
                conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                             (throwaway,))
                conn.execute(f'DROP DATABASE IF EXISTS "{throwaway}"')


def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{tmp}/bench.sqlite3"
        upgrade(url)
        engine = make_engine(url)
        judge = Judge(settings=Settings(database_url=url), sessions=make_sessionmaker(engine))
        seats = [SeatSpec(f"{p.lower()}@example.com", f"pw{p.lower()}", p) for p in POWERS]
        with transaction(judge) as unit:
            create_game_direct(judge, unit, "bench", "gm@example.com", "gm", seats=seats,
                               settings={"reminder_hours": 0, "early": False})
        with judge.sessions.begin() as db:
            game = queries.game_by_name(db, "bench")
            assert game is not None
            tokens = {s.power: judge.settings.token_address(s.reply_token) for s in game.players}
        for label, use_token in (("password sign-on", False), ("reply-address sign-on", True)):
            start = time.perf_counter()
            for n in range(args.mails):
                power = POWERS[n % len(POWERS)]
                orders = "\n".join(OPENINGS[power])
                body = orders if use_token else f"SIGNON {power[0]}bench pw{power.lower()}\n{orders}\nSIGNOFF\n"
                to = tokens[power] if use_token else judge.settings.judge_address
                outcome = handle_raw(judge, _mail(f"{power.lower()}@example.com", to, body,
                                                  n + (args.mails if use_token else 0)))
                assert outcome.status == "done", outcome
            elapsed = time.perf_counter() - start
            print(f"inbound ({label}, {url.split(':')[0]}): {args.mails} order mails in {elapsed:.2f} s "
                  f"= {args.mails / elapsed:.1f} mails/s ({1000 * elapsed / args.mails:.1f} ms each)")
        engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
