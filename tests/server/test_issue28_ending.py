"""Issue 28 items 8, 12, 16 and 20 by mail: how a game ends (the GM's ruling, the players' votes, a
solo), kept in the final mail, SUMMARY and HISTORY; DIAS votes and votes that lapse or expire;
the rollback notice naming the votes it withdrew; an eliminated power told."""

from __future__ import annotations

from sqlalchemy import select

from app.db import queries
from app.db.models import AuditEntry
from tests.server.conftest import POWERS, Harness, hold_all, player, signon

GM = "SIGNON master@alpha masterpw\n"


def _status(harness: Harness) -> str:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        return game.status


def _seat(harness: Harness, power: str) -> tuple[str, str | None]:
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        seat = queries.seat_for_power(db, game.id, power)
        assert seat is not None
        return seat.status, seat.draw


def _summary_and_history(harness: Harness) -> tuple[str, str]:
    harness.send(player("ITALY"), "SUMMARY alpha")
    summary = harness.last_reply(player("ITALY"))
    harness.send(player("ITALY"), "HISTORY alpha")
    return summary, harness.last_reply(player("ITALY"))


def _eliminate(harness: Harness, power: str) -> None:
    """``power`` loses every unit and centre in the position of the open phase (a test shortcut for
    a long game): it is out after the next phase is processed."""
    with harness.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        state = dict(phase.state_before)
        state["units"] = {p: list(u) for p, u in state["units"].items() if p != power}
        state["centers"] = {p: list(c) for p, c in state["centers"].items() if p != power}
        phase.state_before = state


# -- item 8: the GM's ruling ------------------------------------------------------------------------

def test_the_gm_declares_a_draw_with_a_statement_kept_in_the_final_mail_summary_and_history(
        started: Harness) -> None:
    hold_all(started)
    started.send("gm@example.com", GM + "PROCESS")
    started.send("gm@example.com", GM + "DECLARE DRAW Austria, England France\n"
                                        "The three survivors of the alliance agreed by press.\n\n"
                                        "Well played, all.\nENDSTATEMENT\nSIGNOFF")
    reply = started.last_reply("gm@example.com")
    assert "Game 'alpha' is over: a draw between Austria, England, France.  Everyone was told with your " \
           "statement" in reply, reply
    assert _status(started) == "finished"
    final = started.outbox(to=player("TURKEY"), kind="end")[-1]
    assert final.subject == "Diplomacy game alpha is over"
    text = final.body_text
    assert text.startswith(":: Judge: ") and ":: Deadline: F1901M " in text, text
    assert "Game 'alpha' has been declared a draw between Austria, England, and France.\n" in text
    assert "The game master ruled so; the game ends before F1901M is played." in text
    assert "Statement of the game master:\n\n  The three survivors of the alliance agreed by press.\n\n" \
           "  Well played, all.\n" in text
    summary, history = _summary_and_history(started)
    for shown in (summary, history):
        assert "declared a draw between Austria, England, and France." in shown, shown
        assert "The three survivors of the alliance agreed by press." in shown
    assert history.index("Movement results for Spring of 1901.") < history.index("declared a draw between")
    with started.judge.sessions.begin() as db:
        row = db.scalars(select(AuditEntry).where(AuditEntry.action == "game_over")).one()
        assert row.detail["how"] == "draw" and row.detail["by"] == "gm"
        assert row.detail["powers"] == ["AUSTRIA", "ENGLAND", "FRANCE"]


def test_the_gm_declares_a_concession_and_refusals_change_nothing(started: Harness) -> None:
    started.send("gm@example.com", GM + "DECLARE DRAW Austria Narnia\nA Vie - Gal\nENDSTATEMENT")
    refused = started.last_reply("gm@example.com")
    assert "Error: unknown powers: Narnia" in refused and "statement were skipped" in refused, refused
    started.send("gm@example.com", GM + "DECLARE DRAW France")
    assert "Error: a draw is among two powers or more" in started.last_reply("gm@example.com")
    started.send(player("FRANCE"), signon("FRANCE") + "DECLARE CONCESSION France")
    assert "only the game master may do that" in started.last_reply(player("FRANCE"))
    assert _status(started) == "active" and not started.outbox(kind="end")
    started.send("gm@example.com", GM + "DECLARE CONCESSION Russia")
    assert _status(started) == "finished"
    text = started.outbox(to=player("ITALY"), kind="end")[-1].body_text
    assert "Game 'alpha' has been conceded to Russia." in text and "Statement" not in text
    summary, history = _summary_and_history(started)
    assert "conceded to Russia." in summary and "conceded to Russia." in history
    started.send("gm@example.com", GM + "DECLARE DRAW")
    assert "Error: game 'alpha' is finished" in started.last_reply("gm@example.com")


