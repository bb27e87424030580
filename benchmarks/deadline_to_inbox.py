"""From the deadline to every player's inbox: N standard games share one deadline; how many seconds
until the SMTP server has accepted the last results mail, with its map?  On PostgreSQL (a
throwaway database).

    python benchmarks/deadline_to_inbox.py [--games 1000] [--processes 2] [--layout judge]

Each of the `--processes` server processes runs the judge's own loops as `judge serve` does
(`app.main` `_serve`: the scheduler's tick, the outbox drain and the poller, here on an empty
maildir inbox, with no dashboard), sending through `SmtpMailer` to an SMTP server on loopback
that this script runs in a process of its own: it accepts every mail and counts the mails and
their bytes.  The games' deadline is set a few seconds after the servers have started (the
tick every `--tick` seconds, 1 by default, a setting of the judge); the clock runs from the
deadline to the server's `250` for the last results mail.  Printed: that time, games/s,
mails/s, bytes a mail, and the CPU a map costs (five of the stored maps drawn again here).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import multiprocessing
import os
import secrets
import signal
import statistics
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, select

from app.db.base import utcnow
from app.db.models import Game, MapImage, OutboundMessage, Phase
from app.db.session import make_engine, make_sessionmaker
from benchmarks.deadline_storm import _admin, cpu_seconds, setup
from benchmarks.smtp_sink import smtp_sink

MAILS_A_GAME = 8  # seven players and the game master


# ------------------------------------------------------------------------------ the judge's servers


def judge_server(url: str, smtp_port: int, tick: float, stopped: Any) -> None:
    """One server process: the loops of `judge serve` (no dashboard), mail out by SMTP."""
    from app.mail.inbox import MaildirInbox
    from app.mail.outbound.mailer import SmtpMailer
    from app.main import _serve, build_judge
    from app.settings import Settings

    logging.getLogger("apscheduler").setLevel(logging.ERROR)  # "tick skipped: still running" is expected here
    inbox_dir = Path(f"/tmp/deadline-to-inbox-{os.getpid()}")
    settings = Settings(database_url=url, mail_mode="imap", smtp_host="127.0.0.1", smtp_port=smtp_port,
                        tick_seconds=tick, poll_seconds=1.0, outage_minutes=10**6, web_port=0,
                        judge_address="judge@judge.test",
                        maildir_inbox=str(inbox_dir))
    judge = build_judge(settings, migrate=False)
    stop, thread_stop = asyncio.Event(), threading.Event()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        await _serve(judge, MaildirInbox(inbox_dir), SmtpMailer("127.0.0.1", smtp_port), stop, thread_stop, True)

    started = time.process_time()
    asyncio.run(main())
    stopped.put(time.process_time() - started)


# ------------------------------------------------------------------------------ the run


def _map_cpu(sessions: Any, count: int = 5) -> float:
    """Median CPU milliseconds of drawing `count` of the stored results maps again (the renderer's
    layers that never change drawn first, as a server has them after its first map)."""
    from app.maps import phase_map_png

    with sessions.begin() as db:
        images = list(db.scalars(select(MapImage).where(MapImage.kind == "results").limit(count)))
        inputs = [(i.variant, i.state, i.result, i.title) for i in images]
    if not inputs:
        return float("nan")
    phase_map_png(inputs[0][0], inputs[0][1], inputs[0][2], title=inputs[0][3])
    times = []
    for variant, state, result, title in inputs:
        cpu = time.process_time()
        phase_map_png(variant, state, result, title=title)
        times.append(time.process_time() - cpu)
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2, help="server processes (scheduler and drain each)")
    parser.add_argument("--tick", type=float, default=1.0, help="the scheduler's tick, seconds (JUDGE_TICK_SECONDS)")
    parser.add_argument("--layout", choices=("judge", "zine"), default="judge")
    parser.add_argument("--smtp-port", type=int, default=0, help="default: a free port")
    parser.add_argument("--timeout", type=float, default=7200.0, help="give up after this many seconds")
    parser.add_argument("--admin-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    port = args.smtp_port or _free_port()
    name = f"judge_inbox_{secrets.token_hex(4)}"
    with _admin(args.admin_url) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = args.admin_url.rsplit("/", 1)[0] + "/" + name
    counts = multiprocessing.Array("d", 4)  # mails, bytes, time of the last 250, the sink's CPU then
    ready = multiprocessing.Event()
    sink = multiprocessing.Process(target=smtp_sink, args=(port, counts, ready), daemon=True)
    servers: list[multiprocessing.Process] = []
    stopped: Any = multiprocessing.Queue()
    try:
        started = time.perf_counter()
        setup(url, args.games)
        engine = make_engine(url)
        sessions = make_sessionmaker(engine)
        if args.layout != "judge":
            with sessions.begin() as db:
                for game in db.scalars(select(Game)):
                    game.settings = {**game.settings, "layout": args.layout}
        print(f"setup: {args.games} standard games in {time.perf_counter() - started:.1f} s; "
              f"{args.processes} server processes, tick {args.tick:g} s, {args.layout} layout")
        sink.start()
        ready.wait(30)
        servers = [multiprocessing.Process(target=judge_server, args=(url, port, args.tick, stopped))
                   for _ in range(args.processes)]
        for server in servers:
            server.start()
        time.sleep(8)  # the servers are up and ticking
        with sessions.begin() as db:  # every game and its open phase due in two seconds
            deadline = utcnow() + timedelta(seconds=2)
            db.execute(Game.__table__.update().values(deadline=deadline))
            db.execute(Phase.__table__.update().where(Phase.status == "open").values(deadline=deadline))
        expected = args.games * MAILS_A_GAME
        give_up = time.monotonic() + args.timeout
        last_report = time.monotonic()
        while counts[0] < expected and time.monotonic() < give_up:
            time.sleep(0.5)
            if time.monotonic() - last_report > 60:
                last_report = time.monotonic()
                print(f"  ... {int(counts[0])} of {expected} mails accepted", flush=True)
        mails, size, last = int(counts[0]), counts[1], counts[2]
        database_cpu = _database_cpu(args.admin_url, name)
        for server in servers:
            os.kill(server.pid or 0, signal.SIGTERM)
        server_cpu = [stopped.get(timeout=120) for _ in servers]
        for server in servers:
            server.join(timeout=60)
        with sessions.begin() as db:
            queued = db.scalar(select(func.count()).select_from(OutboundMessage)
                               .where(OutboundMessage.kind == "results"))
        map_ms = _map_cpu(sessions)
        engine.dispose()
        lag = last - deadline.timestamp()
        games = mails / MAILS_A_GAME
        print(f"deadline to inbox (PostgreSQL, {args.processes} server processes, SMTP on loopback): "
              f"{args.games} games, {queued} results mails queued, {mails} mails accepted"
              + ("" if mails >= expected else f"  (GAVE UP after {args.timeout:.0f} s)"))
        print(f"  seconds from the deadline to the last mail accepted: {lag:.1f} s")
        print(f"  {games / lag:.1f} games/s, {mails / lag:.1f} mails/s, {size / max(mails, 1) / 1000:.1f} kB a mail")
        print(f"  map: {map_ms:.1f} ms of CPU a phase (five stored maps drawn again); "
              f"the servers' CPU: {sum(server_cpu):.1f} s in all; PostgreSQL's (the servers' connections): "
              f"{database_cpu:.1f} s; the SMTP sink's: {counts[3]:.1f} s")
    finally:
        for server in servers:
            if server.is_alive():
                server.kill()
        if sink.is_alive():
            sink.kill()
        with _admin(args.admin_url) as conn:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
    return 0


def _database_cpu(admin_url: str, name: str) -> float:
    """CPU seconds the PostgreSQL backends serving the benchmark's database have used so far (read
    from /proc: the database runs on this machine); those that have ended are not counted."""
    with _admin(admin_url) as conn:
        pids = [row[0] for row in conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (name,))]
    return cpu_seconds(pids)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


if __name__ == "__main__":
    sys.exit(main())
