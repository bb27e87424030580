"""Override a processed phase: the diff, the replay of later phases, the correction mails, the audit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import AuditEntry, Game, MapImage, Phase
from app.mail.outbound.drain import drain_once
from app.mail.outbound.mailer import MemoryMailer
from app.services.errors import DomainError
from app.services.kernel.actor import Actor, Role
from app.services.kernel.uow import UnitOfWork
from app.services.override.apply import commit_override, preview_override
from app.services.override.changes import LaterOrders, OrderChange, OverrideChanges, RuleChange, Ruling, UnitRuling
from app.services.readmodels.corrections import audit_log, corrections_of
from tests.server.conftest import POWERS, Harness, player, signon
from tests.support.units import unit

GM = "gm@example.com"


@contextmanager
def game_db(harness: Harness, name: str = "alpha") -> Iterator[tuple[UnitOfWork, Game]]:
    """The game ``name`` in a unit of work (no handlers: the test asks for none), committed at the end."""
    with unit(harness.judge) as uow:
        game = queries.game_by_name(uow.session, name)
        assert game is not None
        yield uow, game


def gm_actor(game: Game) -> Actor:
    return Actor(GM, Role.GM, game.id)


def orders(harness: Harness, power: str, *lines: str) -> None:
    harness.send(player(power), signon(power) + "\n".join(lines))


def process(harness: Harness, phase: str) -> None:
    harness.send(GM, f"SIGNON master@alpha masterpw\nPROCESS {phase}")
    with game_db(harness) as (_db, game):
        assert game.phase != phase, harness.last_reply(GM)


def phase_row(db: Session, game: Game, code: str) -> Phase:
    return db.scalars(select(Phase).where(Phase.game_id == game.id, Phase.code == code,
                                          Phase.status != "rolled_back")).one()


def units(state: dict[str, Any], power: str) -> list[str]:
    return sorted(state["units"].get(power, []))


@pytest.fixture
def three_phases(started: Harness) -> Harness:
    """S1901M: France and Germany bounce in Burgundy; F1901M: Paris moves on, Spain is taken;
    W1901A: France builds in Marseilles.  S1902M is open."""
    orders(started, "FRANCE", "A PAR - BUR")
    orders(started, "GERMANY", "A MUN - BUR")
    process(started, "S1901M")
    orders(started, "FRANCE", "A MAR - SPA", "A PAR - PIC")
    process(started, "F1901M")
    orders(started, "FRANCE", "BUILD A MAR")
    process(started, "W1901A")
    with game_db(started) as (_db, game):
        assert game.phase == "S1902M"
    return started


GERMANY_HOLDS = OverrideChanges(orders=(OrderChange("GERMANY", ("A MUN H",)),))


def test_preview_shows_old_and_new_and_writes_nothing(three_phases: Harness) -> None:
    with game_db(three_phases) as (uow, game):
        db = uow.session
        preview = preview_override(three_phases.judge, uow, gm_actor(game), game, "S1901M", GERMANY_HOLDS)
        before = dict(phase_row(db, game, "S1901M").results or {})
    diffs = {(d.power, d.unit): d for d in preview.orders}
    paris = diffs[("FRANCE", "A PAR")]
    assert paris.old is not None and paris.new is not None
    assert (paris.old.order, paris.old.result, paris.old.reason) == ("A PAR - BUR", "fails", "bounce")
    assert (paris.new.order, paris.new.result) == ("A PAR - BUR", "succeeds")
    munich = diffs[("GERMANY", "A MUN")]
    assert munich.old is not None and munich.new is not None
    assert (munich.old.order, munich.new.order, munich.new.result) == ("A MUN - BUR", "A MUN H", "succeeds")
    unchanged = diffs[("ENGLAND", "F LON")]
    assert not unchanged.changed
    assert {(d.power, d.unit) for d in preview.changed_orders} == {("FRANCE", "A PAR"), ("GERMANY", "A MUN")}
    france = next(p for p in preview.position.powers if p.power == "FRANCE")
    assert france.units_removed == ("A PAR",) and france.units_added == ("A BUR",)
    assert [p.power for p in preview.position.changed_powers] == ["FRANCE"]
    assert [r.phase for r in preview.replayed] == ["F1901M", "W1901A"]
    assert [(u.phase, u.power, u.order) for u in preview.unfit] == [("F1901M", "FRANCE", "A PAR - PIC")]
    assert preview.current_phase_old == preview.current_phase_new == "S1902M" and preview.same_current_phase
    current = next(p for p in preview.current_position.powers if p.power == "FRANCE")
    assert current.units_removed == ("A PIC",) and current.units_added == ("A BUR",)
    with game_db(three_phases) as (uow, game):  # nothing was written
        db = uow.session
        assert phase_row(db, game, "S1901M").results == before
        assert db.scalars(select(AuditEntry).where(AuditEntry.action == "override")).all() == []
    assert three_phases.outbox(kind="correction") == []


def test_commit_replays_later_phases_mails_everyone_and_audits(three_phases: Harness) -> None:
    with game_db(three_phases) as (uow, game):
        done = commit_override(three_phases.judge, uow, gm_actor(game), game, "S1901M", GERMANY_HOLDS,
                               "Germany's order was meant as a hold (contested by mail)")
    assert done.mails == len(POWERS) + 1
    with game_db(three_phases) as (uow, game):
        db = uow.session
        assert game.phase == "S1902M" and game.status == "active"
        spring = phase_row(db, game, "S1901M")
        assert spring.orders_parsed is not None and spring.orders_parsed["GERMANY"] == ["A MUN H"]
        assert units(spring.state_after or {}, "FRANCE") == ["A BUR", "A MAR", "F BRE"]
        fall = phase_row(db, game, "F1901M")
        assert fall.status == "processed" and units(fall.state_before, "FRANCE") == ["A BUR", "A MAR", "F BRE"]
        void = [e for e in (fall.results or {})["orders"] if e["order"] == "A PAR - PIC"]
        assert void and void[0]["result"] == "invalid"
        assert "Army Burgundy" in (fall.results_text or "")
        current = queries.open_phase(db, game.id)
        assert current is not None and current.code == "S1902M"
        assert units(current.state_before, "FRANCE") == ["A BUR", "A MAR", "A SPA", "F BRE"]
        audit = db.scalars(select(AuditEntry).where(AuditEntry.action == "override")).one()
        assert audit.id == done.audit_id and audit.actor == GM and audit.created_at is not None
        assert audit.detail["reason"] == "Germany's order was meant as a hold (contested by mail)"
        assert audit.detail["changes"]["orders"] == {"GERMANY": ["A MUN H"]}
        assert audit.detail["replayed"] == ["F1901M", "W1901A"]
        assert audit.detail["unfit"][0]["order"] == "A PAR - PIC"
    mails = three_phases.outbox(kind="correction")
    assert sorted(m.recipients[0] for m in mails) == sorted([*(player(p) for p in POWERS), GM])
    assert all(m.subject == "Diplomacy correction alpha S1901M" for m in mails)
    text = mails[0].body_text
    for expected in ("Reason: Germany's order was meant as a hold", "France: was A PAR - BUR (fails, bounce); "
                     "now A PAR - BUR (succeeds).", "F1901M France: A PAR - PIC", "The game stays at S1902M"):
        assert expected in text, text


@pytest.mark.parametrize("who", [
    Actor(player("FRANCE"), Role.PLAYER, None, "FRANCE"),
    Actor("other-gm@example.com", Role.GM, -1),
    Actor("observer@example.com", Role.OBSERVER),
])
def test_only_the_games_master_may_override(three_phases: Harness, who: Actor) -> None:
    with game_db(three_phases) as (uow, game):
        actor = Actor(who.address, who.role, game.id if who.game_id is None else who.game_id, who.power)
        for call in (lambda: preview_override(three_phases.judge, uow, actor, game, "S1901M", GERMANY_HOLDS),
                     lambda: commit_override(three_phases.judge, uow, actor, game, "S1901M", GERMANY_HOLDS, "x")):
            with pytest.raises(DomainError) as refused:
                call()
            assert refused.value.code == "not_gm"


@pytest.mark.parametrize(("phase", "changes", "code"), [
    ("S1905M", GERMANY_HOLDS, "no_such_phase"),
    ("S1902M", GERMANY_HOLDS, "no_such_phase"),  # open, not processed
    ("S1901M", OverrideChanges(), "no_changes"),
    ("S1901M", OverrideChanges(orders=(OrderChange("GERMANY", ("A MUN - PAR",)),)), "illegal_order"),
    ("S1901M", OverrideChanges(orders=(OrderChange("ATLANTIS", ("A MUN H",)),)), "unknown_power"),
    ("S1901M", OverrideChanges(rules=(RuleChange("retreat_sideways", "on"),)), "bad_rule"),
    ("S1901M", OverrideChanges(rulings=(UnitRuling("BUR", Ruling.HOLDS),)), "no_unit"),
    ("W1901A", OverrideChanges(rulings=(UnitRuling("MAR", Ruling.FAILS),)), "bad_ruling"),
])
def test_bad_overrides_are_refused(three_phases: Harness, phase: str, changes: OverrideChanges, code: str) -> None:
    with game_db(three_phases) as (uow, game):
        with pytest.raises(DomainError) as refused:
            preview_override(three_phases.judge, uow, gm_actor(game), game, phase, changes)
        assert refused.value.code == code


def test_commit_needs_a_reason(three_phases: Harness) -> None:
    with game_db(three_phases) as (uow, game), pytest.raises(DomainError) as refused:
        commit_override(three_phases.judge, uow, gm_actor(game), game, "S1901M", GERMANY_HOLDS, "  ")
    assert refused.value.code == "no_reason"


def test_a_ruling_is_applied_as_a_voided_order_and_recorded(started: Harness) -> None:
    orders(started, "FRANCE", "A PAR - BUR", "A MAR S A PAR - BUR")
    orders(started, "GERMANY", "A MUN - BUR")
    process(started, "S1901M")
    changes = OverrideChanges(rulings=(UnitRuling("Marseilles", Ruling.FAILS),))
    with game_db(started) as (uow, game):
        done = commit_override(started.judge, uow, gm_actor(game), game, "S1901M", changes,
                               "the support was sent after the deadline")
    diffs = {(d.power, d.unit): d for d in done.preview.orders}
    support = diffs[("FRANCE", "A MAR")]
    assert support.old is not None and support.new is not None
    assert (support.old.result, support.new.order, support.new.result, support.new.reason) == (
        "succeeds", "A MAR S PAR - BUR", "fails", "ruling")
    paris = diffs[("FRANCE", "A PAR")]
    assert paris.new is not None and (paris.new.result, paris.new.reason) == ("fails", "bounce")
    with game_db(started) as (uow, game):
        db = uow.session
        spring = phase_row(db, game, "S1901M")
        assert (spring.results or {})["rulings"] == [{"power": "FRANCE", "unit": "A MAR", "ruling": "fails",
                                                      "order": "A MAR S PAR - BUR", "adjudicated_as": "A MAR H"}]
        assert units(spring.state_after or {}, "FRANCE") == ["A MAR", "A PAR", "F BRE"]
        assert "(*GM ruling*)" in (spring.results_text or "")
        assert game.phase == "F1901M"
    holds = OverrideChanges(rulings=(UnitRuling("A MUN", Ruling.HOLDS),))
    with game_db(started) as (uow, game):
        preview = preview_override(started.judge, uow, gm_actor(game), game, "S1901M", holds)
    munich = {(d.power, d.unit): d for d in preview.orders}[("GERMANY", "A MUN")]
    assert munich.new is not None and munich.new.order == "A MUN H"
    assert preview.rulings[0].original == "A MUN - BUR"


def test_a_rule_option_override_replays_with_the_new_rule(started: Harness) -> None:
    with game_db(started) as (uow, game):  # an English army convoyed from Picardy can dislodge Belgium
        db = uow.session
        phase = phase_row(db, game, "S1901M")
        state = dict(phase.state_before)
        state["units"] = {**state["units"], "ENGLAND": ["A PIC", "F ENG", "F NTH"],
                          "FRANCE": ["A BEL", "A MAR", "F BRE"]}
        phase.state_before = state
    orders(started, "ENGLAND", "A PIC - BEL VIA CONVOY", "F ENG C A PIC - BEL", "F NTH S A PIC - BEL")
    process(started, "S1901M")
    with game_db(started) as (uow, game):  # DATC 4.A.5 (2023): it may retreat to the army's origin
        db = uow.session
        assert "PIC" in phase_row(db, game, "S1901R").state_before["dislodged"]["FRANCE"]["A BEL"]["retreats"]
    orders(started, "FRANCE", "A BEL R PIC")
    process(started, "S1901R")
    changes = OverrideChanges(rules=(RuleChange("retreat_to_convoy_origin", False),))
    with game_db(started) as (uow, game):
        done = commit_override(started.judge, uow, gm_actor(game), game, "S1901M", changes,
                               "this game plays the 2000 rule on retreats to a convoy's origin")
    assert [(u.phase, u.power, u.order) for u in done.preview.unfit] == [("S1901R", "FRANCE", "A BEL R PIC")]
    france = next(p for p in done.preview.current_position.powers if p.power == "FRANCE")
    assert france.units_removed == ("A PIC",) and france.units_added == ()
    with game_db(started) as (uow, game):
        db = uow.session
        assert game.settings["rules"] == {"retreat_to_convoy_origin": False}
        assert game.phase == "F1901M" and done.preview.same_current_phase
        retreats = phase_row(db, game, "S1901R").state_before["dislodged"]["FRANCE"]["A BEL"]["retreats"]
        assert "PIC" not in retreats
        assert units(phase_row(db, game, "F1901M").state_before, "FRANCE") == ["A MAR", "F BRE"]


def test_a_new_retreat_phase_stops_the_replay_and_keeps_later_orders_in_advance(started: Harness) -> None:
    with game_db(started) as (uow, game):
        db = uow.session
        phase = phase_row(db, game, "S1901M")
        state = dict(phase.state_before)
        state["units"] = {**state["units"], "FRANCE": ["A BUR", "A MAR", "F BRE"],
                          "GERMANY": ["A MUN", "A RUH", "F KIE"]}
        phase.state_before = state
    orders(started, "GERMANY", "A MUN - BUR")
    process(started, "S1901M")  # a lone attack: Burgundy holds
    orders(started, "FRANCE", "A BUR - PIC")
    changes = OverrideChanges(orders=(OrderChange("GERMANY", ("A MUN - BUR", "A RUH S A MUN - BUR")),))
    with game_db(started) as (uow, game):
        done = commit_override(started.judge, uow, gm_actor(game), game, "S1901M", changes,
                               "Germany's support order was lost by the judge")
    preview = done.preview
    assert (preview.current_phase_old, preview.current_phase_new) == ("F1901M", "S1901R")
    assert preview.dropped_phases == ("F1901M",) and not preview.same_current_phase
    assert preview.notes and "S1901R now follows S1901M" in preview.notes[0]
    with game_db(started) as (uow, game):
        db = uow.session
        assert game.phase == "S1901R"
        current = queries.open_phase(db, game.id)
        assert current is not None and current.code == "S1901R"
        assert "A BUR" in current.state_before["dislodged"]["FRANCE"]
        old = db.scalars(select(Phase).where(Phase.code == "F1901M")).one()
        assert old.status == "rolled_back"
        kept = queries.orders_for(db, game.id, "F1901M", "FRANCE")
        assert [(r.line, r.checked) for r in kept] == [("A BUR - PIC", False)]
    assert "The game now continues with S1901R." in correction_text(started)
    process(started, "S1901R")  # no retreat: the army is disbanded, and its order in advance is void
    with game_db(started) as (uow, game):
        db = uow.session
        assert game.phase == "F1901M" and queries.orders_for(db, game.id, "F1901M", "FRANCE") == []


def correction_text(harness: Harness) -> str:
    return harness.outbox(to=GM, kind="correction")[-1].body_text


def test_a_replayed_order_names_the_unit_type_now_there(started: Harness) -> None:
    """Issue 21, item 6: after an override puts a fleet where an army stood, the later phase's
    replayed order reads ``F SEV - RUM`` (stored, in the results and their text), not ``A SEV - RUM``."""
    orders(started, "RUSSIA", "F SEV - BLA", "A MOS - SEV")
    process(started, "S1901M")
    orders(started, "RUSSIA", "A SEV - RUM")
    process(started, "F1901M")
    changes = OverrideChanges(orders=(OrderChange("RUSSIA", ("F SEV H", "A MOS H")),))
    with game_db(started) as (uow, game):
        commit_override(started.judge, uow, gm_actor(game), game, "S1901M", changes, "both meant to hold")
    with game_db(started) as (uow, game):
        db = uow.session
        fall = phase_row(db, game, "F1901M")
        assert (fall.orders_parsed or {})["RUSSIA"] == ["F SEV - RUM"]
        entry = next(e for e in (fall.results or {})["orders"] if e["power"] == "RUSSIA" and "SEV" in e["order"])
        assert entry["order"] == "F SEV - RUM" and entry["result"] == "succeeds"
        assert "Russia: Fleet Sevastopol -> Rumania." in (fall.results_text or "")


def test_a_retreat_phase_no_longer_played_is_not_shown_as_centres_changing_hands(started: Harness) -> None:
    """Issue 21, item 8: when the correction removes the Fall's only dislodgement (F1901R is no longer
    played), the position the Fall leaves is set beside the old course's after its retreats: France
    took Portugal in both courses, so no centre changes hands in the comparison."""
    orders(started, "FRANCE", "A PAR - PIC", "A MAR - GAS", "F BRE - MAO")
    orders(started, "GERMANY", "A MUN - BUR")
    process(started, "S1901M")
    orders(started, "FRANCE", "A GAS - BUR", "A PIC S A GAS - BUR", "F MAO - POR")
    process(started, "F1901M")
    with game_db(started) as (uow, game):
        assert game.phase == "F1901R"
    changes = OverrideChanges(orders=(OrderChange("FRANCE", ("A GAS - BUR", "A PIC H", "F MAO - POR")),))
    with game_db(started) as (uow, game):
        preview = preview_override(started.judge, uow, gm_actor(game), game, "F1901M", changes)
    assert preview.dropped_phases == ("F1901R",)
    assert all(p.centres_old == p.centres_new for p in preview.position.powers), preview.position
    france = next(p for p in preview.position.powers if p.power == "FRANCE")
    assert "POR" in france.centres_new and france.units_new == ("A GAS", "A PIC", "F POR")


def test_the_correction_mail_tells_the_position_now_each_changed_later_order_and_carries_the_map(
        three_phases: Harness) -> None:
    """Issue 21.3: not counts, but the corrected results, each later order whose result changed,
    every power's units and centres now, and the map of the position now."""
    with game_db(three_phases) as (uow, game):
        commit_override(three_phases.judge, uow, gm_actor(game), game, "S1901M", GERMANY_HOLDS, "meant as a hold")
    mail = next(m for m in three_phases.outbox(kind="correction") if m.recipients[0] == player("FRANCE"))
    text = mail.body_text
    assert "F1901M: 2 order result(s) changed:" in text, text
    assert "    France: was A PAR - PIC (succeeds); now A PAR - PIC (invalid, illegal)." in text, text
    assert "W1901A: no order has a different result." in text, text
    assert "The position now (S1902M), shown on the attached map:" in text, text
    assert "France: 4 centre(s) BRE, MAR, PAR, SPA; 4 unit(s) A BUR, A MAR, A SPA, F BRE." in text, text
    assert "Russia: 4 centre(s) MOS, SEV, STP, WAR; 4 unit(s) A MOS, A WAR, F SEV, F STP/SC." in text, text
    corrected = text.split("The corrected results of S1901M, in full:")[1]
    assert "France: Army Paris -> Burgundy." in corrected and "Germany: Army Munich HOLD." in corrected
    assert mail.map_id is not None
    with game_db(three_phases) as (uow, game):
        db = uow.session
        image = db.get(MapImage, mail.map_id)
        assert image is not None and image.phase == "S1902M" and image.result is None
        assert sorted(image.state["units"]["FRANCE"]) == ["A BUR", "A MAR", "A SPA", "F BRE"]