# -- item 12: DIAS votes, lapsed votes, expiry -------------------------------------------------------

def test_a_plain_set_draw_is_a_vote_for_whoever_survives(started: Harness) -> None:
    """Three powers vote SET DRAW (DIAS); Turkey is eliminated; the other three vote SET DRAW after it:
    the draw passes among the six who are left.  (Stored as the survivors at the time of each vote,
    the votes before and after the elimination never agreed, and the game went on.)"""
    started.send("gm@example.com", GM + "SET EARLY off")
    for power in POWERS[:3]:
        started.send(player(power), signon(power) + "SET DRAW")
    note = started.last_reply(player("FRANCE"))
    assert "You vote for a draw including all survivors (DIAS): now Austria, England, France, Germany, " \
           "Italy, Russia, Turkey.  Your vote stands until you withdraw it (SET NODRAW)." in note, note
    _eliminate(started, "TURKEY")
    hold_all(started)
    started.send("gm@example.com", GM + "PROCESS")
    assert _status(started) == "active"
    for power in POWERS[3:6]:
        started.send(player(power), signon(power) + "SET DRAW")
    assert _status(started) == "finished"
    text = started.outbox(to=player("FRANCE"), kind="end")[-1].body_text.replace("France,\nGermany", "France, Germany")
    assert "declared a draw between Austria, England, France, Germany, Italy, and Russia." in text, text
    assert "The surviving players agreed to it; the game ends before F1901M is played." in text


def test_a_listed_vote_naming_an_eliminated_power_lapses_and_its_voter_is_told(started: Harness) -> None:
    started.send("gm@example.com", GM + "SET EARLY off")
    started.send(player("FRANCE"), signon("FRANCE") + "SET DRAW France, Turkey, England")
    started.send(player("ENGLAND"), signon("ENGLAND") + "SET DRAW")
    _eliminate(started, "TURKEY")
    hold_all(started)
    started.send("gm@example.com", GM + "PROCESS")
    assert _status(started) == "active"
    assert _seat(started, "FRANCE")[1] is None  # lapsed
    assert _seat(started, "ENGLAND")[1] == "*"  # DIAS stands
    lapsed = [m for m in started.outbox(to=player("FRANCE")) if "lapsed" in m.subject]
    assert len(lapsed) == 1, [m.subject for m in started.outbox(to=player("FRANCE"))]
    assert "Your vote for a draw between England, France, and Turkey in game 'alpha'\nhas lapsed: Turkey was " \
           "eliminated in S1901M." in lapsed[0].body_text, lapsed[0].body_text
    assert not [m for m in started.outbox(to=player("ENGLAND")) if "lapsed" in m.subject]
    eliminated = [m for m in started.outbox(to=player("TURKEY"), kind="notice") if "eliminated" in m.subject]
    assert len(eliminated) == 1 and "it is out of game 'alpha'" in eliminated[0].body_text  # item 20


