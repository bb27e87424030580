"""Days of Decision III games on the judge: the use cases (one transaction each, like every service).

A DoD III game is an ordinary ``Game`` row with ``variant == "dod3"``:

* ``game.settings["dod3"]`` holds the GM-entered set-up (``GameSetup.to_dict()``: players and
  their powers per the rule 3.1 groupings, starting numbers, option costs, the weather chart,
  bid modifiers, options 8.6 and 4.1), the step deadlines in hours, the GM-entered objectives
  in neutral minors, and the current turn's dice (the seed stays secret until the turn ends);
* every step of a turn is a ``Phase`` row (codes such as ``MA1936A``: turn ``MA1936`` =
  Mar/Apr 1936, step ``A`` bids, ``AM`` Democrat move-downs, ``B`` weather, ``C1``, ``C2``...
  one per option slot of political affairs, ``D`` bonus bid points, ``E`` the GM's steps E-I);
  ``state_before``/``state_after`` are ``app.dod3.state.GameState.to_dict()``. While a row is
  open its ``state_after`` is the running state (GM entries land there);
* secret bids and move-downs are ``OrderRow`` rows (unit ``BID`` / ``MOVE``) of the open step,
  seen by nobody until the deadline reveals them all together;
* every seat is a ``Player`` row per power with role ``dod3``; a player who holds several
  powers (rule 3.1) has one seat per power with the same address and password.

Rules computations are the pure functions of ``app.dod3``; this module only loads, stores,
authorises, rolls the committed dice, and mails.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import AuditEntry, Game, OrderRow, Phase, Player
from app.dod3.dice import DiceRoller, generate_seed
from app.dod3.exact import format_number, parse_number, round_rule, to_json_number
from app.dod3.initiative import MoveDown, apply_move_downs, move_down_order
from app.dod3.political import option_family
from app.dod3.powers import IDEOLOGY_OF, normalise_power, normalise_powers
from app.dod3.state import (
    GameSetup,
    GameState,
    advance,
    apply_bonus_bid_points,
    choose_option,
    democrat_move_downs,
    gm_adjust,
    new_game,
    record_weather,
    resolve_initiative,
    roll_political_end,
    start_political_phase,
)
from app.dod3.turns import MONTH_PAIRS, PHASE_TITLES, turn_key, turn_label
from app.dod3.turns import Phase as Step
from app.dod3.variant import SHORT_NAMES, VARIANT
from app.dod3.victory import victory_tally
from app.mail.commands import CommandError
from app.services.context import Judge
from app.services.notify import mail_master, mail_seat
from app.services.render import format_deadline
from app.services.security import hash_password, new_token

__all__ = [
    "DEFAULT_HOURS",
    "ROLE",
    "bid",
    "create_game",
    "current_state",
    "gm_entry",
    "move_down",
    "play_option",
    "process_turn",
    "report_view",
    "start_game",
    "step_code",
    "tally",
]

ROLE = "dod3"
DEFAULT_HOURS: dict[str, float] = {"bids": 48.0, "movedown": 12.0, "weather": 24.0, "option": 24.0, "gm": 72.0}
_PAIR_CODES = ("JF", "MA", "MJ", "JA", "SO", "ND")
_HOURS_OF_STEP = {"A": "bids", "AM": "movedown", "B": "weather", "C": "option", "E": "gm"}
LISTENING = ("active", "absent", "cd")


def _error(error: Exception) -> CommandError:
    return CommandError(str(error).strip("'\""))


# ---------------------------------------------------------------------------------------------
# codes, settings, state


def turn_code(turn: int) -> str:
    """0 -> ``JF1936`` (Jan/Feb 1936)."""
    return f"{_PAIR_CODES[turn % 6]}{1936 + turn // 6}"


def step_code(turn: int, step: str) -> str:
    return turn_code(turn) + step


def _step_of(code: str) -> str:
    """``MA1936C3`` -> ``C3``."""
    return code[6:]


def is_dod3(game: Game | None) -> bool:
    return game is not None and game.variant == VARIANT


def _cfg(game: Game) -> dict[str, Any]:
    cfg = dict((game.settings or {}).get("dod3") or {})
    if "setup" not in cfg:
        raise CommandError(f"game '{game.name}' has no Days of Decision III set-up (create it with DOD3 CREATE)")
    return cfg


def _save_cfg(game: Game, cfg: dict[str, Any]) -> None:
    game.settings = {**(game.settings or {}), "dod3": cfg}


def setup_of(game: Game) -> GameSetup:
    return GameSetup.from_dict(_cfg(game)["setup"])


def _hours(game: Game, step: str) -> float:
    key = _HOURS_OF_STEP.get(step[:2] if step.startswith("AM") else step[:1], "gm")
    return float({**DEFAULT_HOURS, **(_cfg(game).get("hours") or {})}[key])


def _dump(state: GameState) -> dict[str, Any]:
    data = state.to_dict()
    data["variant"] = VARIANT
    return data


def _load(game: Game, data: Mapping[str, Any]) -> GameState:
    return GameState.from_dict({**data, "setup": _cfg(game)["setup"]})


def current_state(game: Game, phase: Phase) -> GameState:
    """The running state of an open step (GM entries included), or the state after a processed one."""
    data = phase.state_after if phase.state_after else phase.state_before
    return _load(game, data)


def _open_phase(db: Session, game: Game) -> Phase:
    if not is_dod3(game):
        raise CommandError(f"game '{game.name}' is not a Days of Decision III game")
    if game.status not in ("active", "paused"):
        raise CommandError(f"game '{game.name}' is not running ({game.status})")
    phase = queries.open_phase(db, game.id)
    if phase is None:
        raise CommandError(f"game '{game.name}' has no open step")
    return phase


def _next_seq(db: Session, game: Game) -> int:
    return int(db.scalar(select(func.max(Phase.seq)).where(Phase.game_id == game.id)) or 0) + 1


def _name(power: str) -> str:
    return SHORT_NAMES.get(power, power)


def _bump(db: Session, game: Game) -> None:
    from app.services.turns import bump_version

    bump_version(db, game)


# ---------------------------------------------------------------------------------------------
# dice


def _roller(game: Game) -> DiceRoller:
    return DiceRoller.from_dict(_cfg(game)["dice"])


def _save_roller(game: Game, roller: DiceRoller) -> None:
    cfg = _cfg(game)
    cfg["dice"] = roller.to_dict(reveal=True)
    _save_cfg(game, cfg)


def _ensure_dice(game: Game, state: GameState) -> GameState:
    """A new committed seed for each turn, drawn before anything of the turn is known."""
    cfg = _cfg(game)
    key = turn_key(state.turn)
    dice = cfg.get("dice")
    if not dice or dice.get("turn") != key:
        roller = DiceRoller(seed=generate_seed_for_game(), game=game.name, turn=key)
        _save_roller(game, roller)
        return replace(state, dice_commitment=roller.commitment)
    if state.dice_commitment is None:
        return replace(state, dice_commitment=dice["commitment"])
    return state


def generate_seed_for_game() -> str:
    """The secret seed of a turn (tests may replace ``generate_seed`` in this module)."""
    return generate_seed(secrets.token_bytes)


# ---------------------------------------------------------------------------------------------
# mail helpers


def _listeners(game: Game) -> list[Player]:
    """One seat per address (a player holding several powers gets one copy)."""
    seen: set[str] = set()
    out = []
    for seat in game.players:
        if seat.status not in LISTENING and seat.role == ROLE:
            continue
        if seat.email in seen:
            continue
        seen.add(seat.email)
        out.append(seat)
    return out


def _mail_all(db: Session, judge: Judge, game: Game, subject: str, text: str, *, html: str | None = None,
              kind: str = "results") -> int:
    count = 0
    for seat in _listeners(game):
        mail_seat(db, judge, seat, subject, text, html=html, kind=kind)
        count += 1
    mail_master(db, judge, game, subject, text, kind=kind)
    return count + 1


def _deadline_text(game: Game, when: datetime | None) -> str:
    return format_deadline(when, str((game.settings or {}).get("timezone", "UTC")))


def _player_of(setup: GameSetup, power: str) -> str:
    return setup.player_of(power)


def _seat_of(db: Session, game: Game, power: str) -> Player | None:
    return queries.seat_for_power(db, game.id, power)


# ---------------------------------------------------------------------------------------------
# creating and starting a game


def create_game(
    db: Session,
    judge: Judge,
    name: str,
    master_email: str,
    master_password: str,
    setup: Mapping[str, Any],
    seats: Mapping[str, tuple[str, str]],
    *,
    hours: Mapping[str, float] | None = None,
    neutral: list[Mapping[str, Any]] | None = None,
    layout: str = "zine",
) -> Game:
    """A forming DoD III game. ``setup``: ``GameSetup.from_dict`` input without ``game_id``
    (players or a rule 3.1 ``preset``, per-power numbers, option costs, weather chart,
    options ``bitter_end`` / ``rule_8_6``). ``seats``: player name -> (address, password)."""
    name = name.lower()
    if queries.game_by_name(db, name) is not None:
        raise CommandError(f"a game called '{name}' already exists")
    try:
        parsed = GameSetup.from_dict({**setup, "game_id": name})
    except (ValueError, KeyError) as error:
        raise _error(error) from error
    players = dict(parsed.players)
    unknown = set(seats) - set(players)
    if unknown:
        raise CommandError(f"no such player in the set-up: {', '.join(sorted(unknown))}")
    unknown_hours = set(hours or {}) - set(DEFAULT_HOURS)
    if unknown_hours:
        raise CommandError(f"unknown step for the deadlines: {', '.join(sorted(unknown_hours))}")
    cfg = {"setup": parsed.to_dict(), "hours": {**DEFAULT_HOURS, **dict(hours or {})},
           "neutral": [dict(item) for item in (neutral or [])], "tally": False}
    game = Game(name=name, variant=VARIANT, status="forming", master_email=master_email.lower(),
                master_password_hash=hash_password(master_password), press="white",
                settings={"layout": layout, "timezone": "UTC", "early": False, "reminder_hours": 0, "dod3": cfg})
    db.add(game)
    db.flush()
    for player, (email, password) in seats.items():
        add_player(db, game, player, email, password)
    db.add(AuditEntry(game_id=game.id, actor=master_email.lower(), action="dod3_create",
                      detail={"players": {p: list(powers) for p, powers in players.items()}}))
    return game


def add_player(db: Session, game: Game, player: str, email: str, password: str) -> list[Player]:
    """One seat per power of ``player`` (same address and password for each)."""
    setup = setup_of(game)
    powers = dict(setup.players).get(player)
    if powers is None:
        raise CommandError(f"no player '{player}' in the set-up (players: {', '.join(p for p, _ in setup.players)})")
    password_hash = hash_password(password)
    seats = []
    for power in powers:
        seat = queries.seat_for_power(db, game.id, power)
        if seat is None:
            seat = Player(game_id=game.id, power=power, role=ROLE, email=email.lower(), password_hash=password_hash,
                          status="active", reply_token=new_token())
            db.add(seat)
            game.players.append(seat)
        else:
            seat.email, seat.password_hash, seat.status = email.lower(), password_hash, "active"
        seats.append(seat)
    db.flush()
    return seats


def start_game(db: Session, judge: Judge, game: Game) -> str:
    """Jan/Feb 1936: no bidding; step B, then political affairs in the initial track order."""
    if not is_dod3(game) or game.status != "forming":
        raise CommandError(f"game '{game.name}' is not a forming Days of Decision III game")
    setup = setup_of(game)
    missing = [power for _, powers in setup.players for power in powers if _seat_of(db, game, power) is None]
    if missing:
        raise CommandError(f"no player yet for {', '.join(missing)} (DOD3 SEAT <player> <address> <password>)")
    game.status = "active"
    state = _ensure_dice(game, new_game(setup))
    events: list[str] = []
    opened = _continue(db, judge, game, state, events)
    roster = []
    for player, powers in setup.players:
        seat = _seat_of(db, game, powers[0])
        roster.append(f"  {player}: {', '.join(_name(p) for p in powers)} ({seat.email if seat else '?'})")
    text = judge.templates.render(
        "mail/dod3/notice.txt.j2",
        n=_notice(game, f"The game begins: {turn_label(0)}", [
            ("The players", roster),
            ("Dice", ["This turn's dice are committed: SHA256(seed) =", f"  {state.dice_commitment}",
                      "The seed is revealed with the turn report so that every roll can be checked."]),
        ] + ([("So far", events)] if events else []), opened),
    )
    _mail_all(db, judge, game, f"DoD3 {game.name}: the game begins", text, kind="start")
    return opened.get("text", "")


# ---------------------------------------------------------------------------------------------
# running the steps


def _open(db: Session, game: Game, state: GameState, step: str, now: datetime) -> dict[str, Any]:
    code = step_code(state.turn, step)
    deadline = now + timedelta(hours=_hours(game, step))
    db.add(Phase(game_id=game.id, seq=_next_seq(db, game), code=code, status="open",
                 state_before=_dump(state), deadline=deadline))
    db.flush()
    game.phase, game.deadline, game.grace_until, game.reminded_phase = code, deadline, None, None
    return {"code": code, "deadline": deadline, "deadline_text": _deadline_text(game, deadline), "step": step}


def _record(db: Session, game: Game, before: GameState, after: GameState, step: str, now: datetime,
            text: str = "") -> None:
    """A step the judge did by itself (weather from the GM's chart, bonus bid points)."""
    db.add(Phase(game_id=game.id, seq=_next_seq(db, game), code=step_code(before.turn, step), status="processed",
                 state_before=_dump(before), state_after=_dump(after), results={"automatic": True},
                 processed_at=now, results_text=text or None))
    db.flush()


def _months(state: GameState) -> str:
    return MONTH_PAIRS[state.turn % len(MONTH_PAIRS)]


def _continue(db: Session, judge: Judge, game: Game, state: GameState, events: list[str]) -> dict[str, Any]:
    """Run the automatic steps from ``state`` (at the start of a step) and open the next step that
    waits for someone. Returns what was opened (code, deadline, who is called)."""
    now = judge.now()
    while True:
        if state.ended:
            game.status, game.deadline, game.grace_until = "finished", None, None
            return {"code": None, "ended": list(state.ended),
                    "text": "THE GAME HAS ENDED: " + "; ".join(state.ended)}
        state = _ensure_dice(game, state)
        step = state.phase
        if step == Step.INITIATIVE:
            opened = _open(db, game, state, "A", now)
            opened["text"] = (f"{opened['code']}, {turn_label(state.turn)}, step A: initiative bids (BID <power> <points> "
                              f"[OPTIONS <n>]) by {opened['deadline_text']}.")
            opened["commitment"] = state.dice_commitment
            return opened
        if step == Step.WEATHER:
            if any(months == _months(state) for months, _ in state.setup.weather_chart):
                roller = _roller(game)
                die = roller.roll("weather")
                _save_roller(game, roller)
                after = record_weather(state, die=die)
                events.append(f"Weather ({_months(state)}, d10 = {die}): {after.weather}")
                _record(db, game, state, after, "B", now)
                state = advance(after)
                continue
            opened = _open(db, game, state, "B", now)
            opened["text"] = (f"{opened['code']}, {turn_label(state.turn)}, step B: the GM enters the weather "
                              f"(DOD3 WEATHER <result>) by {opened['deadline_text']}.")
            mail_master(db, judge, game, f"DoD3 {game.name}: enter the weather for {turn_label(state.turn)}",
                        f"The weather chart column for {_months(state)} has not been entered.\n"
                        f"Send DOD3 WEATHER <result> (or DOD3 SET WEATHER {_months(state)} <10 results>).\n",
                        kind="gm")
            return opened
        if step == Step.POLITICAL_AFFAIRS:
            if state.political is None:
                state = start_political_phase(state)
            political = state.political
            assert political is not None
            if political.ended:
                events.append("Political affairs: no power bid for an option.")
                state = advance(state)
                continue
            slot = len(political.rolls) + 1
            opened = _open(db, game, state, f"C{slot}", now)
            power = political.current_power or "?"
            opened["power"] = power
            opened["text"] = (f"{opened['code']}, {turn_label(state.turn)}, political affairs: {_name(power)} to name its option "
                              f"(OPTION {power} <option> [MINOR <minor>], or PASS {power}) by "
                              f"{opened['deadline_text']}.")
            return opened
        if step == Step.BONUS_BID_POINTS:
            after = apply_bonus_bid_points(state)
            hidden = {p.power for p in state.powers if p.pe_hidden}
            for change in after.bonus:
                if change.power in hidden:
                    events.append(f"Bonus: {_name(change.power)} ? (PE face down)")
                elif change.money_lost:
                    events.append(f"Bonus: {_name(change.power)} loses {change.money_lost} money")
                elif change.bid_points_gained:
                    events.append(f"Bonus: {_name(change.power)} +{change.bid_points_gained} bid points")
            _record(db, game, state, after, "D", now)
            state = advance(after)
            continue
        # Steps E to I: entered by the GM, closed by DOD3 PROCESS (or the deadline).
        opened = _open(db, game, state, "E", now)
        opened["text"] = (f"{opened['code']}, {turn_label(state.turn)}, steps E-I: the GM enters military affairs, production, "
                          f"US entry, conquest and objectives by {opened['deadline_text']}.")
        return opened


def _finish(db: Session, judge: Judge, phase: Phase, after: GameState, results: dict[str, Any], text: str) -> None:
    phase.state_after = _dump(after)
    phase.results = results
    phase.results_text = text
    phase.status = "processed"
    phase.processed_at = judge.now()
    db.flush()


def _bids_of(db: Session, game: Game, phase: Phase) -> dict[str, dict[str, int]]:
    bids: dict[str, dict[str, int]] = {}
    for row in queries.orders_for(db, game.id, phase.code):
        if row.unit == "BID" and row.order:
            points, _, options = row.order.partition("/")
            bids[row.power] = {"points": int(points), "options": int(options or 1)}
    return bids


def _moves_of(db: Session, game: Game, phase: Phase) -> dict[str, str]:
    return {row.power: row.order or "STAY" for row in queries.orders_for(db, game.id, phase.code)
            if row.unit == "MOVE"}


def _valid_moves(state: GameState, moves: Mapping[str, str]) -> tuple[list[MoveDown], list[str]]:
    """The received move-downs that can be applied, in reverse initiative order; the others refused."""
    assert state.initiative is not None
    accepted: list[MoveDown] = []
    refused: list[str] = []
    for power in move_down_order(state.initiative):
        order = moves.get(power, "STAY")
        if order == "STAY":
            continue
        move = MoveDown(power, below=order.split()[-1])
        try:
            apply_move_downs(state.initiative, accepted + [move])
        except ValueError as error:
            refused.append(f"{_name(power)} cannot move down: {error}")
            continue
        accepted.append(move)
    return accepted, refused


def process_turn(db: Session, judge: Judge, game: Game, *, expected_phase: str | None = None,
                 notes: list[str] | None = None) -> Any:
    """The open step's deadline has come (or the GM said PROCESS): close it and go on.
    Returns the server's ``TurnOutcome``."""
    from app.services.turns import ProcessError, TurnOutcome

    if expected_phase and game.phase and expected_phase.upper() != game.phase.upper():
        raise ProcessError(f"the step is {game.phase}, not {expected_phase.upper()}")
    phase = queries.open_phase(db, game.id)
    if phase is None:
        raise ProcessError(f"game '{game.name}' has no open step")
    _bump(db, game)
    state = current_state(game, phase)
    step = _step_of(phase.code)
    events: list[str] = list(notes or [])
    if step == "A":
        mails = _reveal_bids(db, judge, game, phase, state, events)
    elif step == "AM":
        mails = _close_move_downs(db, judge, game, phase, state, events)
    elif step == "B":
        after = record_weather(state, result="not entered by the GM")
        _finish(db, judge, phase, after, {"weather": after.weather}, f"Weather: {after.weather}")
        opened = _continue(db, judge, game, advance(after), events)
        mails = _send_notice(db, judge, game, f"weather {turn_label(state.turn)}",
                             [("Weather", ["Not entered by the GM by the deadline."] + events)], opened)
    elif step.startswith("C"):
        political = state.political
        if political is None or political.current_power is None:
            raise ProcessError("no option is awaited")
        power = political.current_power
        after = replace(state, political=political.pass_turn(power)).note(f"{power} passes (no option by the deadline)")
        silent = f"{_name(power)} named no option by the deadline and passes."
        mails = _after_slot(db, judge, game, phase, state, after, [silent])
    elif step == "E":
        mails = _end_turn(db, judge, game, phase, state)
    else:
        raise ProcessError(f"unknown step {phase.code}")
    return TurnOutcome(game=game.name, phase=phase.code, next_phase=game.phase if game.status != "finished" else None,
                       winner=None, mails=mails)


def _reveal_bids(db: Session, judge: Judge, game: Game, phase: Phase, state: GameState, events: list[str]) -> int:
    bids = _bids_of(db, game, phase)
    try:
        after = resolve_initiative(state, bids)
    except ValueError:
        # A pool shrank after the bid was accepted (a GM entry): such a bid counts as no bid.
        pools = {p.power: p.bid_points for p in state.powers}
        bids = {p: b for p, b in bids.items() if b["points"] <= pools.get(p, 0)}
        after = resolve_initiative(state, bids)
    phase.orders_received = {power: [f"BID {power} {b['points']} OPTIONS {b['options']}"] for power, b in bids.items()}
    phase.orders_parsed = bids
    assert after.initiative is not None
    lines = _initiative_lines(after)
    order = [p for p in move_down_order(after.initiative)]
    if order:
        _finish(db, judge, phase, after, {"initiative": after.initiative.to_dict()}, "\n".join(lines))
        opened = _open(db, game, after, "AM", judge.now())
        opened["text"] = (f"{opened['code']}: Democrat move-downs, in reverse initiative order "
                          f"({', '.join(order)}): MOVEDOWN <power> BELOW <power> or STAY <power> "
                          f"by {opened['deadline_text']}.")
        return _send_notice(db, judge, game, f"bids revealed {turn_label(state.turn)}",
                            [("Initiative: the bids revealed", lines)], opened)
    after = democrat_move_downs(after, {})
    _finish(db, judge, phase, after, {"initiative": after.initiative.to_dict() if after.initiative else None},
            "\n".join(lines))
    opened = _continue(db, judge, game, advance(after), events)
    return _send_notice(db, judge, game, f"bids revealed {turn_label(state.turn)}",
                        [("Initiative: the bids revealed", lines)] + ([("Then", events)] if events else []), opened)


def _close_move_downs(db: Session, judge: Judge, game: Game, phase: Phase, state: GameState,
                      events: list[str]) -> int:
    moves = _moves_of(db, game, phase)
    accepted, refused = _valid_moves(state, moves)
    after = democrat_move_downs(state, accepted)
    phase.orders_received = {power: [order] for power, order in moves.items()}
    lines = [f"{_name(m.power)} moves down below {_name(m.below or '?')}." for m in accepted] or [
        "No Democrat moved down."]
    lines += refused
    lines.append("Track: " + ", ".join(after.track))
    _finish(db, judge, phase, after, {"move_downs": [m.to_dict() for m in accepted]}, "\n".join(lines))
    opened = _continue(db, judge, game, advance(after), events)
    return _send_notice(db, judge, game, f"initiative track {turn_label(state.turn)}",
                        [("Democrat move-downs", lines)] + ([("Then", events)] if events else []), opened)


def _after_slot(db: Session, judge: Judge, game: Game, phase: Phase, before: GameState, after: GameState,
                lines: list[str]) -> int:
    """An option slot is over (option and end roll, or a pass): the next slot, or step D."""
    _finish(db, judge, phase, after, {"political": after.political.to_dict() if after.political else None},
            "\n".join(lines))
    events: list[str] = []
    assert after.political is not None
    state = advance(after) if after.political.ended else after
    if after.political.ended:
        lines = lines + ["Political affairs are over for this turn."]
    opened = _continue(db, judge, game, state, events)
    sections = [("Political affairs", lines)] + ([("Then", events)] if events else [])
    return _send_notice(db, judge, game, f"political affairs {turn_label(before.turn)}", sections, opened)


def _end_turn(db: Session, judge: Judge, game: Game, phase: Phase, state: GameState) -> int:
    at_i = state
    while at_i.phase != Step.END_OF_TURN:
        at_i = advance(at_i)
    roller = _roller(game)
    cfg = _cfg(game)
    tally_view = None
    if cfg.get("tally"):
        try:
            tally_view = _tally_view(game, at_i)
        except ValueError as error:
            tally_view = {"error": str(error)}
        cfg["tally"] = False
        _save_cfg(game, cfg)
    after = advance(at_i)
    _finish(db, judge, phase, after, {"dice": roller.to_dict(reveal=True), "tally": tally_view}, "")
    events: list[str] = []
    opened = _continue(db, judge, game, after, events)
    view = report_view(game, at_i, roller.to_dict(reveal=True), tally=tally_view, opened=opened, events=events)
    text = judge.templates.render("mail/dod3/report.txt.j2", v=view)
    html = judge.templates.render("mail/dod3/report.html.j2", v=view)
    phase.results_text = text
    return _mail_all(db, judge, game, f"DoD3 {game.name}: {turn_label(state.turn)} turn report", text, html=html)


def _notice(game: Game, title: str, sections: list[tuple[str, list[str]]], opened: Mapping[str, Any]) -> dict[str, Any]:
    return {"game": game.name, "title": title, "sections": sections, "next": opened.get("text", ""),
            "commitment": opened.get("commitment")}


def _send_notice(db: Session, judge: Judge, game: Game, what: str, sections: list[tuple[str, list[str]]],
                 opened: Mapping[str, Any]) -> int:
    text = judge.templates.render("mail/dod3/notice.txt.j2", n=_notice(game, what[:1].upper() + what[1:],
                                                                        sections, opened))
    count = _mail_all(db, judge, game, f"DoD3 {game.name}: {what}", text, kind="results")
    power = opened.get("power")
    if power:
        seat = _seat_of(db, game, power)
        if seat is not None:
            mail_seat(db, judge, seat, f"DoD3 {game.name}: {_name(power)} to name an option",
                      f"It is {_name(power)}'s turn to name its option in '{game.name}'.\n"
                      f"{opened.get('text', '')}\n", kind="notice")
            count += 1
    return count


# ---------------------------------------------------------------------------------------------
# players' mail: bids, move-downs, options


def _require_seat(ctx: Any, power: str) -> tuple[Game, str]:
    """The signed-on player may act for ``power`` only if the same player holds it (rule 3.1 groups)."""
    game = ctx.require_game()
    if not is_dod3(game):
        raise CommandError(f"game '{game.name}' is not a Days of Decision III game")
    try:
        code = normalise_power(power)
    except ValueError as error:
        raise _error(error) from error
    seat = ctx.seat
    if seat is None or seat.role != ROLE or not seat.power:
        raise CommandError("sign on as one of your powers first (SIGNON <power>@<game> <password>)")
    setup = setup_of(game)
    try:
        same = _player_of(setup, seat.power) == _player_of(setup, code)
    except KeyError:
        same = False
    target = _seat_of(ctx.db, game, code)
    if not same or target is None or target.email != seat.email:
        raise CommandError(f"you do not play {_name(code)}")
    if target.status not in ("active", "absent", "cd"):
        raise CommandError(f"{_name(code)} is {target.status}")
    return game, code


def _own_powers(ctx: Any, game: Game) -> tuple[str, ...]:
    setup = setup_of(game)
    return dict(setup.players).get(_player_of(setup, ctx.seat.power), ())


def bid(ctx: Any, power: str, points: str, options: str | None) -> None:
    """``BID <power> <points> [OPTIONS <n>]``: stored secretly until the deadline; 0 = no bid."""
    game, code = _require_seat(ctx, power)
    phase = _open_phase(ctx.db, game)
    if _step_of(phase.code) != "A":
        raise CommandError(f"bids are taken in step A; this is {phase.code}")
    state = current_state(game, phase)
    holder = state.power(code)
    if holder.conquered:
        raise CommandError(f"{_name(code)} has been conquered")
    try:
        value = int(points)
        count = int(options) if options is not None else 1
    except ValueError as error:
        raise CommandError("a bid is a whole number of bid points: BID <power> <points> [OPTIONS <n>]") from error
    if value < 0 or count < 1 or (value == 0 and count != 1):
        raise CommandError("bid 0 or more points, for 1 or more options (0 means no bid)")
    if value > holder.bid_points:
        raise CommandError(f"{_name(code)} has only {format_number(holder.bid_points)} bid points")
    rows = [row for row in queries.orders_for(ctx.db, game.id, phase.code, code) if row.unit == "BID"]
    row = rows[0] if rows else OrderRow(game_id=game.id, phase=phase.code, power=code, unit="BID", line="")
    if not rows:
        ctx.db.add(row)
    row.line = f"BID {code} {value}" + (f" OPTIONS {count}" if count > 1 else "")
    row.order = f"{value}/{count}"
    row.checked = True
    ctx.db.flush()
    ctx.audit("dod3_bid", power=code)  # the amount stays out of the audit log until the reveal
    mine = []
    for own in sorted(_own_powers(ctx, game), key=lambda p: state.track.index(p) if p in state.track else 99):
        for item in queries.orders_for(ctx.db, game.id, phase.code, own):
            if item.unit == "BID":
                p, _, n = (item.order or "0/1").partition("/")
                mine.append(f"{own} {p}" + (f" for {n} options" if n != "1" else ""))
    ctx.add_note(f"Bid recorded: {_name(code)} " + (f"{value} bid points" if value else "no bid")
                 + (f" for {count} options" if count > 1 else "") + ". It stays secret until the deadline "
                 f"({_deadline_text(game, game.deadline)}).")
    ctx.add_note("Your bids this turn: " + "; ".join(mine) + ".")
    live = {p.power for p in state.powers if not p.conquered}
    if live <= set(_bids_of(ctx.db, game, phase)):
        outcome = process_turn(ctx.db, ctx.judge, game)
        ctx.add_note(f"Every power has bid (0 = no bid): the bids are revealed (next step {outcome.next_phase}).")


def move_down(ctx: Any, power: str, below: str | None) -> None:
    """``MOVEDOWN <power> BELOW <power>`` or ``STAY <power>`` (step A, after the reveal)."""
    game, code = _require_seat(ctx, power)
    phase = _open_phase(ctx.db, game)
    if _step_of(phase.code) != "AM":
        raise CommandError(f"move-downs are taken after the bids are revealed; this is {phase.code}")
    state = current_state(game, phase)
    assert state.initiative is not None
    order = move_down_order(state.initiative)
    if code not in order:
        raise CommandError(f"only the Democrats may move down ({', '.join(order)})")
    text = "STAY"
    if below is not None:
        try:
            anchor = normalise_power(below)
        except ValueError as error:
            raise _error(error) from error
        text = f"BELOW {anchor}"
        moves = {**_moves_of(ctx.db, game, phase), code: text}
        accepted, refused = _valid_moves(state, moves)
        if code not in [m.power for m in accepted]:
            reason = next((r for r in refused if r.startswith(_name(code))), f"{_name(code)} cannot move there")
            raise CommandError(reason)
    rows = [row for row in queries.orders_for(ctx.db, game.id, phase.code, code) if row.unit == "MOVE"]
    row = rows[0] if rows else OrderRow(game_id=game.id, phase=phase.code, power=code, unit="MOVE", line="")
    if not rows:
        ctx.db.add(row)
    row.line, row.order, row.checked = (f"MOVEDOWN {code} {text}" if below else f"STAY {code}"), text, True
    ctx.db.flush()
    ctx.audit("dod3_movedown", power=code, move=text)
    ctx.add_note(f"{_name(code)}: " + (f"moves down {text.lower().replace('below ', 'below ')}." if below
                                       else "stays where it is."))
    answered = _moves_of(ctx.db, game, phase)
    if all(p in answered for p in order):
        outcome = process_turn(ctx.db, ctx.judge, game)
        ctx.add_note(f"Every Democrat has answered: the track is settled (next step {outcome.next_phase}).")


def play_option(ctx: Any, power: str, option: str | None, minor: str | None = None) -> None:
    """``OPTION <power> <option> [MINOR <minor>]`` or, with option None, ``PASS <power>``."""
    game, code = _require_seat(ctx, power)
    phase = _open_phase(ctx.db, game)
    if not _step_of(phase.code).startswith("C"):
        raise CommandError(f"options are named in political affairs; this is {phase.code}")
    state = current_state(game, phase)
    political = state.political
    if political is None or political.current_power != code:
        current = political.current_power if political else None
        raise CommandError(f"it is {_name(current) if current else 'nobody'}'s turn to name an option, "
                           f"not {_name(code)}'s")
    _bump(ctx.db, game)
    if option is None:
        after = replace(state, political=political.pass_turn(code)).note(f"{code} passes")
        lines = [f"{_name(code)} passes."]
        ctx.add_note(f"{_name(code)} passes.")
    else:
        try:
            chosen = choose_option(state, code, option, minor_activated=minor)
        except ValueError as error:
            raise _error(error) from error
        assert chosen.political is not None
        play = chosen.political.plays[-1]
        if chosen.political.is_last_slot:
            after = roll_political_end(chosen, None)
        else:
            roller = _roller(game)
            die = roller.roll(f"end roll after {code} {play.option}")
            _save_roller(game, roller)
            after = roll_political_end(chosen, die)
        assert after.political is not None
        roll = after.political.rolls[-1]
        lines = [_play_line(play)] + _roll_lines(roll, None if roll.die is None else len(_roller(game).rolls) - 1)
        ctx.audit("dod3_option", power=code, option=play.option, die=roll.die)
        ctx.add_note(" ".join(lines))
    _after_slot(ctx.db, ctx.judge, game, phase, state, after, lines)


# ---------------------------------------------------------------------------------------------
# the GM's entries


_FIELDS = {"PE": "pe", "PEMOD": "pe_modifier", "MONEY": "money", "CREDIT": "credit_limit", "BIDPOINTS": "bid_points",
           "OBJECTIVES": "objectives", "USENTRY": "us_entry"}


def gm_entry(ctx: Any, keyword: str, args: list[str]) -> str:
    """The GM records what the missing charts decide. Returns the acknowledgement."""
    game = ctx.require_game()
    if not is_dod3(game):
        raise CommandError(f"game '{game.name}' is not a Days of Decision III game")
    keyword = keyword.upper()
    if keyword == "SET":
        return _gm_set(ctx, game, args)
    if keyword == "NEUTRAL":
        return _gm_neutral(ctx, game, args)
    if keyword == "TALLY":
        return _gm_tally(ctx, game)
    if game.status == "forming" and keyword in _FIELDS:
        return _gm_setup_number(ctx, game, keyword, args)
    phase = _open_phase(ctx.db, game)
    state = current_state(game, phase)
    try:
        if keyword in _FIELDS:
            if len(args) != 2:
                raise CommandError(f"usage: DOD3 {keyword} <power> <value>")
            power = normalise_power(args[0])
            field = _FIELDS[keyword]
            value = parse_number(args[1], what=keyword.lower())
            delta = value - getattr(state.power(power), field)
            after = gm_adjust(state, power, **{field: delta})
            message = f"{_name(power)}: {field.replace('_', ' ')} is now {format_number(value)}."
        elif keyword == "WAR":
            after, message = _gm_war(state, args)
        elif keyword == "CONQUERED":
            if len(args) != 2 or args[1].upper() not in ("YES", "NO"):
                raise CommandError("usage: DOD3 CONQUERED <power> YES|NO")
            power = normalise_power(args[0])
            after = gm_adjust(state, power, conquered=args[1].upper() == "YES")
            message = f"{_name(power)} is " + ("conquered." if args[1].upper() == "YES" else "not conquered.")
        elif keyword == "PEHIDDEN":
            if len(args) != 2 or args[1].upper() not in ("YES", "NO"):
                raise CommandError("usage: DOD3 PEHIDDEN <power> YES|NO")
            power = normalise_power(args[0])
            after = gm_adjust(state, power, pe_hidden=args[1].upper() == "YES")
            message = f"{_name(power)}'s PE marker is face " + ("down." if args[1].upper() == "YES" else "up.")
        elif keyword == "EFFECT":
            after, message = _gm_effect(state, args)
        elif keyword == "RECORD":
            text = " ".join(args).strip()
            if not text:
                raise CommandError("usage: DOD3 RECORD <text>")
            after = state.note(f"GM: {text}")
            message = "Recorded."
        elif keyword == "WEATHER":
            return _gm_weather(ctx, game, phase, state, " ".join(args).strip())
        else:
            raise CommandError(f"unknown DOD3 command {keyword}")
    except (ValueError, KeyError) as error:
        raise _error(error) from error
    phase.state_after = _dump(after)
    ctx.audit("dod3_gm", entry=keyword, args=args)
    return message


def _gm_setup_number(ctx: Any, game: Game, keyword: str, args: list[str]) -> str:
    if len(args) != 2 or keyword in ("PEMOD", "USENTRY"):
        raise CommandError(f"usage: DOD3 {keyword} <power> <value> (before the start: PE, MONEY, CREDIT, "
                           f"BIDPOINTS, OBJECTIVES)")
    try:
        power = normalise_power(args[0])
        value = parse_number(args[1])
    except ValueError as error:
        raise _error(error) from error
    cfg = _cfg(game)
    for item in cfg["setup"]["powers"]:
        if item["power"] == power:
            item[_FIELDS[keyword]] = to_json_number(value)
    _save_cfg(game, cfg)
    ctx.audit("dod3_setup", entry=keyword, args=args)
    return f"Set-up: {_name(power)} {_FIELDS[keyword].replace('_', ' ')} {format_number(value)}."


def _gm_war(state: GameState, args: list[str]) -> tuple[GameState, str]:
    """``DOD3 WAR <power> <power>...`` (at war, both ways) or ``DOD3 WAR <power> NONE``."""
    if len(args) < 2:
        raise CommandError("usage: DOD3 WAR <power> <enemy> [<enemy>...] | DOD3 WAR <power> PEACE <enemy>")
    power = normalise_power(args[0])
    if args[1].upper() == "PEACE":
        enemies = normalise_powers(args[2:])
        after = state
        after = gm_adjust(after, power, at_war_with=[p for p in after.power(power).at_war_with if p not in enemies])
        for enemy in enemies:
            after = gm_adjust(after, enemy, at_war_with=[p for p in after.power(enemy).at_war_with if p != power])
        return after, f"{_name(power)} at peace with {', '.join(_name(e) for e in enemies)}."
    enemies = normalise_powers(args[1:])
    if power in enemies:
        raise CommandError("a power cannot be at war with itself")
    after = gm_adjust(state, power, at_war_with=list(dict.fromkeys(state.power(power).at_war_with + enemies)))
    for enemy in enemies:
        current = after.power(enemy).at_war_with
        if power not in current:
            after = gm_adjust(after, enemy, at_war_with=list(current) + [power])
    return after, f"{_name(power)} at war with {', '.join(_name(e) for e in enemies)}."


def _gm_effect(state: GameState, args: list[str]) -> tuple[GameState, str]:
    """``DOD3 EFFECT [<power>] <text>``: the effects of the latest option (of that power) this turn."""
    if state.political is None or not state.political.plays:
        raise CommandError("no option has been played this turn")
    plays = list(state.political.plays)
    index = len(plays) - 1
    text = " ".join(args)
    if args:
        try:
            power = normalise_power(args[0])
        except ValueError:
            power = None
        if power is not None:
            matches = [i for i, play in enumerate(plays) if play.power == power]
            if not matches:
                raise CommandError(f"{_name(power)} has played no option this turn")
            index = matches[-1]
            text = " ".join(args[1:])
    if not text.strip():
        raise CommandError("usage: DOD3 EFFECT [<power>] <text>")
    play = plays[index]
    plays[index] = replace(play, effects=(play.effects + " " if play.effects else "") + text.strip())
    after = replace(state, political=replace(state.political, plays=tuple(plays)))
    return after.note(f"GM: {play.power} {play.option}: {text.strip()}"), f"Effects of {play.power} {play.option} recorded."


def _gm_weather(ctx: Any, game: Game, phase: Phase, state: GameState, text: str) -> str:
    if _step_of(phase.code) != "B":
        raise CommandError(f"the weather is entered in step B; this is {phase.code}")
    if not text:
        raise CommandError("usage: DOD3 WEATHER <result>")
    _bump(ctx.db, game)
    after = record_weather(state, result=text)
    _finish(ctx.db, ctx.judge, phase, after, {"weather": text}, f"Weather: {text}")
    events: list[str] = []
    opened = _continue(ctx.db, ctx.judge, game, advance(after), events)
    _send_notice(ctx.db, ctx.judge, game, f"weather {turn_label(state.turn)}", [("Weather", [text] + events)], opened)
    ctx.audit("dod3_gm", entry="WEATHER", args=[text])
    return f"Weather recorded: {text}."


_ON = {"ON": True, "YES": True, "TRUE": True, "OFF": False, "NO": False, "FALSE": False}


def _gm_set(ctx: Any, game: Game, args: list[str]) -> str:
    """``DOD3 SET COST <option> <n>``, ``NEEDED <power> <n>``, ``RULE86 ON|OFF``, ``BITTEREND ON|OFF``,
    ``WEATHER <months> <r1,...,r10>``, ``HOURS <step> <n>``, ``MODIFIERS <m1,...,m8>``."""
    if not args:
        raise CommandError("usage: DOD3 SET <item> <value>")
    item, rest = args[0].upper(), args[1:]
    cfg = _cfg(game)
    setup = dict(cfg["setup"])
    try:
        if item == "COST" and len(rest) >= 2:
            option = option_family(" ".join(rest[:-1]))
            setup["option_costs"] = {**setup.get("option_costs", {}), option: to_json_number(parse_number(rest[-1]))}
            message = f"Cost of {option}: {rest[-1]}."
        elif item == "NEEDED" and len(rest) == 2:
            power = normalise_power(rest[0])
            for entry in setup["powers"]:
                if entry["power"] == power:
                    entry["objectives_needed"] = to_json_number(parse_number(rest[1]))
            message = f"{_name(power)} needs {rest[1]} objectives."
        elif item in ("RULE86", "8.6", "BITTEREND", "4.1") and len(rest) == 1 and rest[0].upper() in _ON:
            key = "rule_8_6" if item in ("RULE86", "8.6") else "bitter_end"
            setup["options"] = {**setup.get("options", {}), key: _ON[rest[0].upper()]}
            message = f"Option {'8.6' if key == 'rule_8_6' else '4.1 Bitter end'}: {'on' if _ON[rest[0].upper()] else 'off'}."
        elif item == "WEATHER" and len(rest) >= 2:
            results = [r.strip() for r in " ".join(rest[1:]).split(",")]
            setup["weather_chart"] = {**setup.get("weather_chart", {}), rest[0].title(): results}
            message = f"Weather chart {rest[0].title()}: {', '.join(results)}."
        elif item == "MODIFIERS" and len(rest) == 1:
            setup["bid_modifiers"] = [to_json_number(parse_number(m)) for m in rest[0].split(",")]
            message = f"Bid modifiers: {rest[0]}."
        elif item == "HOURS" and len(rest) == 2 and rest[0].lower() in DEFAULT_HOURS:
            cfg["hours"] = {**cfg.get("hours", {}), rest[0].lower(): float(rest[1])}
            message = f"Deadline for {rest[0].lower()}: {rest[1]} hours."
        else:
            raise CommandError("DOD3 SET COST <option> <n> | NEEDED <power> <n> | RULE86 ON|OFF | BITTEREND ON|OFF"
                               " | WEATHER <months> <10 results, comma-separated> | MODIFIERS <8 numbers> | "
                               "HOURS <bids|movedown|weather|option|gm> <n>")
        GameSetup.from_dict(setup)  # refuse what would not load
    except ValueError as error:
        raise _error(error) from error
    cfg["setup"] = setup
    _save_cfg(game, cfg)
    ctx.audit("dod3_set", args=args)
    return message


def _gm_neutral(ctx: Any, game: Game, args: list[str]) -> str:
    """``DOD3 NEUTRAL <name> <power> <distance> [<power> <distance>...]`` or ``DOD3 NEUTRAL <name> NONE``."""
    if len(args) < 2:
        raise CommandError("usage: DOD3 NEUTRAL <objective> <power> <distance> [...] | DOD3 NEUTRAL <objective> NONE")
    name = args[0].replace("_", " ")
    cfg = _cfg(game)
    neutral = [item for item in cfg.get("neutral", []) if item["name"].lower() != name.lower()]
    if args[1].upper() == "NONE":
        message = f"{name} no longer counts as a neutral objective."
    else:
        pairs = args[1:]
        if len(pairs) % 2:
            raise CommandError("give a distance for each power")
        try:
            distances = {normalise_power(pairs[i]): int(pairs[i + 1]) for i in range(0, len(pairs), 2)}
        except ValueError as error:
            raise _error(error) from error
        neutral.append({"name": name, "distances": distances})
        message = f"Neutral objective {name}: " + ", ".join(f"{p} {d}" for p, d in distances.items()) + "."
    cfg["neutral"] = neutral
    _save_cfg(game, cfg)
    ctx.audit("dod3_neutral", args=args)
    return message


def _tally_view(game: Game, state: GameState) -> dict[str, Any]:
    result = victory_tally(
        {p.power: p.objectives for p in state.powers},
        needed=state.setup.objectives_needed(),
        neutral=_cfg(game).get("neutral", []),
        players={player: powers for player, powers in state.setup.players},
    )
    return result.to_dict()


def tally(db: Session, game: Game) -> dict[str, Any]:
    phase = _open_phase(db, game)
    return _tally_view(game, current_state(game, phase))


def _gm_tally(ctx: Any, game: Game) -> str:
    try:
        view = tally(ctx.db, game)
    except ValueError as error:
        raise _error(error) from error
    cfg = _cfg(game)
    cfg["tally"] = True
    _save_cfg(game, cfg)
    ctx.add_section("\n".join(tally_lines(view)))
    return "Victory tally computed; it will also appear in this turn's report."


# ---------------------------------------------------------------------------------------------
# report views (the templates only lay them out)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _initiative_lines(state: GameState) -> list[str]:
    result = state.initiative
    if result is None:
        return []
    lines = []
    for entry in result.entries:
        if entry.bidder:
            if entry.options > 1:
                how = (f"bid {entry.points} for {entry.options} options: ({entry.points}"
                       f"{'+' if entry.modifier >= 0 else ''}{format_number(entry.modifier)})/{entry.options}"
                       f" = {format_number(entry.final_bid)}")
            else:
                how = (f"bid {entry.points} {'+' if entry.modifier >= 0 else ''}{format_number(entry.modifier)}"
                       f" = {format_number(entry.final_bid)}")
        else:
            how = f"no bid ({format_number(entry.final_bid)})"
        lines.append(f"{_ordinal(entry.position):>4} {_name(entry.power):<17} {how}")
        if result.last_card == entry.position:
            lines.append("     ---------------- last card ----------------")
    for move in result.move_downs:
        lines.append(f"     {_name(move.power)} moved down below {_name(move.below or '?')}")
    if result.last_card is None:
        lines.append("     Nobody bid: there are no options this turn.")
    return lines


def _play_line(play: Any) -> str:
    text = f"{_name(play.power)} plays {play.option} (cost {format_number(play.cost)})"
    if play.minor_activated:
        text += f", activating {play.minor_activated}"
    return text + "."


def _roll_lines(roll: Any, counter: int | None = None) -> list[str]:
    if roll.passed:
        return []
    if roll.automatic:
        return ["The last bidder's last option: political affairs end (no roll)."]
    parts = f"d10 {roll.die} - {roll.subtracted}"
    if roll.at_war_bonus:
        parts += f" + {roll.at_war_bonus}"
    if roll.all_at_war_bonus:
        parts += f" + {roll.all_at_war_bonus}"
    return [f"End roll{f' #{counter}' if counter is not None else ''}: {parts} = {roll.modified}: "
            + ("political affairs end." if roll.ends else "they continue.")]


def _political_lines(state: GameState) -> list[str]:
    political = state.political
    if political is None:
        return []
    lines: list[str] = []
    plays = list(political.plays)
    for roll in political.rolls:
        if roll.passed:
            lines.append(f"{_name(roll.passed)} passes.")
            continue
        play = plays.pop(0)
        lines.append(_play_line(play))
        if play.effects:
            lines.append(f"  Effects: {play.effects}")
        detail = []
        if roll.previous_options:
            detail.append(f"{roll.previous_options} option(s) before")
        if roll.at_war_bonus:
            detail.append(f"{roll.powers_at_war} powers at war")
        if roll.all_at_war_bonus:
            detail.append("every power at war")
        lines += ["  " + line for line in _roll_lines(roll)]
        if detail and not roll.automatic:
            lines.append("    (" + "; ".join(detail) + ")")
    for play in plays:
        lines.append(_play_line(play) + " [awaiting its end roll]")
    if not lines:
        lines.append("No option was played.")
    return lines


def tally_lines(view: Mapping[str, Any]) -> list[str]:
    lines = ["VICTORY TALLY"]
    for credited, shares in (view.get("neutral_credits") or {}).items():
        lines.append(f"  {credited}: " + ", ".join(f"{p} {format_number(parse_number(v))}" for p, v in shares.items()))
    for name, row in view["ideologies"].items():
        lines.append(f"  {name:<11} holds {format_number(parse_number(row['objectives'])):>5}, needs "
                     f"{format_number(parse_number(row['needed'])):>3}: net {format_number(parse_number(row['net']))}"
                     + ("  WINS" if row["winner"] else ""))
    for row in view["players"]:
        lines.append(f"  {row['player']:<20} {format_number(parse_number(row['objectives']))} "
                     f"({row['objectives_rounded']}) of {format_number(parse_number(row['needed']))}: net "
                     f"{format_number(parse_number(row['net']))}" + ("  WINS" if row["winner"] else ""))
    winners = view["winning_players"]
    lines.append("  Winning ideology: " + " and ".join(view["winning_ideologies"]) + "; winning player: "
                 + (" and ".join(winners) if winners else "none"))
    return lines


def report_view(game: Game, state: GameState, dice: Mapping[str, Any] | None, *, tally: Any = None,
                opened: Mapping[str, Any] | None = None, events: list[str] | None = None,
                gm: bool = False) -> dict[str, Any]:
    """What the turn report shows, as plain data (public view unless gm)."""
    hidden = set() if gm else {p.power for p in state.powers if p.pe_hidden}
    rows = []
    for p in state.powers:
        secret = p.power in hidden
        rows.append({
            "power": p.power, "name": _name(p.power) + (" (conq.)" if p.conquered else ""),
            "pe": "?" if secret else format_number(p.pe),
            "mod_pe": "?" if secret else format_number(p.modified_pe),
            "money": format_number(p.money), "credit": format_number(p.credit_limit),
            "bid_points": "?" if secret else format_number(p.bid_points),
            "us_entry": format_number(p.us_entry), "ideology": IDEOLOGY_OF[p.power],
            "at_war_with": list(p.at_war_with),
        })
    bonus = []
    for change in state.bonus:
        if change.power in hidden:
            bonus.append(f"{_name(change.power)}: ? (PE face down)")
        elif change.money_lost:
            bonus.append(f"{_name(change.power)}: loses {change.money_lost} money")
        else:
            bonus.append(f"{_name(change.power)}: +{change.bid_points_gained} bid points")
    us_entry = [f"{_name(p.power)}: {format_number(p.us_entry)}"
                + (f" (rounds to {round_rule(p.us_entry)})" if p.us_entry.denominator != 1 else "")
                for p in state.powers if p.us_entry]
    wars = [f"{_name(p.power)}: " + ", ".join(p.at_war_with) for p in state.powers if p.at_war_with]
    record = [entry.text[4:] for entry in state.log if entry.turn == state.turn and (gm or not entry.secret)
              and entry.text.startswith("GM: ")]
    rolls = []
    for roll in (dice or {}).get("rolls", []):
        rolls.append({"counter": roll["counter"], "purpose": roll["purpose"], "result": roll["result"],
                      "message": f"{roll['game']}/{roll['turn']}/{roll['purpose']}/{roll['counter']}"})
    opened = dict(opened or {})
    return {
        "game": game.name,
        "title": f"{turn_label(state.turn)}",
        "initiative": _initiative_lines(state),
        "weather": state.weather,
        "political": _political_lines(state),
        "bonus": bonus,
        "powers": rows,
        "us_entry": us_entry,
        "wars": wars,
        "record": record,
        "events": list(events or []),
        "tally": None if tally is None else (tally_lines(tally) if "error" not in tally
                                              else ["VICTORY TALLY", f"  not possible: {tally['error']}"]),
        "commitment": (dice or {}).get("commitment") or state.dice_commitment,
        "seed": (dice or {}).get("seed") if not gm else None,
        "rolls": rolls,
        "ended": list(state.ended) or opened.get("ended") or [],
        "next": opened.get("text", ""),
        "next_commitment": opened.get("commitment"),
        "steps": {step.value: title for step, title in PHASE_TITLES.items()},
    }


def gm_status(ctx: Any) -> str:
    """The GM's view of the running state (face-down PE shown; no bids, no seed)."""
    game = ctx.require_game()
    phase = _open_phase(ctx.db, game)
    state = current_state(game, phase)
    view = report_view(game, state, {"commitment": state.dice_commitment,
                                     "rolls": _cfg(game).get("dice", {}).get("rolls", [])}, gm=True)
    view["next"] = f"Open step {phase.code}, deadline {_deadline_text(game, game.deadline)}."
    if _step_of(phase.code) == "A":
        count = len(_bids_of(ctx.db, game, phase))
        view["events"] = [f"{count} power(s) have sent a bid (amounts stay secret until the deadline)."]
    return ctx.judge.templates.render("mail/dod3/report.txt.j2", v=view)


def process_now(ctx: Any, expected: str | None = None) -> str:
    from app.services.turns import ProcessError

    game = ctx.require_game()
    _open_phase(ctx.db, game)
    try:
        outcome = process_turn(ctx.db, ctx.judge, game, expected_phase=expected)
    except ProcessError as error:
        raise CommandError(str(error)) from error
    ctx.audit("process", phase=outcome.phase)
    return f"Processed {outcome.phase}; " + (f"next step {outcome.next_phase}." if outcome.next_phase
                                               else "the game is over.")


__all__ += ["add_player", "gm_status", "is_dod3", "process_now", "setup_of", "tally_lines", "turn_code"]
