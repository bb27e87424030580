"""Issue 20.10, the deadline storm: what one turn costs the database, and the scheduler's share of
the due games among several processes.  The bounds are what a turn takes now (measured); a
change that makes a turn ask for more fails here before it slows down a storm."""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from sqlalchemy import Engine, event, func, select

from app import jsonapi
from app.db import queries
from app.db.models import AuditEntry, Game, GmNote, OrderRow, OutboundMessage, Phase, Player, Press
from app.db.models_web import CoMaster, GmAccount
from app.db.session import make_engine, make_sessionmaker
from app.scheduler import tick
from app.services.kernel.context import Judge
from app.services.kernel.outcome import bump_version
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.notify import mail_game, mail_seat
from app.services.seats.absence import clear_of_absences
from app.services.turns.publish import previous_centres
from app.settings import Settings
from tests.server.conftest import POWERS, Harness, player, signon
from tests.support.units import unit


@contextmanager
def _statements(engine: Engine) -> Iterator[Counter[str]]:
    """The statements run meanwhile, by their first words and table (``SELECT games``, ``UPDATE phases``)."""
    seen: Counter[str] = Counter()

    def count(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        words = statement.split()
        if words[0] == "BEGIN":  # SQLite's BEGIN IMMEDIATE (app/db/session.py)
            return
        if words[0] == "SELECT":
            table = _outer_from(statement)
        elif words[0] in ("INSERT", "DELETE"):
            table = words[2]
        else:
            table = words[1]
        seen[f"{words[0]} {table}".strip()] += 1

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


def _outer_from(statement: str) -> str:
    """The first table a SELECT reads from outside parentheses (not a subquery of its columns)."""
    depth = 0
    for token in re.findall(r"\(|\)|\bFROM \w+", statement):
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
        elif depth == 0:
            return token.split()[1]
    tables = re.findall(r"\bFROM (\w+)", statement)
    return tables[0] if tables else ""


def _engine(harness: Harness) -> Engine:
    engine: Engine = harness.judge.sessions.kw["bind"]
    return engine


def _game(harness: Harness) -> Game:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        return game


def _play_deadline(harness: Harness, ordering: tuple[str, ...]) -> Counter[str]:
    """The powers ``ordering`` hold, the others send nothing; the deadline (and any grace) passes;
    the statements of the tick that processes the turn."""
    for power in ordering:
        need = jsonapi.orderable(_open_state(harness), power)
        if need["kind"] == "movement":
            harness.send(player(power), signon(power) + "\n".join(f"{unit} H" for unit in need["units"]))
    game = _game(harness)
    due = game.deadline or game.grace_until
    assert due is not None
    harness.clock.now = due + timedelta(minutes=1)
    with _statements(_engine(harness)) as seen:
        report = tick(harness.judge)
    if report.graced:  # the late powers' grace first (NMR CD)
        grace = _game(harness).grace_until
        assert grace is not None
        harness.clock.now = grace + timedelta(minutes=1)
        with _statements(_engine(harness)) as seen:
            report = tick(harness.judge)
    assert report.processed == ["alpha"]
    return seen


def _open_state(harness: Harness) -> dict[str, object]:
    with harness.judge.sessions.begin() as db:
        phase = queries.open_phase(db, _game(harness).id)
        assert phase is not None
        return phase.state_before


@pytest.mark.parametrize("policy", ["hold", "cd"])
def test_a_deadline_turn_asks_the_database_a_bounded_number_of_times(started: Harness, policy: str) -> None:
    started.send("gm@example.com", f"SIGNON master@alpha masterpw\nSET NMR {policy}")
    version = _game(started).version
    for turn, ordering in (("S1901M", ("FRANCE", "GERMANY")), ("F1901M", tuple(POWERS))):
        assert _game(started).phase == turn
        seen = _play_deadline(started, ordering)
        # What the tick itself asks (the outage guard, the due games, the reminders), then the turn:
        # the game locked with its seats and its open phase (and whether it has GM's notes, press,
        # co-GMs, absences: issue 26, a statement each it has none of), the orders (once more for the
        # late powers under CD), the centres a year ago, one flush (the game with its new version, the
        # phase with its results text, the next phase, the seats), the map, the mails.  28 statements
        # a turn before issue 20.10; 13 on main before issue 26 (14 once the mails asked for their map).
        late = 1 if policy == "cd" else 0  # who is late: the orders read before the turn's own reading
        notice = 1 if policy == "cd" and turn == "S1901M" else 0  # civil disorder
        assert seen["SELECT orders"] == 1 + late, seen  # the orders in advance with the phase's own
        assert seen["SELECT phases"] == 1, seen  # the centres a year ago (was every phase); the open one with the lock
        assert seen["UPDATE games"] == 1, seen  # the claim goes with the turn's flush (was one more, twice)
        assert seen["UPDATE phases"] == 1, seen  # with its results text
        assert seen["INSERT outbound_messages"] == 1 + notice, seen  # the results (and the notice), all at once
        # None asked for: the game has no absences, co-GMs, unpublished press, GM's notes (the lock
        # said so), and the mails wait for the map the turn has just recorded without asking about it.
        for unasked in ("SELECT audit_log", "SELECT co_masters", "SELECT press", "SELECT gm_notes", "SELECT map_images"):
            assert seen[unasked] == 0, (unasked, seen)
        noted = 1 if policy == "hold" and turn == "S1901M" else 0  # SET NMR HOLD changed a setting: the judge noted it
        assert seen["DELETE gm_notes"] == noted, seen  # taken (one delete that returns them) when there are some
        tick_itself = 4  # the outage guard (2), the due games, the reminders
        # HOLD: 9, with the seats' misses; CD: who is late, the seats put in civil disorder and the notice.
        assert sum(seen.values()) - tick_itself <= {"hold": 9, "cd": 12}[policy] + noted, seen
        version += 1
        assert _game(started).version == version  # one up a turn


def test_the_claim_writes_the_game_once_and_counts_one_up(harness: Harness) -> None:
    with unit(harness.judge) as uow:
        db = uow.session
        game = Game(name="claimed", variant="standard", status="active", master_email="gm@example.com",
                    master_password_hash="x", press="white", settings={})
        db.add(game)
        db.flush()
        before = game.version
        with _statements(_engine(harness)) as seen:
            bump_version(uow, game)
            db.flush()
        assert game.version == before + 1
        assert seen == Counter({"UPDATE games": 1}), seen  # the guarded UPDATE, and no second one at the flush
    with harness.judge.sessions.begin() as db:
        assert db.get_one(Game, game.id).version == before + 1


def test_a_claim_by_the_transaction_holding_the_lock_goes_with_its_update_of_the_game(harness: Harness) -> None:
    with harness.judge.sessions.begin() as db:
        game = Game(name="locked", variant="standard", status="active", master_email="gm@example.com",
                    master_password_hash="x", press="white", settings={})
        db.add(game)
    with unit(harness.judge) as uow:
        db = uow.session
        locked = uow.lock_game(game.id)
        assert locked is not None and uow.holds_lock(locked)
        before = locked.version
        with _statements(_engine(harness)) as seen:
            bump_version(uow, locked)
        assert not seen  # nobody else can change the row: nothing to ask
        assert locked.version == before + 1 and uow.holds_lock(locked)
        locked.phase = "F1901M"
        with _statements(_engine(harness)) as seen:
            db.flush()
        assert seen == Counter({"UPDATE games": 1}), seen
        locked.version += 1  # changed by this transaction without saying so: no longer known
        assert not uow.holds_lock(locked)
    with unit(harness.judge) as uow:
        db = uow.session
        assert db.get_one(Game, game.id).version == before + 2
        unlocked = db.get_one(Game, game.id)
        assert not uow.holds_lock(unlocked)  # read, not locked: the claim is the guarded UPDATE
        with _statements(_engine(harness)) as seen:
            bump_version(uow, unlocked)
        assert seen == Counter({"UPDATE games": 1}), seen


def test_a_deadline_clear_of_absences_reads_them_in_one_statement(started: Harness) -> None:
    now = started.clock.now
    with unit(started.judge) as uow:
        db = uow.session
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        seats = {seat.power: seat for seat in game.players if seat.power}
        for power, days in (("FRANCE", (2, 4)), ("TURKEY", (3, 6)), ("ENGLAND", (20, 21))):
            seat = seats[power]
            db.add(AuditEntry(game_id=game.id, actor=seat.email, action="absence", created_at=now,
                              detail={"seat": seat.id, "email": seat.email, "power": power,
                                      "start": (now + timedelta(days=days[0])).isoformat(),
                                      "end": (now + timedelta(days=days[1])).isoformat()}))
        # Set by Austria's previous player: his absences are not the seat's now.
        db.add(AuditEntry(game_id=game.id, actor="old@example.com", action="absence", created_at=now,
                          detail={"seat": seats["AUSTRIA"].id, "email": "old@example.com", "power": "AUSTRIA",
                                  "start": now.isoformat(), "end": (now + timedelta(days=30)).isoformat()}))
        db.flush()
        with _statements(_engine(started)) as seen:
            moved = clear_of_absences(uow, game, now + timedelta(days=3))
        assert seen == Counter({"SELECT audit_log": 1}), seen  # one for all seven seats (was one a seat)
        # France is away from day 2 to 4, Turkey from 3 to 6: the same time of day after both.
        assert moved == now + timedelta(days=7)
        assert clear_of_absences(uow, game, now + timedelta(days=10)) == now + timedelta(days=10)


def test_previous_centres_come_from_the_last_adjustment_or_the_start(started: Harness) -> None:
    with unit(started.judge) as uow:
        db = uow.session
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        first = queries.open_phase(db, game.id)
        assert first is not None
        start = {p: list(c) for p, c in first.state_before["centers"].items()}
        assert previous_centres(uow, game, first.seq) == {}  # nothing processed before the first phase
        first.status = "processed"

        def processed(seq: int, code: str, centres: dict[str, list[str]]) -> None:
            state = {**first.state_before, "phase": code, "centers": centres}
            db.add(Phase(game_id=game.id, seq=seq, code=code, status="processed", state_before=state,
                         state_after=state))

        processed(2, "F1901M", {**start, "FRANCE": [*start["FRANCE"], "SPA"]})
        db.flush()
        counts = {p.upper(): len(c) for p, c in start.items()}
        assert previous_centres(uow, game, 3) == counts  # no adjustment yet: the counts the game began with
        processed(3, "W1901A", {**start, "FRANCE": [*start["FRANCE"], "SPA", "POR"]})
        processed(4, "S1902M", start)
        db.add(Phase(game_id=game.id, seq=5, code="W1902A", status="rolled_back", state_before=start,
                     state_after={"centers": {}}))
        db.flush()
        assert previous_centres(uow, game, 5)["FRANCE"] == 5  # the last adjustment processed before 5
        assert previous_centres(uow, game, 3)["FRANCE"] == 3
        assert previous_centres(uow, game)["FRANCE"] == 5  # before no phase in particular


def test_a_mail_to_every_seat_is_one_insert_in_the_order_queued(started: Harness) -> None:
    with unit(started.judge) as uow:
        db = uow.session
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        france = next(seat for seat in game.players if seat.power == "FRANCE")
        mail_seat(uow, started.judge, france, "first", "queued first\n")  # still in the session
        with _statements(_engine(started)) as seen:
            count = mail_game(uow, started.judge, game, "everyone", "to all\n", html="<p>to all</p>", kind="notice")
        assert count == len(POWERS) + 1
        # the pending one first, then all at once; and the co-GMs who get the master's mail (issue 28.5)
        assert seen == Counter({"INSERT outbound_messages": 2, "SELECT co_masters": 1}), seen
    rows = started.outbox(kind="notice")[-(count + 1):]
    assert [row.subject for row in rows] == ["first"] + ["everyone"] * count
    master = rows[-1]
    assert master.recipients == ["gm@example.com"] and master.reply_to is None and master.body_html is None
    seat_rows = rows[1:-1]
    assert {row.recipients[0] for row in seat_rows} == {player(power) for power in POWERS}
    assert all(row.reply_to and row.reply_to.startswith("judge+") and (row.body_html or "").startswith("<p>to all</p>")
               and row.status == "pending" and row.attempts == 0 and row.created_at is not None
               for row in seat_rows)


def test_mails_held_back_by_the_unit_of_work_stay_held(started: Harness) -> None:
    before = len(started.outbox())
    with UnitOfWork(started.judge.sessions) as unit:
        game = queries.game_by_name(unit.session, "alpha")
        assert game is not None
        unit.hold()
        assert mail_game(unit, started.judge, game, "held", "held back\n") == len(POWERS) + 1
        held = unit.take_held()
        assert [row.subject for row in held] == ["held"] * (len(POWERS) + 1)
        unit.commit()
    assert len(started.outbox()) == before  # held: queued only if the door queues them


def _storm_games(judge: Judge, count: int) -> list[int]:
    """``count`` started standard games past their deadline (NMR HOLD, no orders), as the storm
    benchmark makes them; their ids in the order the scheduler finds them due."""
    state = jsonapi.initial_state("standard")
    now = judge.now()
    ids = []
    with judge.sessions.begin() as db:
        for n in range(count):
            game = Game(name=f"storm{n}", variant="standard", status="active", master_email=f"gm{n}@example.com",
                        master_password_hash="x", press="white", phase="S1901M",
                        deadline=now - timedelta(minutes=count - n),
                        settings={"nmr": "hold", "reminder_hours": 0, "early": False})
            db.add(game)
            db.flush()
            for power in POWERS:
                db.add(Player(game_id=game.id, power=power, role="player", email=f"{power.lower()}{n}@example.com",
                              password_hash="x", status="active", reply_token=f"t{game.id}{power}"))
            db.add(Phase(game_id=game.id, seq=1, code="S1901M", status="open", state_before=state,
                         deadline=now + timedelta(days=1)))
            ids.append(game.id)
    return ids


def test_a_scheduler_goes_past_a_game_another_holds_without_waiting_or_a_transaction(
        postgres_template: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL, as a second scheduler process would find it: the first due game is locked by
    another transaction.  The tick skips it (SKIP LOCKED) within the transaction of the next turn,
    goes on from a place in what is left (another process works from the front: here the middle),
    and the game it skipped is processed by a later tick."""
    from app.services.turns import deadlines

    monkeypatch.setattr(deadlines, "_jump", lambda length: length // 2)
    with postgres_template.copy() as url:  # type: ignore[attr-defined]
        engine = make_engine(url)
        judge = Judge(settings=Settings(database_url=url, outage_minutes=10**7), sessions=make_sessionmaker(engine))
        ids = _storm_games(judge, 7)
        names = {game_id: f"storm{n}" for n, game_id in enumerate(ids)}
        other = make_engine(url)
        transactions: list[object] = []

        def began(conn):  # type: ignore[no-untyped-def]
            transactions.append(conn)

        event.listen(engine, "begin", began)
        try:
            with other.connect() as holder, holder.begin():
                holder.execute(select(Game.id).where(Game.id == ids[0]).with_for_update())
                with _statements(engine) as seen:
                    report = tick(judge)
            # storm0 held: then from the middle of the other six (storm4 ...), and round to storm1.
            assert report.processed == [names[i] for i in (ids[4], ids[5], ids[6], ids[1], ids[2], ids[3])]
            assert seen["SELECT games"] == 1 + 7 + 1 + 1, seen  # due, the locks (storm0 skipped), due again, reminders
            # the outage guard, the due games, six turns (storm0 none of its own), the reminders
            assert len(transactions) == 1 + 1 + 6 + 1
            assert tick(judge).processed == [names[ids[0]]]
            with judge.sessions.begin() as db:
                assert db.scalar(select(func.count()).select_from(Phase).where(Phase.status == "processed")) == 7
        finally:
            event.remove(engine, "begin", began)
            other.dispose()
            engine.dispose()


@pytest.mark.parametrize("schedulers", [2, 3])
def test_schedulers_in_a_storm_process_every_game_once(postgres_template: object, schedulers: int) -> None:
    """Two or three scheduler processes (threads here, each with its own connections) share the
    due games: each game is processed once, and they seldom reach for a game another holds or had
    (before issue 20.10 two took turns down one list: a wasted transaction a turn; before issue 26
    three jumping to the middle met there again and again)."""
    with postgres_template.copy() as url:  # type: ignore[attr-defined]
        engines = [make_engine(url) for _ in range(schedulers)]
        judges = [Judge(settings=Settings(database_url=url, outage_minutes=10**7), sessions=make_sessionmaker(e))
                  for e in engines]
        count = 40
        _storm_games(judges[0], count)
        locks: Counter[str] = Counter()
        processed: list[str] = []
        errors: list[BaseException] = []

        def count_locks(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
            if statement.startswith("SELECT games.id, games.name") and "FOR UPDATE" in statement:
                locks["lock"] += 1
            elif statement.startswith("SELECT games.id \nFROM games") and "ORDER BY games.deadline" in statement:
                locks["due"] += 1  # the due games read (again after a miss)

        def run(judge: Judge) -> None:
            try:
                while (report := tick(judge)).processed:
                    processed.extend(report.processed)
            except BaseException as error:  # pragma: no cover - shown by the assertion below
                errors.append(error)

        for engine in engines:
            event.listen(engine, "before_cursor_execute", count_locks)
        try:
            threads = [threading.Thread(target=run, args=(judge,)) for judge in judges]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=120)
            assert not errors, errors
            assert sorted(processed) == sorted(f"storm{n}" for n in range(count))  # each once
            with judges[0].sessions.begin() as db:
                assert db.scalar(select(func.count()).select_from(Phase).where(Phase.status == "processed")) == count
                assert db.scalar(select(func.count()).select_from(OutboundMessage)
                                 .where(OutboundMessage.kind == "results")) == count * (len(POWERS) + 1)
                assert not db.scalar(select(func.count()).select_from(OrderRow))  # nobody ordered (NMR HOLD)
            # a few where they meet, not one a game (three meeting at the middle: 78-88 locks, 40-53
            # reads of the due games; at random: 46-57 and 9-22, measured with the machine loaded)
            assert locks["lock"] <= count + 10 * schedulers, locks
            assert locks["due"] <= 12 * schedulers, locks  # two or three ticks each, and a few misses
        finally:
            for engine in engines:
                event.remove(engine, "before_cursor_execute", count_locks)
                engine.dispose()


def test_a_turn_reads_what_the_game_has_of_notes_press_co_gms_and_absences(started: Harness) -> None:
    """The lock says whether the game has GM's notes, unpublished postal press, co-GMs and absences
    (issue 26); what it has, the turn reads (a statement each) and uses as before: the note and the
    press printed in the results, the proven co-GM mailed them, the next deadline clear of the absence."""
    game = _game(started)
    due = game.deadline
    assert due is not None
    with unit(started.judge) as uow:
        db = uow.session
        france = next(seat for seat in db.get_one(Game, game.id).players if seat.power == "FRANCE")
        db.add(GmNote(game_id=game.id, text="A note from the GM.", created_at=due))
        db.add(Press(game_id=game.id, phase="S1901M", sender="FRANCE", recipients=[], broadcast=True, postal=True,
                     body="Vive la France!"))
        db.add(GmAccount(email="co@example.com", password_hash="x", proven_at=due))
        db.add(CoMaster(game_id=game.id, email="co@example.com", added_by="gm@example.com"))
        db.add(AuditEntry(game_id=game.id, actor=france.email, action="absence", created_at=due,
                          detail={"seat": france.id, "email": france.email, "power": "FRANCE",
                                  "start": due.isoformat(), "end": (due + timedelta(days=30)).isoformat()}))
    seen = _play_deadline(started, tuple(POWERS))
    for asked in ("DELETE gm_notes", "SELECT press", "SELECT co_masters", "SELECT audit_log"):
        assert seen[asked] == 1, (asked, seen)
    results = started.outbox(to=player("TURKEY"), kind="results")[-1].body_text
    assert "A note from the GM." in results and "Vive la France!" in results
    assert started.outbox(to="co@example.com", kind="results")
    deadline = _game(started).deadline
    assert deadline is not None and deadline > due + timedelta(days=30)  # moved past France's absence