def test_set_draw_expires_phase_makes_a_vote_good_for_one_phase(started: Harness) -> None:
    started.send("gm@example.com", GM + "SET DRAW EXPIRES PHASE")
    assert "Draw votes and concessions are now good for one phase." in started.last_reply("gm@example.com")
    told = [m for m in started.outbox(kind="notice") if m.subject == "Diplomacy settings changed alpha"]
    assert len(told) == 7 and "  Draw votes: until withdrawn -> good for one phase" in told[0].body_text
    started.send(player("FRANCE"), signon("FRANCE") + "SET DRAW\nSET CONCEDE Russia")
    reply = started.last_reply(player("FRANCE"))
    assert "It is good for this phase only (SET DRAW EXPIRES PHASE)" in reply, reply
    assert _seat(started, "FRANCE")[1] == "*"
    hold_all(started)
    started.send("gm@example.com", GM + "PROCESS")
    assert _seat(started, "FRANCE")[1] is None
    started.send("gm@example.com", GM + "SET DRAW EXPIRES NEVER")
    started.send(player("FRANCE"), signon("FRANCE") + "SET DRAW")
    assert "Your vote stands until you withdraw it (SET NODRAW)." in started.last_reply(player("FRANCE"))
    hold_all(started)
    started.send("gm@example.com", GM + "PROCESS")
    assert _seat(started, "FRANCE")[1] == "*"
    started.send(player("ITALY"), signon("ITALY") + "SET DRAW EXPIRES PHASE")
    assert "only the game master may do that" in started.last_reply(player("ITALY"))


# -- item 16: the rollback notice names the votes it withdrew -------------------------------------------

def test_a_rollback_says_which_draw_votes_it_withdrew(started: Harness) -> None:
    hold_all(started)
    started.send("gm@example.com", GM + "PROCESS")
    started.send(player("FRANCE"), signon("FRANCE") + "SET DRAW")
    started.send(player("GERMANY"), signon("GERMANY") + "SET DRAW France Germany\nSET CONCEDE France")
    started.send("gm@example.com", GM + "ROLLBACK S1901M")
    notice = [m for m in started.outbox(to=player("ITALY")) if "rolled back" in m.subject][-1].body_text
    assert "Withdrawn: the draw votes of France and Germany, cast after S1901M opened (SET DRAW to vote " \
           "again)." in notice, notice
    assert "Withdrawn: the concession of Germany, made after S1901M opened" in notice
    assert _seat(started, "FRANCE")[1] is None


def test_a_rollback_of_a_game_that_ended_reopens_it_and_drops_its_end(started: Harness) -> None:
    hold_all(started)
    started.send("gm@example.com", GM + "PROCESS")
    started.send("gm@example.com", GM + "DECLARE DRAW Austria England")
    assert _status(started) == "finished"
    started.send("gm@example.com", GM + "ROLLBACK S1901M")
    assert _status(started) == "active"
    notice = [m for m in started.outbox(to=player("ITALY")) if "rolled back" in m.subject][-1].body_text
    assert "The game had ended; it is in play again." in notice
    summary, _ = _summary_and_history(started)
    assert "declared a draw" not in summary


# -- item 20: a solo is kept too ---------------------------------------------------------------------

def test_a_solo_is_recorded_in_summary_and_history(started: Harness) -> None:
    hold_all(started)
    started.send("gm@example.com", GM + "PROCESS")
    with started.judge.sessions.begin() as db:  # France holds 17 centres; its army in Burgundy takes the 18th
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        phase = queries.open_phase(db, game.id)
        assert phase is not None and phase.code == "F1901M"
        state = dict(phase.state_before)
        taken = ["BER", "KIE", "MUN", "HOL", "DEN", "SPA", "POR", "LON", "EDI", "LVP", "NWY", "SWE", "ROM", "NAP"]
        centres = {p: [c for c in cs if c not in taken] for p, cs in state["centers"].items()}
        centres["FRANCE"] = ["BRE", "MAR", "PAR", *taken]
        units = {p: [u for u in us if u.split()[1][:3] not in taken] for p, us in state["units"].items()}
        units["FRANCE"] = ["A BUR", "A PAR", "F BRE"]
        phase.state_before = {**state, "centers": centres, "units": units}
    started.send(player("FRANCE"), signon("FRANCE") + "A Bur - Bel")
    started.send("gm@example.com", GM + "PROCESS")
    assert _status(started) == "finished"
    final = started.outbox(to=player("ITALY"), kind="end")[-1].body_text
    assert "Game 'alpha' has been won by France." in final and "with the results of F1901M" in final, final
    summary, history = _summary_and_history(started)
    assert "has been won by France." in summary and "The game ended with the results of F1901M." in summary
    assert "(* VICTORY!! *)" in history and history.rstrip().endswith("The game is over.  Thank you for playing.")
    assert "has been won by France." in history
