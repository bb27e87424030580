"""Issue 28 items 13 and 14: a missed deadline is counted or excused, never both, and announced when
it happens; a late order in the grace period is told the deadline passed and when the grace ends."""

from __future__ import annotations

from app.db import queries
from app.scheduler import tick
from tests.server.conftest import POWERS, Harness, player, signon
from tests.server.test_flow_disorder_notices import _others_hold, _seat

GM = "SIGNON master@alpha masterpw\n"


def _into_grace(harness: Harness, late: str) -> None:
    """Everyone but ``late`` orders; the deadline passes and the grace period begins."""
    _others_hold(harness, late)
    harness.clock.advance(hours=49)
    assert tick(harness.judge).graced == ["alpha"]


def _phase(harness: Harness) -> str:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.phase is not None
        return game.phase


def _notices(harness: Harness, to: str) -> list[str]:
    return [m.subject for m in harness.outbox(to=to, kind="notice")]


def test_the_gms_process_in_the_grace_period_counts_the_miss_and_says_so(started: Harness) -> None:
    """Item 13: njudge's PROCESS counts the miss; under SET NMR cd the power goes to civil disorder
    at once, and the board is told then, not at its next miss."""
    _into_grace(started, "ITALY")
    started.send("gm@example.com", GM + "PROCESS")
    assert _phase(started) == "F1901M"
    assert _seat(started, "ITALY") == ("cd", 1)
    assert _notices(started, player("FRANCE")) == ["Diplomacy game alpha: Italy in civil disorder"]


def test_the_second_miss_in_a_row_is_announced_once_as_abandoned(started: Harness) -> None:
    """Item 13: the miss that abandons a power is announced as that (with the call for a
    replacement), not also as a new civil disorder "open for takeover after 2"."""
    started.send("gm@example.com", GM + "SET EARLY off")
    _into_grace(started, "ITALY")
    started.send("gm@example.com", GM + "PROCESS")
    before = len(_notices(started, player("FRANCE")))
    _others_hold(started, "ITALY")  # Italy, in civil disorder, is waited for no more: no grace
    started.clock.advance(hours=49)
    assert tick(started.judge).processed == ["alpha"]
    assert _seat(started, "ITALY") == ("cd", 2)
    new = [m.body_text for m in started.outbox(to=player("FRANCE"), kind="notice")][before:]
    assert len(new) == 1, new
    assert "Italy in game 'alpha' was abandoned: no orders for 2 deadlines in a row" in new[0], new[0]
    assert "TAKEOVER italy@alpha <password>" in new[0]
    assert "open for takeover after" not in new[0] and "After 2 missed deadlines" not in new[0]


def test_a_late_order_in_the_grace_period_is_told_the_deadline_passed_and_when_the_grace_ends(
        started: Harness) -> None:
    """Item 14: never ``:: Deadline: S1901M none set`` nor "is none set"."""
    _into_grace(started, "ITALY")
    started.send(player("ITALY"), signon("ITALY") + "A Ven H")
    ack = started.last_reply(player("ITALY"))
    assert "none set" not in ack, ack
    assert ":: Deadline: S1901M Tue Mar 03 2026 12:00 UTC\n" in ack, ack
    assert ("The deadline for S1901M orders passed on Tue Mar 03 2026 12:00 UTC; the\n"
            "grace period ends Wed Mar 04 2026 12:00 UTC.") in ack, ack
    started.send("gm@example.com", GM + "SET LAYOUT zine")
    started.send(player("ITALY"), signon("ITALY") + "A Rom H")
    zine = started.last_reply(player("ITALY"))
    assert "none set" not in zine and "The deadline passed; the grace period ends Wed Mar 04 2026 12:00 UTC." in zine
    started.send("someone@example.com", "LIST alpha")
    listed = started.last_reply("someone@example.com")
    assert "Phase S1901M, deadline Tue Mar 03 2026 12:00 UTC (passed);\n" \
           "the grace period ends Wed Mar 04 2026 12:00 UTC." in listed, listed
    assert POWERS
