"""The JSON API of the GM's turn tools and game page sections (issue 21.10, 21.15-17): the processing
preview, the players' flags and takeover requests, the mail log searched, filtered and paged."""

from __future__ import annotations

from fastapi import APIRouter

from app.services.readmodels.mail_log import MailFilter, MailLogPage, mail_log_page
from app.services.readmodels.seats import SeatBoard, seat_board
from app.services.turns.gm_tools import ProcessPlan, plan_processing
from app.web.deps import ApiGame, JudgeDep, Uow, game_row

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["api"])


@router.get("/games/{name}/process/preview", response_model=ProcessPlan,
            summary="What processing now would do: the powers defaulted, the results as mailed; nothing written")
def api_process_preview(name: str, judge: JudgeDep, uow: Uow, actor: ApiGame) -> ProcessPlan:
    return plan_processing(judge, uow, actor, game_row(uow, name))


@router.get("/games/{name}/players", response_model=SeatBoard,
            summary="Each power's WAIT, draw vote, concession, absence, misses, reliability; takeover requests")
def api_players(name: str, judge: JudgeDep, uow: Uow, actor: ApiGame) -> SeatBoard:
    return seat_board(judge, uow, actor, name)


@router.get("/games/{name}/mail", response_model=MailLogPage,
            summary="The mail log, newest first: search q (subject or address), power, direction, status, page")
def api_mail(name: str, judge: JudgeDep, uow: Uow, actor: ApiGame, q: str = "", power: str = "",
             direction: str = "", status: str = "", page: int = 1) -> MailLogPage:
    return mail_log_page(judge, uow, actor, name, MailFilter(q, power, direction, status, max(1, page)))
