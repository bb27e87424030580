"""Step three of a turn: the results as everyone reads them, rendered and queued in the outbox."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, literal, select, union_all
from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, Phase, Press
from app.db.statuses import PhaseStatus
from app.services.kernel.context import Judge
from app.services.kernel.render import format_deadline
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.notify import mail_game
from app.services.results.gm_notes import take_gm_notes
from app.services.results.maps import content_id, inline_map_html, phase_map
from app.services.results.report import Names, ResultsView, build_results_view
from app.services.ruleset import engine as game_engine
from app.services.ruleset.options import options_of
from app.services.ruleset.phases import PhaseKind
from app.services.ruleset.powers import PowerBook
from app.services.ruleset.stored import StoredResult, StoredState, stored_result, stored_state
from app.services.turns.adjudicate import Adjudicated
from app.services.turns.store import StoredTurn

__all__ = ["previous_centres", "previous_owners", "publish_turn", "render_results", "results_view"]


def _centres_statement(before: bool) -> Any:
    """The positions ``previous_centres`` counts from: the last adjustment phase's end and the
    first phase's start (of the processed phases, before ``seq`` when ``before``)."""
    processed = [Phase.game_id == bindparam("game_id"), Phase.status == PhaseStatus.PROCESSED]
    if before:
        processed.append(Phase.seq < bindparam("seq"))
    last_adjustment = (select(literal(0).label("which"), Phase.state_after.label("state"))
                       .where(*processed, Phase.code.endswith(PhaseKind.ADJUSTMENT.value), Phase.state_after.is_not(None))
                       .order_by(Phase.seq.desc()).limit(1).subquery())
    first = (select(literal(1).label("which"), Phase.state_before.label("state"))
             .where(*processed).order_by(Phase.seq).limit(1).subquery())
    return union_all(select(last_adjustment.c.which, last_adjustment.c.state), select(first.c.which, first.c.state))


_CENTRES = {before: _centres_statement(before) for before in (False, True)}  # built once


def previous_owners(uow: UnitOfWork, game: Game, before_seq: int | None = None) -> dict[str, tuple[str, ...]]:
    """Who owned which centres at the end of the last adjustment phase processed before
    ``before_seq`` (the zine's change column and its "Changed hands", one baseline: issue 28.21);
    before the first one, as the game started.  One statement reads just those two positions (not
    every phase of the game, as a turn did before)."""
    db = uow.session
    params = {"game_id": game.id} if before_seq is None else {"game_id": game.id, "seq": before_seq}
    rows: Any = queries.core(db, _CENTRES[before_seq is not None], params)
    found = {which: state for which, state in rows}
    state = found.get(0) or found.get(1)
    return {power: tuple(centres) for power, centres in stored_state(state).centres.items()} if state else {}


def previous_centres(uow: UnitOfWork, game: Game, before_seq: int | None = None) -> dict[str, int]:
    """The centre counts of ``previous_owners``."""
    return {power: len(centres) for power, centres in previous_owners(uow, game, before_seq).items()}


def render_results(judge: Judge, view: ResultsView, layout: str) -> tuple[str, str | None]:
    """The results mail: text, and HTML for the zine layout."""
    if layout == "zine":
        return (judge.templates.render("mail/zine/results.txt.j2", v=view),
                judge.templates.render("mail/zine/results.html.j2", v=view))
    return judge.templates.render("mail/judge/results.txt.j2", v=view), None


def results_view(judge: Judge, game: Game, phase: Phase, results: StoredResult, state_after: StoredState,
                 nmr: Sequence[str], deadline_at: datetime | None, next_deadline_at: datetime | None,
                 centres_before: Mapping[str, Sequence[str]]) -> ResultsView:
    """What the results templates print for ``phase`` (its stored position, and ``results`` with the
    position they leave: stored, or just adjudicated); hidden builds shown in their public form."""
    info = judge.variant_data(game.variant)
    zone = options_of(game).timezone
    variant = game_engine.game_variant(game.variant, game_engine.game_rules(game.settings))
    return build_results_view(
        game_name=game.name, variant=game.variant, judge_id=judge.settings.judge_id,
        state_before=stored_state(phase.state_before), result=results, state_after=state_after,
        read_order=lambda text: game_engine.read_order(variant, text),
        book=PowerBook(info), names=Names(info),
        deadline_text=format_deadline(deadline_at, zone),
        next_deadline_text=format_deadline(next_deadline_at, zone),
        nmr_powers=list(nmr), previous_centres={power: len(centres) for power, centres in centres_before.items()},
        previous_owners=centres_before,
        convoy_path=lambda source, target, fleets, by_sea: game_engine.convoy_path(variant, source, target, fleets,
                                                                                   by_sea),
    )


def _publish_press(db: Session, game: Game, view: ResultsView, book: PowerBook, press: Sequence[Press] | None) -> None:
    for item in queries.unpublished_press(db, game.id) if press is None else press:
        sender = "Someone" if item.grey else (book.name(item.sender) if item.sender != "GM" else "The GM")
        to = "everyone" if item.broadcast else ", ".join(book.name(p) for p in item.recipients)
        view.press.append({"heading": f"{sender} to {to}:", "body": item.body.strip()})
        item.published = True


def publish_turn(uow: UnitOfWork, judge: Judge, game: Game, phase: Phase, stored: StoredTurn, nmr: Sequence[str],
                 notes: Sequence[str], crash: Callable[[str], None], press: Sequence[Press] | None = None,
                 outcome: Adjudicated | None = None) -> int:
    """Render the results of the stored ``phase`` with the press and the GM's notes, keep the text
    for the history, and queue the results (and the end of the game) to everyone; the mail count.
    ``press``: the unpublished press as the turn began (None: read it now); ``outcome``: the
    adjudication just stored, already read (None: read the stored phase again)."""
    db = uow.session
    book = PowerBook(judge.variant_data(game.variant))
    with db.no_autoflush:  # the phases before this one, which the turn does not change
        centres_before = previous_owners(uow, game, phase.seq)
    results = outcome.typed_results if outcome is not None else stored_result(phase.results)
    after = outcome.typed_after if outcome is not None else stored_state(phase.state_after)
    view = results_view(judge, game, phase, results, after, nmr, stored.deadline, stored.next_deadline, centres_before)
    view.notes = [*take_gm_notes(uow, game), *notes]
    _publish_press(db, game, view, book, press)
    crash("turn:press_published")
    text, html = render_results(judge, view, options_of(game).layout)
    phase.results_text = text
    crash("turn:rendered")
    # Recording the map flushes the turn: the phase with its results text, the next phase, the game, the seats.
    picture = phase_map(uow, game, phase.code, phase.state_before, phase.results, kind="results")
    if picture is not None:
        if html is not None:
            html = inline_map_html(html, content_id(picture.digest, judge.settings.judge_domain),
                                   f"The map of {game.name} {phase.code}")
    mails = mail_game(uow, judge, game, f"Diplomacy results {game.name} {phase.code}", text, html=html,
                      kind="results", map_id=picture.id if picture else None)
    crash("turn:results_queued")
    return mails  # a winner: the end of the game is mailed by the turn (map_turn, results/ending.py)
