"""`judge serve`, `judge mail ...`, `judge db ...`, `judge game ...`, `judge tick`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.settings import Settings

__all__ = ["register"]

# The handlers import what they need when they run: `judge adjudicate` (the engine's command
# line, benchmarked end to end) must not pay for the database, mail and scheduler libraries.


def _settings() -> Settings:
    from app.settings import Settings

    return Settings()


def _serve(args: argparse.Namespace) -> int:
    from app.main import serve

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    settings = _settings()
    if args.demo_game:
        _ensure_demo_game(settings, args.demo_game)
    if settings.mail_mode == "embedded":
        print(f"Postal Judge serving (embedded mail, database {settings.database_url}).")
        print("  Drop a mail in:   .venv/bin/judge mail send --from france@example.com < orders.txt")
        print("  Read the answers: .venv/bin/judge mail read france@example.com")
        print("  Stop with Ctrl-C.")
    if settings.web_port:
        shown = "127.0.0.1" if settings.web_host in ("0.0.0.0", "::") else settings.web_host
        print(f"Dashboard: http://{shown}:{settings.web_port}/  (a GM signs in with the account's address and "
              "password" + (", e.g. gm@example.com / secret" if args.demo_game else "")
              + "; a new GM asks for a code by mail there)")
    sys.stdout.flush()
    return serve(settings, scheduler=not args.no_scheduler)


DEMO_POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def _ensure_demo_game(settings: Settings, name: str) -> None:
    """A started standard game whose seven players are <power>@example.com, password 'secret', and
    its GM's dashboard account (gm@example.com, password 'secret', the game linked), made on the
    command line side as the judgekeeper makes accounts: a sign-in never makes one."""
    from app.db import queries
    from app.main import build_judge
    from app.services.bootstrap import transaction
    from app.services.games.admin import SeatSpec, create_game_direct
    from app.services.games.gm_accounts import has_password, keeper_link_game, set_gm_password
    from app.services.kernel.actor import Actor, Role

    judge = build_judge(settings)
    with transaction(judge) as unit:
        db = unit.session
        exists = queries.game_by_name(db, name) is not None
    if not exists:
        seats = [SeatSpec(f"{p.lower()}@example.com", "secret", p) for p in DEMO_POWERS]
        with transaction(judge) as unit:
            create_game_direct(judge, unit, name, "gm@example.com", "secret", seats=seats)
    with transaction(judge) as unit:  # also for a demo made before accounts needed proof
        db = unit.session
        if not exists or not has_password(unit, "gm@example.com"):
            keeper = Actor("command line", Role.KEEPER)
            set_gm_password(judge, unit, keeper, "gm@example.com", "secret", min_length=1)
            keeper_link_game(judge, unit, keeper, "gm@example.com", name)
    print(f"Demo game '{name}': players austria@example.com ... turkey@example.com, password 'secret';")
    print(f"the GM is gm@example.com (SIGNON master@{name} secret).  Try:")
    print(f"  printf 'SIGNON F{name} secret\\nA Par-Bur\\nA Mar-Spa\\nF Bre-Mao\\n' | "
          ".venv/bin/judge mail send --from france@example.com")


def _db_upgrade(args: argparse.Namespace) -> int:
    from app.db.migrate import upgrade

    settings = _settings()
    upgrade(settings.database_url, args.revision)
    print(f"database at {args.revision}: {settings.database_url.split('@')[-1]}")
    return 0


def _looks_like_message(data: bytes) -> bool:
    head = data.lstrip()[:2000].split(b"\n\n", 1)[0].split(b"\r\n\r\n", 1)[0]
    first = head.split(b"\n", 1)[0]
    return b":" in first and not first.startswith(b" ") and first.split(b":", 1)[0].strip().replace(
        b"-", b"").isalnum() and b"\n" in data


def build_mail(data: bytes, sender: str, to: str, subject: str) -> bytes:
    """Wrap a plain body in a message, or fill in the From/To of a complete one."""
    if _looks_like_message(data):
        message = message_from_bytes(data, policy=policy.default)
        if "From" not in message:
            message["From"] = sender
        if "To" not in message:
            message["To"] = to
        if "Message-ID" not in message:
            message["Message-ID"] = make_msgid(domain="judge.local")
        return message.as_bytes()
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="judge.local")
    message.set_content(data.decode("utf-8", "replace"))
    return message.as_bytes()


def _mail_send(args: argparse.Namespace) -> int:
    from app.mail.maildir import deliver

    settings = _settings()
    data = sys.stdin.buffer.read() if args.file is None else Path(args.file).read_bytes()
    raw = build_mail(data, args.sender, args.to or settings.judge_address, args.subject)
    path = deliver(Path(settings.maildir_inbox), raw)
    print(f"delivered to the judge's inbox: {path.name}")
    return 0


def _mail_read(args: argparse.Namespace) -> int:
    from app.mail.maildir import mailbox_for

    settings = _settings()
    box = mailbox_for(Path(settings.maildir_outbox), args.address)
    files = sorted((p for sub in ("new", "cur") if (box / sub).is_dir() for p in (box / sub).iterdir()),
                   key=lambda p: p.stat().st_mtime_ns)
    if not files:
        print(f"no mail for {args.address} (yet)")
        return 0
    for path in files if args.all else files[-args.last:]:
        message = message_from_bytes(path.read_bytes(), policy=policy.default)
        print("=" * 72)
        reply_to = f"Reply-To: {message['Reply-To']}\n" if message.get("Reply-To") else ""
        print(f"Subject: {message['Subject']}\nDate: {message['Date']}\n{reply_to}")
        body = message.get_body(preferencelist=("plain",))
        print(body.get_content() if body is not None else "(no text part)")
    return 0


def _game_create(args: argparse.Namespace) -> int:
    from app.mail.replies.lobby import render_joined, render_started
    from app.main import build_judge
    from app.services.bootstrap import transaction
    from app.services.games.admin import SeatSpec, create_game_direct

    judge = build_judge(_settings())
    seats = []
    for spec in args.player or []:
        who, _, password = spec.partition(":")
        power, _, email = who.rpartition("=")
        seats.append(SeatSpec(email=email, password=password or "secret", power=power))
    settings = {"layout": args.layout, "orders": args.orders}
    if args.deadline_hours is not None:
        settings["timing"] = {k: {"next_hours": args.deadline_hours} for k in ("movement", "retreat", "adjustment")}
    try:
        with transaction(judge) as unit:
            set_up = create_game_direct(judge, unit, args.name, args.master, args.password, variant=args.variant,
                                        settings=settings, press=args.press, seats=seats, start=not args.no_start)
    except Exception as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"game '{args.name}' created.")
    notes = [note for joined in set_up.joined for note in render_joined(joined)]
    if set_up.started is not None:
        notes.append(render_started(set_up.started))
    for note in notes:
        print(f"  {note}")
    return 0


def _tick(args: argparse.Namespace) -> int:
    from app.main import build_judge
    from app.scheduler import tick

    print(tick(build_judge(_settings())))
    return 0


def _drain(args: argparse.Namespace) -> int:
    from app.mail.outbound.drain import drain_once
    from app.main import build_judge, make_mailer

    settings = _settings()
    print(f"sent {asyncio.run(drain_once(build_judge(settings), make_mailer(settings)))} mails")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    serve = subparsers.add_parser("serve", help="run the judge: mail in, turns on time, results out")
    serve.add_argument("--no-scheduler", action="store_true", help="do not process deadlines (mail only)")
    serve.add_argument("--demo-game", default=None, metavar="NAME",
                       help="first create (if missing) a started game NAME with seven example players")
    serve.set_defaults(handler=_serve)

    db = subparsers.add_parser("db", help="database administration")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    up = db_sub.add_parser("upgrade", help="run the Alembic migrations")
    up.add_argument("revision", nargs="?", default="head")
    up.set_defaults(handler=_db_upgrade)

    mail = subparsers.add_parser("mail", help="the embedded mailboxes")
    mail_sub = mail.add_subparsers(dest="mail_command", required=True)
    send = mail_sub.add_parser("send", help="drop a mail (stdin) into the judge's embedded inbox")
    send.add_argument("--from", dest="sender", required=True)
    send.add_argument("--to", default=None, help="default: the judge's address")
    send.add_argument("--subject", default="Diplomacy")
    send.add_argument("--file", default=None, help="read the mail from this file instead of stdin")
    send.set_defaults(handler=_mail_send)
    read = mail_sub.add_parser("read", help="show the mails the judge sent to an address (embedded mode)")
    read.add_argument("address")
    read.add_argument("--all", action="store_true")
    read.add_argument("--last", type=int, default=1)
    read.set_defaults(handler=_mail_read)

    game = subparsers.add_parser("game", help="game administration")
    game_sub = game.add_subparsers(dest="game_command", required=True)
    create = game_sub.add_parser("create", help="create a game, optionally with its players, and start it")
    create.add_argument("name")
    create.add_argument("--master", required=True, help="the GM's address")
    create.add_argument("--password", required=True, help="the master password")
    create.add_argument("--variant", default="standard")
    create.add_argument("--press", default="white", choices=("none", "white", "grey", "white/grey"))
    create.add_argument("--layout", default="judge", choices=("judge", "zine"))
    create.add_argument("--orders", default="per_unit", choices=("per_unit", "whole_set"))
    create.add_argument("--deadline-hours", type=float, default=None)
    create.add_argument("--player", action="append",
                        help="POWER=address:password (repeat; all seats given: the game starts)")
    create.add_argument("--no-start", action="store_true")
    create.set_defaults(handler=_game_create)

    tick = subparsers.add_parser("tick", help="run one scheduler tick (deadlines, reminders) and exit")
    tick.set_defaults(handler=_tick)
    drain = subparsers.add_parser("drain", help="send what is due in the outbox once and exit")
    drain.set_defaults(handler=_drain)
