"""A deadline storm: N standard games (default 1,000) share one deadline; how many seconds from
the deadline to the last result in the outbox?  On PostgreSQL (a throwaway database).

    python benchmarks/deadline_storm.py [--games 1000] [--workers 2] [--admin-url URL]

Each worker is a separate process running the scheduler tick against the same database, as
several `judge serve` processes would (SELECT ... FOR UPDATE SKIP LOCKED shares the work).  Also
printed: the statements a turn took, the workers' CPU a turn and their PostgreSQL backends' CPU a turn (what the machine's other load
does not change much; docs/architecture.md, "A turn at the deadline").
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import secrets
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import event, func, select, text

from app import jsonapi
from app.db.base import utcnow
from app.db.migrate import upgrade
from app.db.models import Game, OrderRow, OutboundMessage, Phase, Player
from app.db.session import make_engine, make_sessionmaker
from app.scheduler import tick
from app.services.kernel.context import Judge
from app.services.kernel.security import hash_password, new_token
from app.settings import Settings

OPENINGS = {
    "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"], "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"], "GERMANY": ["F KIE - DEN", "A MUN - RUH", "A BER - KIE"],
}


def _admin(url: str):  # type: ignore[no-untyped-def]
    import psycopg

    return psycopg.connect(url.replace("+psycopg", ""), autocommit=True)


def setup(url: str, games: int) -> None:
    upgrade(url)
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    state = jsonapi.initial_state("standard")
    password = hash_password("pw")
    powers = [p["id"] for p in jsonapi.variant_info("standard")["powers"]]
    far = utcnow() + timedelta(days=30)
    with sessions.begin() as db:
        for n in range(games):
            game = Game(name=f"storm{n:04d}", variant="standard", status="active", master_email=f"gm{n}@example.com",
                        master_password_hash=password, press="white", phase="S1901M", deadline=far,
                        settings={"nmr": "hold", "reminder_hours": 0, "early": False})
            db.add(game)
            db.flush()
            for power in powers:
                db.add(Player(game_id=game.id, power=power, role="player", email=f"{power.lower()}{n}@example.com",
                              password_hash=password, status="active", reply_token=new_token()))
            db.add(Phase(game_id=game.id, seq=1, code="S1901M", status="open", state_before=state, deadline=far))
            for power, orders in OPENINGS.items():
                for order in orders:
                    db.add(OrderRow(game_id=game.id, phase="S1901M", power=power, unit=" ".join(order.split()[:2]),
                                    line=order, order=order, checked=True))
    engine.dispose()


def _backend_cpu(db: Any, name: str) -> float:
    """The CPU seconds (user and system) the PostgreSQL backends of database ``name`` have used, but
    the asking connection's own (read from /proc: the server runs on this machine; 0 when not)."""
    pids = db.execute(text("SELECT pid FROM pg_stat_activity WHERE datname = :name AND pid <> pg_backend_pid()"),
                      {"name": name}).scalars().all()
    return cpu_seconds(pids)


def cpu_seconds(pids: Any) -> float:
    """The CPU seconds (user and system) the processes ``pids`` of this machine have used so far
    (read from /proc; a process that has ended counts 0)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def worker(url: str, counts: Any, release: Any) -> None:
    """Tick until nothing is due; ``counts`` gets (turns, statements, CPU seconds) of this process.
    Its connections stay open until ``release`` is set (their backends' CPU is read meanwhile)."""
    engine = make_engine(url)
    statements = [0]

    @event.listens_for(engine, "before_cursor_execute")
    def _count(*_: object) -> None:
        statements[0] += 1

    judge = Judge(settings=Settings(database_url=url, outage_minutes=10**6), sessions=make_sessionmaker(engine))
    turns, cpu = 0, time.process_time()
    while True:
        report = tick(judge)
        turns += len(report.processed)
        if not report.processed:
            break
    counts.put((turns, statements[0], time.process_time() - cpu))
    release.wait()
    engine.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--admin-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    name = f"judge_storm_{secrets.token_hex(4)}"
    with _admin(args.admin_url) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = args.admin_url.rsplit("/", 1)[0] + "/" + name
    try:
        started = time.perf_counter()
        setup(url, args.games)
        print(f"setup: {args.games} games in {time.perf_counter() - started:.1f} s")
        engine = make_engine(url)
        sessions = make_sessionmaker(engine)
        with sessions.begin() as db:
            deadline = utcnow()
            db.execute(Game.__table__.update().values(deadline=deadline))
        start = time.perf_counter()
        counts: Any = multiprocessing.Queue()
        release = multiprocessing.Event()
        procs = [multiprocessing.Process(target=worker, args=(url, counts, release)) for _ in range(args.workers)]
        with engine.connect() as conn:
            backends_before = _backend_cpu(conn, name)  # none yet: the workers' backends start with them
        for proc in procs:
            proc.start()
        done = [counts.get() for _ in procs]
        with engine.connect() as conn:
            backends = _backend_cpu(conn, name) - backends_before
        release.set()
        for proc in procs:
            proc.join()
        elapsed = time.perf_counter() - start
        with sessions.begin() as db:
            processed = db.scalar(select(func.count()).select_from(Phase).where(Phase.status == "processed"))
            results = db.scalar(select(func.count()).select_from(OutboundMessage)
                                .where(OutboundMessage.kind == "results"))
            last = db.scalar(select(func.max(OutboundMessage.created_at)).where(OutboundMessage.kind == "results"))
        engine.dispose()
        assert processed == args.games, processed
        lag = (last - deadline).total_seconds() if last else float("nan")
        print(f"deadline storm (PostgreSQL, {args.workers} worker processes): {args.games} games, "
              f"{processed} turns processed, {results} results mails queued")
        print(f"  seconds from the deadline to the last result in the outbox: {lag:.1f} s "
              f"(wall {elapsed:.1f} s, {args.games / elapsed:.1f} turns/s)")
        turns = sum(t for t, _, _ in done) or 1
        print(f"  per turn: {sum(n for _, n, _ in done) / turns:.1f} statements (the ticks' own included), "
              f"{1000 * sum(c for _, _, c in done) / turns:.1f} ms of the workers' CPU, "
              f"{1000 * backends / turns:.1f} ms of their PostgreSQL backends' CPU")
    finally:
        with _admin(args.admin_url) as conn:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
    return 0


if __name__ == "__main__":
    sys.exit(main())
