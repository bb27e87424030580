"""The GM runs a game from the dashboard (issue 21): a forming game's players (assign a power, START;
a DoD III game's seats), the game's settings after creation, EJECT, TERMINATE, a note with the
next results and a broadcast.  Each form parses, calls the use case of the mail command, redirects
back; a refusal (DomainError) is shown to the GM."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import FormData

from app.services.dod3 import setup as dod3_setup
from app.services.errors import DomainError
from app.services.games import gm, lobby
from app.services.games.press import PressRequest, plan_press, send_press
from app.services.games.settings import PHASE_KINDS, SettingsChange, change_settings
from app.services.readmodels.forming import assign_power
from app.services.ruleset.kinds import ruleset_for
from app.web.deps import Db, JudgeDep, PageGame, game_row
from app.web.forms import form_text

__all__ = ["router", "settings_change"]

router = APIRouter(include_in_schema=False)

_OPTION_FIELDS = ("nmr", "takeover", "press", "orders", "early", "timezone", "reminder_hours")
_TIMING_KEYS = ("next_hours", "grace_hours", "at", "days")


def settings_change(form: FormData) -> SettingsChange:
    """The settings fields of the game page (and of the new-game form): ``nmr``, ``press``, ...,
    ``grace_hours`` (every phase kind) and ``movement_next_hours``, ``retreat_at``, ..."""
    options = {key: (form_text(form, key) if key in form else None) for key in _OPTION_FIELDS}
    timing = [(kind, key, form_text(form, f"{kind}_{key}")) for kind in PHASE_KINDS for key in _TIMING_KEYS
              if f"{kind}_{key}" in form]
    if form_text(form, "grace_hours"):
        timing += [(kind, "grace_hours", form_text(form, "grace_hours")) for kind in PHASE_KINDS]
    return SettingsChange(**options, timing=tuple(timing))


def _run(action: Callable[[], object], name: str, note: str, anchor: str = "admin") -> Response:
    try:
        action()
    except DomainError as error:
        raise HTTPException(status_code=400, detail=error.message) from error
    return RedirectResponse(f"/games/{name}?done={note}#{anchor}", status_code=303)


@router.post("/games/{name}/assign")
async def assign(request: Request, name: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    form = await request.form()
    try:
        seat_id = int(form_text(form, "seat"))
    except ValueError as error:
        raise HTTPException(status_code=400, detail="Choose a player.") from error
    return _run(lambda: assign_power(judge, db, actor, seat_id, form_text(form, "power")), name, "assigned",
                "forming")


@router.post("/games/{name}/start")
def start(name: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    """START (``DOD3 START`` for a Days of Decision III game)."""
    game = game_row(db, name)
    if ruleset_for(game.variant).name == "dod3":
        return _run(lambda: dod3_setup.start_game(judge, db, actor), name, "started", "powers")
    return _run(lambda: lobby.start_game(judge, db, actor), name, "started", "powers")


@router.post("/games/{name}/dod3/seat")
async def dod3_seat(request: Request, name: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    """``DOD3 SEAT <player> <address> <password>``."""
    form = await request.form()
    return _run(lambda: dod3_setup.seat_player(judge, db, actor, form_text(form, "player"),
                                               form_text(form, "address"), form_text(form, "password")),
                name, "seated", "forming")


@router.post("/games/{name}/settings")
async def settings(request: Request, name: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    form = await request.form()
    game = game_row(db, name)
    return _run(lambda: change_settings(judge, db, actor, settings_change(form), game), name, "settings",
                "settings")


@router.post("/games/{name}/eject")
async def eject(request: Request, name: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    form = await request.form()
    who = form_text(form, "who")
    if not who:
        raise HTTPException(status_code=400, detail="Say which power (or address) to eject.")
    return _run(lambda: gm.eject(judge, db, actor, who), name, "ejected")


@router.post("/games/{name}/terminate")
async def terminate(request: Request, name: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    form = await request.form()
    if form_text(form, "confirm") != name:
        raise HTTPException(status_code=400, detail=f"To end the game, type its name ({name}) in the box.")
    return _run(lambda: gm.terminate(judge, db, actor), name, "terminated")


@router.post("/games/{name}/note")
async def note(request: Request, name: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    form = await request.form()
    text = form_text(form, "text")
    if not text:
        raise HTTPException(status_code=400, detail="Write the note first.")
    return _run(lambda: gm.add_note(judge, db, actor, text), name, "noted")


@router.post("/games/{name}/broadcast")
async def broadcast(request: Request, name: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    """``BROADCAST`` from the master: mailed to every player and observer now (postal press: with
    the next results)."""
    form = await request.form()
    body = form_text(form, "text", strip=False)
    return _run(lambda: send_press(judge, db, actor, plan_press(judge, db, actor, PressRequest(broadcast=True)),
                                   body), name, "broadcast")