def test_one_correction_changes_the_phase_and_later_phases_with_one_round_of_mails(three_phases: Harness) -> None:
    """Issue 21.14: France's S1901M move now succeeds (Germany held), so its F1901M order A PAR - PIC
    would be void: the GM gives France's F1901M and W1901A orders in the same commit."""
    changes = OverrideChanges(
        orders=(OrderChange("GERMANY", ("A MUN H",)),),
        later=(LaterOrders("F1901M", (OrderChange("FRANCE", ("A MAR - SPA", "A BUR - PIC")),)),
               LaterOrders("W1901A", (OrderChange("FRANCE", ("BUILD A PAR",)),))))
    with game_db(three_phases) as (uow, game):
        preview = preview_override(three_phases.judge, uow, gm_actor(game), game, "S1901M", changes)
        assert not preview.unfit, preview.unfit  # nothing left void
        done = commit_override(three_phases.judge, uow, gm_actor(game), game, "S1901M", changes, "all in one")
    assert done.mails == len(POWERS) + 1
    with game_db(three_phases) as (uow, game):
        db = uow.session
        fall = phase_row(db, game, "F1901M")
        assert fall.orders_parsed is not None and sorted(fall.orders_parsed["FRANCE"]) == ["A BUR - PIC", "A MAR - SPA"]
        assert {e["order"]: e["result"] for e in (fall.results or {})["orders"]}["A BUR - PIC"] == "succeeds"
        current = queries.open_phase(db, game.id)
        assert current is not None and current.code == "S1902M"
        assert units(current.state_before, "FRANCE") == ["A PAR", "A PIC", "A SPA", "F BRE"]
        audit = db.scalars(select(AuditEntry).where(AuditEntry.action == "override")).one()
        assert audit.detail["changes"]["later"] == {"F1901M": {"FRANCE": ["A MAR - SPA", "A BUR - PIC"]},
                                                    "W1901A": {"FRANCE": ["BUILD A PAR"]}}
    mails = three_phases.outbox(kind="correction")
    assert len(mails) == len(POWERS) + 1  # one round
    assert "In F1901M, France's orders are now: A MAR - SPA; A BUR - PIC." in mails[0].body_text


