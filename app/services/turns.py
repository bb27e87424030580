"""Turn processing: adjudicate the open phase, store it, queue the results, open the next one.

Everything happens in the caller's transaction, so a crash leaves the game either fully
before or fully after the turn.  The game row's ``version`` is bumped with a guarded
UPDATE, so two processes can never both process one phase.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, Phase, Player
from app.services import orders as order_service
from app.services.context import Judge
from app.services.notify import mail_game, mail_master
from app.services.phases import PhaseName
from app.services.powers import PowerBook
from app.services.render import format_deadline
from app.services.results import Names, ResultsView, build_results_view, publishable
from app.services.timing import game_setting, next_deadline

__all__ = ["ProcessError", "TurnOutcome", "adjudicate_open_phase", "process_turn", "render_results"]


class ProcessError(Exception):
    """The turn could not be processed (stale phase, lost race, nothing open)."""


@dataclass
class TurnOutcome:
    game: str
    phase: str
    next_phase: str | None
    winner: str | None
    mails: int


def _orders_by_power(db: Session, judge: Judge, game: Game, phase: Phase) -> tuple[dict[str, list[str]],
                                                                                  dict[str, list[str]]]:
    """The stored orders; orders given in advance are checked now and dropped if illegal."""
    received: dict[str, list[str]] = {}
    parsed: dict[str, list[str]] = {}
    unchecked: dict[str, list[str]] = {}
    for row in queries.orders_for(db, game.id, phase.code):
        received.setdefault(row.power, []).append(row.line)
        if row.checked and row.order:
            parsed.setdefault(row.power, []).append(row.order)
        elif not row.checked:
            unchecked.setdefault(row.power, []).append(row.line)
    for power, lines in unchecked.items():
        ordered = {order.split(" - ")[0].split(" S ")[0] for order in parsed.get(power, [])}
        latest: dict[str, str] = {}
        for index, result in enumerate(order_service.check(judge.api, phase.state_before, power, lines)):
            if result.ok and result.order and (result.unit or "") not in ordered:
                latest[result.unit or f"#{index}"] = result.order
        parsed.setdefault(power, []).extend(latest.values())
    return received, parsed


def check_advance_orders(db: Session, judge: Judge, game: Game, phase: Phase) -> None:
    """Orders given in advance for a phase that has just begun: check them now, keep the legal
    ones (the last for each unit), drop the rest."""
    rows = [row for row in queries.orders_for(db, game.id, phase.code) if not row.checked]
    by_power: dict[str, list[Any]] = {}
    for row in rows:
        by_power.setdefault(row.power, []).append(row)
    for power, power_rows in by_power.items():
        results = order_service.check(judge.api, phase.state_before, power, [r.line for r in power_rows])
        for row in power_rows:
            db.delete(row)
        db.flush()
        order_service.store_orders(db, game, phase.code, power, results, whole_set=False)


def _nmr_powers(db: Session, judge: Judge, game: Game, phase: Phase, parsed: dict[str, list[str]]) -> list[str]:
    return [seat.power for seat, status in order_service.seat_statuses(db, judge.api, game, phase)
            if seat.power and status.needs_orders and not parsed.get(seat.power)]


def adjudicate_open_phase(db: Session, judge: Judge, game: Game) -> tuple[Phase, dict[str, Any], dict[str, Any],
                                                                           dict[str, list[str]], list[str]]:
    phase = queries.open_phase(db, game.id)
    if phase is None:
        raise ProcessError(f"game '{game.name}' has no open phase")
    received, parsed = _orders_by_power(db, judge, game, phase)
    rules = (game.settings or {}).get("rules") or {}  # the game's own rule options (SET RULE)
    result = judge.api.adjudicate_request({**phase.state_before, "orders": parsed, "rules": rules})
    nmr = _nmr_powers(db, judge, game, phase, parsed)
    return phase, result, {"received": received, "parsed": parsed}, parsed, nmr


def _previous_centres(db: Session, game: Game) -> dict[str, int]:
    """Centre counts at the end of the last adjustment phase (for the zine's change column)."""
    for phase in reversed(queries.phases_of(db, game.id)):
        if phase.code.endswith("A") and phase.state_after:
            return {p.upper(): len(c) for p, c in (phase.state_after.get("centers") or {}).items()}
    return {}


def render_results(judge: Judge, view: ResultsView, layout: str) -> tuple[str, str | None]:
    if layout == "zine":
        return (judge.templates.render("mail/zine/results.txt.j2", v=view),
                judge.templates.render("mail/zine/results.html.j2", v=view))
    return judge.templates.render("mail/judge/results.txt.j2", v=view), None


def results_view(db: Session, judge: Judge, game: Game, phase: Phase, result: dict[str, Any],
                 state_after: dict[str, Any], nmr: list[str], next_deadline_at: datetime | None) -> ResultsView:
    info = judge.variant_data(game.variant)
    zone = game_setting(game.settings, "timezone")
    result, state_after = publishable(result, state_after)
    return build_results_view(
        game_name=game.name, variant=game.variant, judge_id=judge.settings.judge_id,
        state_before=phase.state_before, result=result, state_after=state_after,
        book=PowerBook(info), names=Names(info),
        deadline_text=format_deadline(phase.deadline or game.deadline, zone),
        next_deadline_text=format_deadline(next_deadline_at, zone),
        nmr_powers=nmr, previous_centres=_previous_centres(db, game),
    )


def _publish_press(db: Session, game: Game, view: ResultsView, book: PowerBook) -> None:
    for item in queries.unpublished_press(db, game.id):
        sender = "Someone" if item.grey else (book.name(item.sender) if item.sender != "GM" else "The GM")
        to = "everyone" if item.broadcast else ", ".join(book.name(p) for p in item.recipients)
        view.press.append({"heading": f"{sender} to {to}:", "body": item.body.strip()})
        item.published = True


def _eliminate(game: Game, state_after: dict[str, Any]) -> None:
    units = {p.upper() for p, u in (state_after.get("units") or {}).items() if u}
    centres = {p.upper() for p, c in (state_after.get("centers") or {}).items() if c}
    for seat in game.players:
        if seat.role == "player" and seat.power and seat.power not in units | centres:
            seat.status = "eliminated"


def bump_version(db: Session, game: Game) -> None:
    """Claim the game for this transaction: fails if another process changed it meanwhile."""
    result = db.execute(
        update(Game).where(Game.id == game.id, Game.version == game.version).values(version=Game.version + 1)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise ProcessError(f"game '{game.name}' was changed by another process")
    game.version += 1


def process_turn(db: Session, judge: Judge, game: Game, *, expected_phase: str | None = None,
                 notes: list[str] | None = None) -> TurnOutcome:
    """Adjudicate and store the open phase of ``game`` and queue everyone's results."""
    if game.variant == "dod3":  # Days of Decision III (issue 5): its steps are processed by app/services/dod3.py
        from app.services import dod3
        return dod3.process_turn(db, judge, game, expected_phase=expected_phase, notes=notes)
    crash = judge.crash
    crash("turn:start")
    if expected_phase and game.phase and expected_phase.upper() != game.phase.upper():
        raise ProcessError(f"the phase is {game.phase}, not {expected_phase.upper()}")
    bump_version(db, game)
    crash("turn:claimed")
    phase, result, orders, parsed, nmr = adjudicate_open_phase(db, judge, game)
    crash("turn:adjudicated")
    state_after = judge.api.next_state(result, variant=game.variant)
    crash("turn:next_state")
    now = judge.now()
    book = PowerBook(judge.variant_data(game.variant))
    phase.orders_received = orders["received"]
    phase.orders_parsed = parsed
    phase.results = result
    phase.state_after = state_after
    phase.status = "processed"
    phase.processed_at = now
    db.flush()
    crash("turn:phase_stored")
    for seat in game.players:
        if seat.power in nmr:
            seat.misses += 1
        seat.wait = False
        seat.draw = None
    _eliminate(game, state_after)
    crash("turn:seats_updated")
    winner = result.get("winner")
    next_code = None if winner else state_after.get("phase")
    next_at = next_deadline(game.settings, next_code, now) if next_code else None
    view = results_view(db, judge, game, phase, result, state_after, nmr, next_at)
    view.notes = [*game.settings.get("notes", []), *(notes or [])]
    if game.settings.get("notes"):
        game.settings = {key: value for key, value in game.settings.items() if key != "notes"}
    _publish_press(db, game, view, book)
    crash("turn:press_published")
    text, html = render_results(judge, view, str(game_setting(game.settings, "layout")))
    phase.results_text = text
    crash("turn:rendered")
    if next_code:
        new_phase = Phase(game_id=game.id, seq=phase.seq + 1, code=next_code, status="open",
                          state_before=state_after, deadline=next_at)
        db.add(new_phase)
        db.flush()
        check_advance_orders(db, judge, game, new_phase)
        game.phase = next_code
        game.deadline = next_at
    else:
        game.status = "finished"
        game.deadline = None
    game.grace_until = None
    game.reminded_phase = None
    db.flush()
    crash("turn:next_phase_opened")
    subject = f"Diplomacy results {game.name} {phase.code}"
    mails = mail_game(db, judge, game, subject, text, html=html, kind="results")
    crash("turn:results_queued")
    if winner:
        mail_game(db, judge, game, f"Diplomacy game {game.name} is over",
                  f"Game '{game.name}' has been won by {book.name(str(winner))}.  Congratulations!\n", kind="end")
    crash("turn:done")
    return TurnOutcome(game=game.name, phase=phase.code, next_phase=next_code,
                       winner=str(winner) if winner else None, mails=mails)


def preview_turn(db: Session, judge: Judge, game: Game) -> None:
    """Results for the GM only; nothing is stored."""
    phase, result, _orders, _parsed, nmr = adjudicate_open_phase(db, judge, game)
    state_after = judge.api.next_state(result, variant=game.variant)
    view = results_view(db, judge, game, phase, result, state_after, nmr, None)
    view.preview = True
    text, _html = render_results(judge, view, str(game_setting(game.settings, "layout")))
    mail_master(db, judge, game, f"Diplomacy preview {game.name} {phase.code}", text, kind="preview")


def late_powers(db: Session, judge: Judge, game: Game, phase: Phase) -> list[Player]:
    return [seat for seat, status in order_service.seat_statuses(db, judge.api, game, phase)
            if status.needs_orders and not status.submitted and seat.status == "active"]


def everyone_ready(db: Session, judge: Judge, game: Game, phase: Phase) -> bool:
    """Every active power has complete orders and nobody asked to wait."""
    for seat, status in order_service.seat_statuses(db, judge.api, game, phase):
        if seat.status not in ("active", "absent"):
            continue
        if seat.wait or (status.needs_orders and not status.complete):
            return False
    return True


def describe(phase_code: str) -> str:
    return PhaseName(phase_code).next_words
