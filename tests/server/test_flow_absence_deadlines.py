"""Issue 22.2: absences are honoured after they are set: every deadline the judge sets is moved
past them, the GM is warned of one inside an absence (CONFIRM sets it all the same), and the end
date is inclusive."""

from __future__ import annotations

from datetime import UTC, datetime

from app.db import queries
from tests.server.conftest import Harness, player, signon

GM = "SIGNON master@alpha masterpw\n"


def _deadline(harness: Harness) -> datetime | None:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        return game.deadline


def test_the_masters_deadline_inside_an_absence_is_refused_until_confirmed(started: Harness) -> None:
    before = _deadline(started)
    started.send(player("FRANCE"), signon("FRANCE") + "SET ABSENCE 2026-03-10 TO 2026-03-14")
    reply = started.last_reply(player("FRANCE"))
    assert "Absence recorded from Tue Mar 10 2026 00:00 UTC to Sat Mar 14 2026 23:59 UTC." in reply
    assert _deadline(started) == before  # the deadline (March 3) is not in the absence
    started.send("gm@example.com", GM + "SET DEADLINE 2026-03-11 12:00")
    reply = started.last_reply("gm@example.com")
    assert "France is absent from Tue Mar 10 2026 00:00 UTC to Sat Mar 14 2026 23:59 UTC" in reply
    assert "Sun Mar 15 2026 12:00 UTC" in reply and "add CONFIRM" in reply
    assert _deadline(started) == before
    # The end date is inclusive: the last day of the absence is refused too.
    started.send("gm@example.com", GM + "SET DEADLINE 2026-03-14 20:00")
    assert "France is absent" in started.last_reply("gm@example.com")
    assert _deadline(started) == before
    started.send("gm@example.com", GM + "SET DEADLINE 2026-03-11 12:00 CONFIRM")
    assert "Deadline set to Wed Mar 11 2026 12:00 UTC" in started.last_reply("gm@example.com")
    assert _deadline(started) == datetime(2026, 3, 11, 12, 0, tzinfo=UTC)
    started.send("gm@example.com", GM + "SET DEADLINE 2026-03-09 12:00")
    assert _deadline(started) == datetime(2026, 3, 9, 12, 0, tzinfo=UTC)


def test_the_judges_next_deadline_is_moved_past_an_absence(started: Harness) -> None:
    # The Spring deadline (March 3 12:00) is in the absence: moved to the same time after it.
    started.send(player("FRANCE"), signon("FRANCE") + "SET ABSENCE 2026-03-02 TO 2026-03-05")
    assert "The deadline moved after it" in started.last_reply(player("FRANCE"))
    assert _deadline(started) == datetime(2026, 3, 6, 12, 0, tzinfo=UTC)
    # Processed now (March 1), the Fall deadline would be March 3 12:00: in the absence too.
    started.send("gm@example.com", GM + "PROCESS")
    with started.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.phase == "F1901M"
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        assert game.deadline == phase.deadline == datetime(2026, 3, 6, 12, 0, tzinfo=UTC)
    results = started.outbox(to=player("ITALY"), kind="results")[-1].body_text
    assert "Fri Mar 06 2026 12:00" in results