@pytest.mark.parametrize("phase", ["S1902M", "F1905M", "S1901M"])
def test_later_orders_only_for_a_phase_the_correction_replays(three_phases: Harness, phase: str) -> None:
    changes = OverrideChanges(orders=(OrderChange("GERMANY", ("A MUN H",)),),
                              later=(LaterOrders(phase, (OrderChange("FRANCE", ("A PAR H",)),)),))
    with game_db(three_phases) as (uow, game), pytest.raises(DomainError) as error:
        preview_override(three_phases.judge, uow, gm_actor(game), game, "S1901M", changes)
    assert error.value.code in ("not_replayed", "later_is_target")


def test_the_correction_mail_as_sent_carries_the_map_of_the_position_now(three_phases: Harness) -> None:
    with game_db(three_phases) as (uow, game):
        commit_override(three_phases.judge, uow, gm_actor(game), game, "S1901M", GERMANY_HOLDS, "meant as a hold")
    mailer = MemoryMailer()
    while asyncio.run(drain_once(three_phases.judge, mailer)):
        pass
    sent = [message_from_bytes(m.message_bytes, policy=policy.default) for m in mailer.sent
            if m.recipients[0] == player("RUSSIA")]
    (correction,) = [m for m in sent if str(m["Subject"]) == "Diplomacy correction alpha S1901M"]
    pictures = [p for p in correction.walk() if p.get_content_type() == "image/png"]
    assert len(pictures) == 1 and pictures[0].get_filename() == "alpha-S1902M.png"
    assert pictures[0].get_content()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_corrections_of_a_phase_keep_each_text_as_mailed(three_phases: Harness) -> None:
    """Issue 21.5: each correction keeps the results as they stood before it and the mail it sent;
    a replayed phase lists the corrections that changed it; its GM only."""
    with game_db(three_phases) as (uow, game):
        commit_override(three_phases.judge, uow, gm_actor(game), game, "S1901M", GERMANY_HOLDS, "first")
    with game_db(three_phases) as (uow, game):
        commit_override(three_phases.judge, uow, gm_actor(game), game, "S1901M",
                        OverrideChanges(orders=(OrderChange("GERMANY", ("A MUN - BUR",)),)), "second")
    with game_db(three_phases) as (uow, game):
        second, first = corrections_of(uow, gm_actor(game), game, "S1901M")
        assert (first.reason, second.reason) == ("first", "second") and first.by == GM
        assert "France: Army Paris -> Burgundy.  (*bounce*)" in first.results_as_mailed["S1901M"]
        assert second.results_as_mailed["S1901M"] == first.results_corrected["S1901M"]
        assert "Reason: second" in second.correction_mail and second.mails == len(POWERS) + 1
        assert [c.reason for c in corrections_of(uow, gm_actor(game), game, "F1901M")] == ["second", "first"]
        assert corrections_of(uow, gm_actor(game), game, "S1902M") == ()
        assert [a.action for a in audit_log(uow, gm_actor(game), game)][:2] == ["override", "override"]
        with pytest.raises(DomainError):
            corrections_of(uow, Actor(player("FRANCE"), Role.PLAYER, None, "FRANCE"), game)
