"""Issue 22 items 12 and 13 by mail: SUMMARY after a Fall with retreats, the zine's centres,
LIST after ``SET PRESS postal``, one phase naming per mail."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from app.db import queries
from app.scheduler import tick
from tests.server.conftest import Harness, player, signon

GM = "gm@example.com"
UNITS: dict[str, list[str]] = {
    "AUSTRIA": ["A GAL", "A VIE", "F TRI"], "ENGLAND": ["A LVP", "F EDI", "F LON"],
    "FRANCE": ["A MAR", "A PAR", "F BRE"], "GERMANY": ["A BER", "A MUN", "F KIE"],
    "ITALY": ["A ROM", "A VEN", "F NAP"], "RUSSIA": ["A UKR", "A WAR", "A MOS", "F SEV"],
    "TURKEY": ["F ANK", "A CON", "A SMY"],
}
CENTERS = {"AUSTRIA": ["BUD", "TRI", "VIE"], "ENGLAND": ["EDI", "LON", "LVP"], "FRANCE": ["BRE", "MAR", "PAR"],
           "GERMANY": ["BER", "KIE", "MUN"], "ITALY": ["NAP", "ROM", "VEN"],
           "RUSSIA": ["MOS", "SEV", "STP", "WAR"], "TURKEY": ["ANK", "CON", "SMY"]}
# Russia takes Rumania and dislodges the Austrian army in Galicia, which can retreat.
RUSSIA = ["A Ukr - Gal", "A War S A Ukr - Gal", "F Sev - Rum", "A Mos H"]


def _fall_position(harness: Harness) -> None:
    state: dict[str, Any] = {"variant": "standard", "phase": "F1902M", "units": UNITS, "centers": CENTERS,
                             "dislodged": {}}
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        phase.code = game.phase = "F1902M"
        phase.state_before = state
        game.deadline = phase.deadline = harness.clock.now + timedelta(hours=48)


def _play_fall(harness: Harness, *, italy: bool = True) -> None:
    for power, own in UNITS.items():
        if power == "ITALY" and not italy:
            continue
        lines = RUSSIA if power == "RUSSIA" else [f"{u} H" for u in own]
        harness.send(player(power), signon(power) + "\n".join(lines))
    harness.clock.advance(hours=49)
    assert tick(harness.judge).processed == ["alpha"]


def _phase(harness: Harness) -> str:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.phase is not None
        return game.phase


def _row(text: str, phase: str) -> list[str]:
    return next(line.split() for line in text.splitlines() if line.strip().startswith(phase + " "))


# -- item 12 -----------------------------------------------------------------------------------------

def test_summary_after_a_fall_with_retreats_counts_the_centres_after_that_fall(started: Harness) -> None:
    started.send(GM, "SIGNON master@alpha masterpw\nSET GRACE 0")
    _fall_position(started)
    _play_fall(started)
    assert _phase(started) == "F1902R"
    started.send("x@example.com", "SUMMARY alpha")
    during = started.last_reply("x@example.com")
    assert _row(during, "F1902M")[1:] == ["3", "3", "3", "3", "3", "5", "3"], during  # Rumania is Russian
    started.send(player("AUSTRIA"), signon("AUSTRIA") + "A Gal - Boh")
    started.clock.advance(hours=49)
    tick(started.judge)
    assert _phase(started) == "W1902A"  # Russia builds
    started.send("x@example.com", "SUMMARY alpha")
    after = started.last_reply("x@example.com")
    assert _row(after, "F1902R")[1:] == ["3", "3", "3", "3", "3", "5", "3"], after


# -- item 13: LIST after SET PRESS postal ------------------------------------------------------------

def test_list_shows_the_press_rule_after_set_press_postal(started: Harness) -> None:
    started.send(GM, "SIGNON master@alpha masterpw\nSET PRESS white\nSET PRESS postal")
    started.send("x@example.com", "LIST alpha")
    assert "press white (postal)." in started.last_reply("x@example.com")


# -- item 13, issue 28 item 15: one name of the adjustment phase everywhere ------------------------------

def test_the_winter_acknowledgement_and_results_name_the_phase_one_way(started: Harness) -> None:
    """W1902A in the subjects, the :: header, the title and every sentence of the judge layout;
    njudge's F1902B is read on input."""
    started.send(GM, "SIGNON master@alpha masterpw\nSET GRACE 0")
    _fall_position(started)
    _play_fall(started)
    started.send(player("RUSSIA"), signon("RUSSIA") + "PHASE F1902B\nBUILD F StP/sc")  # the judges' name
    advance = started.last_reply(player("RUSSIA"))
    assert "Orders that follow are for W1902A." in advance, advance
    assert "Orders stored in advance for W1902A" in advance
    assert "F1902B" not in advance.replace("> PHASE F1902B", ""), advance
    started.send(player("AUSTRIA"), signon("AUSTRIA") + "A Gal - Boh")
    started.clock.advance(hours=49)
    tick(started.judge)
    assert _phase(started) == "W1902A"
    started.send(player("RUSSIA"), signon("RUSSIA") + "STATUS", subject="")  # no subject: the judge's own title
    ack_mail = [m for m in started.outbox(to=player("RUSSIA")) if m.kind in ("reply", "copy")][-1]
    ack = ack_mail.body_text
    assert "BUILD F STP/SC" in ack, ack
    assert ":: Deadline: W1902A " in ack, ack
    assert "The deadline for W1902A orders is" in ack
    assert "F1902B" not in ack and "F1902B" not in ack_mail.subject and "W1902A" in ack_mail.subject
    started.clock.advance(hours=49)
    tick(started.judge)
    mail = started.outbox(to=player("ITALY"), kind="results")[-1]
    results = mail.body_text
    assert ":: Deadline: W1902A " in results and "(alpha.W1902A)" in results, results
    assert "F1902B" not in results and mail.subject.endswith(" W1902A"), mail.subject
