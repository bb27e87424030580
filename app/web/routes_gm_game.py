"""The GM runs a game from the dashboard (issue 21): a forming game's players (assign a power, START;
a DoD III game's seats), the game's settings after creation, EJECT, TERMINATE, a note with the
next results and a broadcast.  Each form parses, calls the use case of the mail command, redirects
back; a refusal (DomainError) is shown to the GM (app/web/errors.py)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import FormData

from app.services.dod3 import setup as dod3_setup
from app.services.games import gm, lobby
from app.services.games.dummy import dummy, revive
from app.services.games.press import PressRequest, plan_press, send_press
from app.services.games.settings import PHASE_KINDS, SettingsChange
from app.services.readmodels.forming import assign_power
from app.services.ruleset.kinds import DOD3, ruleset_for
from app.web.deps import JudgeDep, PageGame, PostedForm, Uow, game_row
from app.web.forms import form_text

__all__ = ["router", "settings_change"]

router = APIRouter(include_in_schema=False)

_OPTION_FIELDS = ("nmr", "takeover", "press", "orders", "early", "timezone", "reminder_hours", "layout",
                  "draw_expires")
_TIMING_KEYS = ("next_hours", "grace_hours", "at", "days")


def settings_change(form: FormData) -> SettingsChange:
    """The settings fields of the game page (and of the new-game form): ``nmr``, ``press``, ...,
    ``grace_hours`` (every phase kind) and ``movement_next_hours``, ``retreat_at``, ..."""
    options = {key: (form_text(form, key) if key in form else None) for key in _OPTION_FIELDS}
    timing = [(kind, key, form_text(form, f"{kind}_{key}")) for kind in PHASE_KINDS for key in _TIMING_KEYS
              if f"{kind}_{key}" in form]
    if form_text(form, "grace_hours"):
        timing += [(kind, "grace_hours", form_text(form, "grace_hours")) for kind in PHASE_KINDS]
    observers = (form_text(form, "observer_press") == "yes") if "observer_press_shown" in form else None
    rule = (form_text(form, "rule_option"), form_text(form, "rule_value")) if form_text(form, "rule_option") else None
    return SettingsChange(**options, timing=tuple(timing), observer_press=observers, rule=rule)


def _done(name: str, note: str, anchor: str = "admin") -> Response:
    return RedirectResponse(f"/games/{name}?done={note}#{anchor}", status_code=303)


@router.post("/games/{name}/assign")
def assign(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    try:
        seat_id = int(form_text(form, "seat"))
    except ValueError as error:
        raise HTTPException(status_code=400, detail="Choose a player.") from error
    assign_power(judge, uow, actor, seat_id, form_text(form, "power"))
    return _done(name, "assigned", "forming")


@router.post("/games/{name}/start")
def start(name: str, judge: JudgeDep, uow: Uow, actor: PageGame) -> Response:
    """START (``DOD3 START`` for a Days of Decision III game)."""
    game = game_row(uow, name)
    if ruleset_for(game.variant) is DOD3:
        dod3_setup.start_game(judge, uow, actor)
    else:
        lobby.start_game(judge, uow, actor)
    return _done(name, "started", "powers")


@router.post("/games/{name}/dod3/seat")
def dod3_seat(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    """``DOD3 SEAT <player> <address> <password>``."""
    seated = dod3_setup.seat_player(judge, uow, actor, form_text(form, "player"), form_text(form, "address"),
                                    form_text(form, "password"))
    return _done(name, "waiting+for+the+address+to+confirm" if seated.pending else "seated", "forming")


@router.post("/games/{name}/eject")
def eject(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    who = form_text(form, "who")
    if not who:
        raise HTTPException(status_code=400, detail="Say which power (or address) to eject.")
    gm.eject(judge, uow, actor, who)
    return _done(name, "ejected")


@router.post("/games/{name}/terminate")
def terminate(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    if form_text(form, "confirm") != name:
        raise HTTPException(status_code=400, detail=f"To end the game, type its name ({name}) in the box.")
    gm.terminate(judge, uow, actor)
    return _done(name, "terminated")


@router.post("/games/{name}/note")
def note(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    text = form_text(form, "text")
    if not text:
        raise HTTPException(status_code=400, detail="Write the note first.")
    gm.add_note(judge, uow, actor, text)
    return _done(name, "noted")


@router.post("/games/{name}/broadcast")
def broadcast(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    """``BROADCAST`` from the master: mailed to every player and observer now (postal press: with
    the next results)."""
    body = form_text(form, "text", strip=False)
    send_press(judge, uow, actor, plan_press(judge, uow, actor, PressRequest(broadcast=True)), body)
    return _done(name, "broadcast")


@router.post("/games/{name}/press")
def press_to_one(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    """The GM's press to one power (``PRESS TO power`` from the master): mailed to its player now
    (postal press: with the next results); in the mail log and the audit (issue 28.6)."""
    power = form_text(form, "power")
    if not power:
        raise HTTPException(status_code=400, detail="Choose the power to write to.")
    plan = plan_press(judge, uow, actor, PressRequest(broadcast=False, powers=power))
    sent = send_press(judge, uow, actor, plan, form_text(form, "text", strip=False))
    return _done(name, "kept for the next results" if sent.postal else f"mailed to {', '.join(sent.to_names)}")


@router.post("/games/{name}/dummy")
def dummy_power(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    """``DUMMY power`` (civil disorder now) or, with ``action=revive``, ``REVIVE power`` (issue 28.7)."""
    power = form_text(form, "power")
    if form_text(form, "action") == "revive":
        done = revive(judge, uow, actor, power)
        return _done(name, f"{done.power_name} given back to {done.address}", "players")
    done = dummy(judge, uow, actor, power)
    return _done(name, f"{done.power_name} in civil disorder", "players")
