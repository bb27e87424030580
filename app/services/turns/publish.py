"""Step three of a turn: the results as everyone reads them, rendered and queued in the outbox."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, Phase
from app.services.kernel.context import Judge
from app.services.kernel.render import format_deadline
from app.services.mailout.notify import mail_game
from app.services.results.maps import content_id, inline_map_html, phase_map
from app.services.results.report import Names, ResultsView, build_results_view
from app.services.ruleset import engine as game_engine
from app.services.ruleset.options import options_of
from app.services.ruleset.powers import PowerBook, full_stop
from app.services.ruleset.stored import StoredResult, StoredState, stored_result, stored_state
from app.services.turns.store import StoredTurn

__all__ = ["previous_centres", "publish_turn", "render_results", "results_view"]


def previous_centres(db: Session, game: Game, before_seq: int | None = None) -> dict[str, int]:
    """Centre counts at the end of the last adjustment phase before ``before_seq`` (for the zine's
    change column); before the first one, the counts the game started with."""
    phases = [p for p in queries.phases_of(db, game.id) if before_seq is None or p.seq < before_seq]
    for phase in reversed(phases):
        if phase.code.endswith("A") and phase.state_after:
            return stored_state(phase.state_after).centre_counts()
    if phases and phases[0].state_before:
        return stored_state(phases[0].state_before).centre_counts()
    return {}


def render_results(judge: Judge, view: ResultsView, layout: str) -> tuple[str, str | None]:
    """The results mail: text, and HTML for the zine layout."""
    if layout == "zine":
        return (judge.templates.render("mail/zine/results.txt.j2", v=view),
                judge.templates.render("mail/zine/results.html.j2", v=view))
    return judge.templates.render("mail/judge/results.txt.j2", v=view), None


def results_view(judge: Judge, game: Game, phase: Phase, results: StoredResult, state_after: StoredState,
                 nmr: Sequence[str], deadline_at: datetime | None, next_deadline_at: datetime | None,
                 centres_before: dict[str, int]) -> ResultsView:
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
        nmr_powers=list(nmr), previous_centres=centres_before,
        convoy_path=lambda source, target, fleets, by_sea: game_engine.convoy_path(variant, source, target, fleets,
                                                                                   by_sea),
    )


def _publish_press(db: Session, game: Game, view: ResultsView, book: PowerBook) -> None:
    for item in queries.unpublished_press(db, game.id):
        sender = "Someone" if item.grey else (book.name(item.sender) if item.sender != "GM" else "The GM")
        to = "everyone" if item.broadcast else ", ".join(book.name(p) for p in item.recipients)
        view.press.append({"heading": f"{sender} to {to}:", "body": item.body.strip()})
        item.published = True


def publish_turn(db: Session, judge: Judge, game: Game, phase: Phase, stored: StoredTurn, nmr: Sequence[str],
                 notes: Sequence[str], crash: Callable[[str], None]) -> int:
    """Render the results of the stored ``phase`` with the press and the GM's notes, keep the text
    for the history, and queue the results (and the end of the game) to everyone; the mail count."""
    book = PowerBook(judge.variant_data(game.variant))
    view = results_view(judge, game, phase, stored_result(phase.results), stored_state(phase.state_after), nmr,
                        stored.deadline, stored.next_deadline, previous_centres(db, game, phase.seq))
    view.notes = [*game.settings.get("notes", []), *notes]
    if game.settings.get("notes"):
        game.settings = {key: value for key, value in game.settings.items() if key != "notes"}
    _publish_press(db, game, view, book)
    crash("turn:press_published")
    text, html = render_results(judge, view, options_of(game).layout)
    phase.results_text = text
    crash("turn:rendered")
    picture = phase_map(db, game, phase.code, phase.state_before, phase.results, kind="results")
    if picture is not None:
        db.flush()
        if html is not None:
            html = inline_map_html(html, content_id(picture, judge.settings.judge_domain),
                                   f"The map of {game.name} {phase.code}")
    mails = mail_game(db, judge, game, f"Diplomacy results {game.name} {phase.code}", text, html=html,
                      kind="results", map_id=picture.id if picture else None)
    crash("turn:results_queued")
    if stored.winner:
        mail_game(db, judge, game, f"Diplomacy game {game.name} is over",
                  f"Game '{game.name}' has been won by {full_stop(book.name(stored.winner))}  Congratulations!\n", kind="end")
    return mails
