"""Issue 10, "no slower": the statements one order mail costs, and the open phase a
transaction remembers (`queries.open_phase_of`) going stale never."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event

from app.db import queries
from app.db.models import Game, Phase
from tests.server.conftest import Harness, player, token_address
from tests.support.units import unit


@contextmanager
def _statements(harness: Harness) -> Iterator[Counter[str]]:
    seen: Counter[str] = Counter()
    engine = harness.judge.sessions.kw["bind"]

    def count(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        words = statement.split()
        table = words[words.index("FROM") + 1] if words[0] == "SELECT" and "FROM" in words else ""
        seen[f"{words[0]} {table}".strip()] += 1

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


def test_an_order_mail_by_reply_address_asks_for_the_open_phase_once(started: Harness) -> None:
    token = token_address(started, "FRANCE")
    with _statements(started) as seen:
        out = started.send(player("FRANCE"), "A PAR-BUR\nA MAR-SPA\nF BRE-MAO", to=token, confirm=False)
    assert out.status == "done"
    assert "A PAR - BUR" in started.last_reply(player("FRANCE"))
    assert seen["SELECT phases"] == 1, seen
    # The player by its reply address, the seats for the early-processing check; the game
    # locked for the mail: 22 statements in all (30 before the open phase was remembered).
    assert seen["SELECT players"] <= 3 and seen["SELECT games"] <= 2, seen
    assert sum(seen.values()) <= 22, seen


def test_the_remembered_open_phase_follows_the_game(started: Harness) -> None:
    with unit(started.judge) as uow:
        db = uow.session
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        first = uow.open_phase_of(game)
        assert first is not None and first.status == "open"
        with _statements(started) as seen:
            assert uow.open_phase_of(game) is first
        assert not seen  # remembered: no statement
        first.status = "processed"  # the turn closes in this transaction ...
        assert uow.open_phase_of(game) is None  # ... (flushed, then asked again)
        later = Phase(game_id=game.id, seq=first.seq + 1, code="F1901M", status="open",
                      state_before=first.state_before)
        db.add(later)
        game.phase, game.version = "F1901M", game.version + 1
        db.flush()
        assert uow.open_phase_of(game) is later
    with unit(started.judge) as uow:  # another transaction asks the database again
        db = uow.session
        game = db.get_one(Game, game.id)
        with _statements(started) as seen:
            assert uow.open_phase_of(game) is not None
        assert seen["SELECT phases"] == 1

