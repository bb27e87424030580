"""The GM's pages: the overview of their games, a game, a phase, one mail of the log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response

from app.db import queries
from app.db.statuses import PhaseStatus
from app.services.dod3.report import render_report, show_status
from app.services.errors import DomainError
from app.services.games.contests import contests_of
from app.services.games.gm import NMR_POLICIES
from app.services.games.settings import settings_of
from app.services.kernel.access import book_of
from app.services.kernel.actor import Actor, Role
from app.services.override.review import PhaseOrders, phase_orders
from app.services.readmodels.corrections import audit_log, corrections_of
from app.services.readmodels.dashboard import list_games, show_game, show_mail, show_phase
from app.services.readmodels.mail_log import MailFilter, held_mail, mail_log_page
from app.services.readmodels.seats import seat_board
from app.services.ruleset.kinds import DOD3, ruleset_for
from app.web.deps import JudgeDep, PageGame, PageGm, Uow, game_row
from app.web.maps import can_draw
from app.web.reasons import review_orders
from app.web.templating import pages

__all__ = ["Dod3Status", "router"]


@dataclass(frozen=True)
class Dod3Status:
    step: str | None
    deadline: str
    bids_in: tuple[str, ...]
    bids_missing: tuple[str, ...]
    report: str  # the GM's report text: the track, every number, bids once revealed, the record

router = APIRouter(include_in_schema=False)


@router.get("/")
def overview(request: Request, judge: JudgeDep, uow: Uow, principal: PageGm) -> Response:
    actor = Actor(principal.email, Role.KEEPER if principal.keeper else Role.GM)
    games = list_games(judge, uow, actor, co_games=principal.proven)
    mailbox = judge.settings.mail_mode == "embedded" and getattr(request.app.state, "inbox_writer", None) is not None
    held = held_mail(uow, actor) if principal.keeper else ()
    return pages(request).render(request, "overview.html.j2", title="Your games", games=games, mailbox=mailbox,
                                 done=request.query_params.get("done", ""), held=held)


@router.get("/games/{name}")
def game_page(request: Request, name: str, judge: JudgeDep, uow: Uow, actor: PageGame) -> Response:
    db = uow.session
    detail = show_game(judge, uow, actor, name)
    game = queries.game_by_name(db, name)
    contests = contests_of(judge, uow, actor, game) if game is not None else ()
    map_game = game is not None and ruleset_for(game.variant).has_map
    corrections = corrections_of(uow, actor, game) if game is not None else ()
    query = request.query_params
    page = query.get("mail_page", "1")
    wanted = MailFilter(text=query.get("mail_q", ""), power=query.get("mail_power", ""),
                        direction=query.get("mail_dir", ""), status=query.get("mail_status", ""),
                        page=int(page) if page.isdigit() else 1)
    return pages(request).render(request, "game.html.j2", title=f"Game {detail.summary.name}", g=detail,
                                 has_map=can_draw(detail.summary.variant), contests=contests, corrections=corrections,
                                 log=mail_log_page(judge, uow, actor, name, wanted),
                                 seats=seat_board(judge, uow, actor, name),
                                 dod3=_dod3_status(judge, uow, actor, detail.summary.variant),
                                 settings=settings_of(game) if map_game and game is not None else None,
                                 map_game=map_game,
                                 nmr_policies=NMR_POLICIES)


def _dod3_status(judge: JudgeDep, uow: Uow, actor: Actor, variant: str) -> Dod3Status | None:
    """A Days of Decision III game: the GM's status (track, every number, the record) as mailed."""
    if ruleset_for(variant) is not DOD3:
        return None
    try:
        with uow.savepoint():
            status = show_status(judge, uow, actor)
    except DomainError:  # on purpose: no status yet, the page goes without the section
        return None
    return Dod3Status(status.step, status.deadline, status.bids_in, status.bids_missing,
                      render_report(judge, status.report)[0])


@router.get("/games/{name}/phases/{code}")
def phase_page(request: Request, name: str, code: str, judge: JudgeDep, uow: Uow, actor: PageGame) -> Response:
    db = uow.session
    phase = show_phase(judge, uow, actor, name, code)
    game = queries.game_by_name(db, name)
    variant = game.variant if game is not None else ""
    contests = contests_of(judge, uow, actor, game, phase.code) if game is not None else ()
    try:
        with uow.savepoint():
            original = phase_orders(judge, uow, actor, game, phase.code) if game is not None else None
    except DomainError:  # on purpose: a phase not processed has no orders to correct, the page goes on
        original = None
    return pages(request).render(request, "phase.html.j2", title=f"{phase.game} {phase.code}", p=phase,
                                 reviews=review_orders(phase.orders, book_of(judge, game).name if game else str), contests=contests,
                                 has_map=can_draw(variant) and phase.status == PhaseStatus.PROCESSED,
                                 original=original or PhaseOrders(phase.code, ()),
                                 corrections=corrections_of(uow, actor, game, phase.code) if game is not None else (),
                                 corrected=request.query_params.get("corrected"))


@router.get("/games/{name}/audit")
def audit_page(request: Request, name: str, uow: Uow, actor: PageGame) -> Response:
    """The game's audit log: every override, rollback, process, contest answer... with who and when."""
    game = game_row(uow, name)
    lines = audit_log(uow, actor, game)
    return pages(request).render(request, "audit.html.j2", title=f"Audit log of {game.name}", game=game.name,
                                 lines=lines, corrections=corrections_of(uow, actor, game))


@router.get("/games/{name}/mail/{direction}/{mail_id}")
def raw_mail(name: str, direction: Literal["in", "out"], mail_id: int, judge: JudgeDep, uow: Uow,
             actor: PageGame) -> Response:
    mail = show_mail(judge, uow, actor, name, direction, mail_id)
    # Plain text, never sniffed as HTML: a mail's raw bytes are shown exactly as they came.
    return PlainTextResponse(mail.text, headers={"X-Content-Type-Options": "nosniff",
                                                 "Content-Security-Policy": "default-src 'none'"})
