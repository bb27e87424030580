"""Setting a DoD III game up: creating it, seating the players (one seat per power, rule 3.1
groupings), the GM's set-up data (DOD3 SET, DOD3 NEUTRAL), and starting Jan/Feb 1936."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from app.db import queries
from app.db.models import Game, Player
from app.db.statuses import GameStatus, SeatStatus
from app.dod3.exact import to_json_number
from app.dod3.political import option_family
from app.dod3.state import GameSetup, new_game
from app.dod3.turns import turn_label
from app.dod3.variant import LETTERS, VARIANT
from app.services.errors import DomainError
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.game_names import check_game_name
from app.services.kernel.limits import take_create_quota
from app.services.kernel.security import hash_password, new_token
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.address_confirmation import ask_address_confirmation
from app.services.mailout.addresses import check_address, check_player_address

from .mailing import Line, mail_all, notice
from .steps import run_on
from .store import (
    DEFAULT_HOURS,
    ROLE,
    cfg_of,
    ensure_dice,
    gm_game_for,
    is_dod3,
    name,
    power_code,
    save_cfg,
    seat_of,
    setup_of,
)

__all__ = ["GameCreated", "NeutralChanged", "SeatOutcome", "SetupChanged", "SetupItem", "Started", "create_game", "new_dod3_game",
           "seat_holder", "seat_player", "set_neutral", "set_setup", "start_game"]


def _refusal(code: str, error: Exception) -> DomainError:
    return DomainError(code, str(error).strip("'\""))


@dataclass(frozen=True)
class GameCreated:
    game: str
    players: tuple[str, ...]


def create_game(uow: UnitOfWork, judge: Judge, name_: str, master_email: str, master_password: str,
                setup: Mapping[str, Any], seats: Mapping[str, tuple[str, str]], *,
                hours: Mapping[str, float] | None = None, neutral: Sequence[Mapping[str, Any]] | None = None,
                layout: str = "zine") -> Game:
    """A forming DoD III game. ``setup``: ``GameSetup.from_dict`` input without ``game_id``
    (players or a rule 3.1 ``preset``, per-power numbers, option costs, weather chart,
    options ``bitter_end`` / ``rule_8_6``). ``seats``: player name -> (address, password)."""
    db = uow.session
    game_name = check_game_name(name_)
    if queries.game_by_name(db, game_name) is not None:
        raise DomainError("game_exists", f"a game called '{game_name}' already exists")
    try:
        parsed = GameSetup.from_dict({**setup, "game_id": game_name})
    except (ValueError, KeyError) as error:
        raise _refusal("bad_setup", error) from error
    players = dict(parsed.players)
    unknown = set(seats) - set(players)
    if unknown:
        raise DomainError("unknown_player", f"no such player in the set-up: {', '.join(sorted(unknown))}")
    unknown_hours = set(hours or {}) - set(DEFAULT_HOURS)
    if unknown_hours:
        raise DomainError("unknown_step", f"unknown step for the deadlines: {', '.join(sorted(unknown_hours))}")
    cfg = {"setup": parsed.to_dict(), "hours": {**DEFAULT_HOURS, **dict(hours or {})},
           "neutral": [dict(item) for item in (neutral or [])], "tally": False}
    game = Game(name=game_name, variant=VARIANT, status=GameStatus.FORMING, master_email=check_address(master_email),
                master_password_hash=hash_password(master_password), press="white",
                settings={"layout": layout, "timezone": "UTC", "early": False, "reminder_hours": 0, "dod3": cfg})
    db.add(game)
    db.flush()
    for player, (email, password) in seats.items():
        seat_holder(uow, game, player, email, password)
    audit(uow, master_email.lower(), game, "dod3_create",
          players={p: list(powers) for p, powers in players.items()})
    return game


def new_dod3_game(judge: Judge, uow: UnitOfWork, actor: Actor, game_name: str, password: str, *,
                  preset: str | None = None, soviet_with: str | None = None) -> tuple[Game, GameCreated]:
    """``DOD3 CREATE``: a forming game with the actor as its GM (players from a rule 3.1 preset)."""
    setup: dict[str, Any] = {}
    if preset is not None:
        setup["preset"] = preset
    if soviet_with is not None:
        setup["soviet_with"] = soviet_with
    check_player_address(actor.address, judge.settings.judge_address)
    take_create_quota(judge, uow, actor.address)
    game = create_game(uow, judge, game_name, actor.address, password, setup, {})
    return game, GameCreated(game.name, tuple(player for player, _ in setup_of(game).players))


def _powers_of(game: Game, player: str) -> tuple[str, ...]:
    setup = setup_of(game)
    powers = dict(setup.players).get(player)
    if powers is None:
        raise DomainError("unknown_player", f"no player '{player}' in the set-up "
                                            f"(players: {', '.join(p for p, _ in setup.players)})")
    return tuple(powers)


def seat_holder(uow: UnitOfWork, game: Game, player: str, email: str, password: str, *,
                password_hash: str | None = None) -> list[Player]:
    """One seat per power of ``player`` (same address and password, or its hash, for each)."""
    db = uow.session
    powers = _powers_of(game, player)
    email = check_address(email)
    password_hash = password_hash or hash_password(password)
    seats = []
    for power in powers:
        seat = queries.seat_for_power(db, game.id, power)
        if seat is None:
            seat = Player(game_id=game.id, power=power, role=ROLE, email=email.lower(), password_hash=password_hash,
                          status=SeatStatus.ACTIVE, reply_token=new_token())
            db.add(seat)
            game.players.append(seat)
        else:
            seat.email, seat.password_hash, seat.status = email.lower(), password_hash, SeatStatus.ACTIVE
        seats.append(seat)
    db.flush()
    return seats


@dataclass(frozen=True)
class SeatOutcome:
    player: str
    powers: tuple[str, ...]
    pending: bool = False  # the address was mailed a confirmation: seated once it confirms (issue 29)


def seat_player(judge: Judge, uow: UnitOfWork, actor: Actor, player: str, email: str, password: str) -> SeatOutcome:
    """``DOD3 SEAT <player> <address> <password>``: every power of the player, one password."""
    game = gm_game_for(uow, actor)
    if "@" not in email:
        raise DomainError("bad_address", f"'{email}' is not a mail address")
    email = check_player_address(email, judge.settings.judge_address)
    powers = _powers_of(game, player)
    held = [seat for power in powers if (seat := queries.seat_for_power(uow.session, game.id, power)) is not None]
    if not actor.owns(email) and not (held and all(seat.email.lower() == email for seat in held)):
        ask_address_confirmation(judge, uow, asked_by=actor.address, address=email, what="dod3_seat", game=game,
                                 secret=hash_password(password), detail=player[:40])
        audit(uow, actor, game, "dod3_seat_asked", player=player)
        return SeatOutcome(player, powers, pending=True)
    seats = seat_holder(uow, game, player, email, password)
    audit(uow, actor, game, "dod3_seat", player=player)
    return SeatOutcome(player, tuple(s.power or "?" for s in seats))


@dataclass(frozen=True)
class Started:
    opened: str  # what the game now waits for


def start_game(judge: Judge, uow: UnitOfWork, actor: Actor) -> Started:
    """Jan/Feb 1936: no bidding; step B, then political affairs in the initial track order."""
    game = gm_game_for(uow, actor)
    if not is_dod3(game) or game.status != GameStatus.FORMING:
        raise DomainError("not_forming", f"game '{game.name}' is not a forming Days of Decision III game")
    setup = setup_of(game)
    missing = [power for _, powers in setup.players for power in powers if seat_of(uow, game, power) is None]
    if missing:
        raise DomainError("seats_missing", f"no player yet for {', '.join(missing)}", missing=", ".join(missing))
    game.status = GameStatus.ACTIVE
    state = ensure_dice(game, new_game(setup))
    events: list[Line] = []
    opened = run_on(uow, judge, game, state, events)
    roster = []
    for player, powers in setup.players:
        seat = seat_of(uow, game, powers[0])
        roster.append(f"  {player}: {', '.join(name(p) for p in powers)} ({seat.email if seat else '?'})")
    sections: list[tuple[str, Sequence[Line]]] = [
        ("The players", roster),
        ("The initial track", [", ".join(name(p) for p in setup.initial_track)]),
        ("Dice", ["This turn's dice are committed: SHA256 of the seed's bytes =", f"  {state.dice_commitment}",
                  "The seed is revealed (as hex: decode it to bytes) with the turn report so that every "
                  "roll can be checked."]),
    ] + ([("So far", events)] if events else [])
    title = f"The game begins: {turn_label(0)}"

    def render(reveal: frozenset[str]) -> tuple[str, None]:
        signing = [("Signing on", _signing_on(game.name, setup, reveal))]
        return judge.templates.render("mail/dod3/notice.txt.j2",
                                      n=notice(game, title, signing + sections, opened, reveal)), None

    mail_all(uow, judge, game, f"DoD3 {game.name}: the game begins", render, kind="start")
    audit(uow, actor, game, "start")
    return Started(opened.text)


def _signing_on(game_name: str, setup: GameSetup, reveal: frozenset[str]) -> list[Line]:
    """How to sign on (issue 22.17): a player is told his own powers' letters and his reply
    address; the GM's copy (every power) and observers' get the letters of all."""
    mine = [(player, powers) for player, powers in setup.players if reveal and set(powers) <= reveal]
    if len(mine) == 1:
        player, powers = mine[0]
        codes = [f"{LETTERS[p]}{game_name}" for p in powers]
        more = f" (or {' or '.join(codes[1:])}: the letter of any of your powers)" if len(codes) > 1 else ""
        return [f"You are {player}: {', '.join(name(p) for p in powers)}.",
                f"Sign on with SIGNON {codes[0]} <your password>{more},",
                "or simply reply to this mail: its reply address signs you on without a password "
                "(keep it private).",
                "Once signed on you act for every one of your powers."]
    letters = ", ".join(f"{LETTERS[p]} {name(p)}" for _, powers in setup.players for p in powers)
    return [f"Each player signs on with SIGNON <letter>{game_name} <password>, the letter of any power he "
            f"plays: {letters}; or by replying to his own copy of this mail."]


class SetupItem(str, Enum):
    COST = "COST"
    NEEDED = "NEEDED"
    RULE86 = "RULE86"
    BITTEREND = "BITTEREND"
    WEATHER = "WEATHER"
    MODIFIERS = "MODIFIERS"
    HOURS = "HOURS"


@dataclass(frozen=True)
class SetupChanged:
    item: SetupItem
    key: str  # the option family, the power, the months or the step
    values: tuple[str, ...]


def set_setup(judge: Judge, uow: UnitOfWork, actor: Actor, item: SetupItem, key: str,
              values: Sequence[Fraction | str | bool]) -> SetupChanged:
    """``DOD3 SET ...``: change the set-up data; refused if the set-up would not load."""
    game = gm_game_for(uow, actor)
    cfg = cfg_of(game)
    setup = dict(cfg["setup"])
    shown = tuple(str(v) for v in values)
    try:
        if item is SetupItem.COST:
            key = option_family(key)
            setup["option_costs"] = {**setup.get("option_costs", {}), key: to_json_number(Fraction(values[0]))}
        elif item is SetupItem.NEEDED:
            key = power_code(key)
            setup["powers"] = [{**entry, "objectives_needed": to_json_number(Fraction(values[0]))}
                               if entry["power"] == key else entry for entry in setup["powers"]]
        elif item in (SetupItem.RULE86, SetupItem.BITTEREND):
            flag = "rule_8_6" if item is SetupItem.RULE86 else "bitter_end"
            setup["options"] = {**setup.get("options", {}), flag: bool(values[0])}
        elif item is SetupItem.WEATHER:
            key = key.title()
            setup["weather_chart"] = {**setup.get("weather_chart", {}), key: [str(v) for v in values]}
        elif item is SetupItem.MODIFIERS:
            setup["bid_modifiers"] = [to_json_number(Fraction(v)) for v in values]
        elif item is SetupItem.HOURS:
            key = key.lower()
            if key not in DEFAULT_HOURS:
                raise DomainError("unknown_step", f"unknown step for the deadlines: {key}")
            cfg["hours"] = {**cfg.get("hours", {}), key: float(Fraction(values[0]))}
        GameSetup.from_dict(setup)  # refuse what would not load
    except (ValueError, KeyError, TypeError) as error:
        raise _refusal("bad_setup", error) from error
    cfg["setup"] = setup
    save_cfg(game, cfg)
    audit(uow, actor, game, "dod3_set", item=item.value, key=key, values=list(shown))
    return SetupChanged(item, key, shown)


@dataclass(frozen=True)
class NeutralChanged:
    name: str
    distances: tuple[tuple[str, int], ...]  # empty: no longer a neutral objective


def set_neutral(judge: Judge, uow: UnitOfWork, actor: Actor, objective: str,
                distances: Sequence[tuple[str, int]]) -> NeutralChanged:
    """``DOD3 NEUTRAL <name> <power> <distance>...`` or ``DOD3 NEUTRAL <name> NONE`` (no distances)."""
    game = gm_game_for(uow, actor)
    cfg = cfg_of(game)
    neutral = [item for item in cfg.get("neutral", []) if item["name"].lower() != objective.lower()]
    pairs = tuple((power_code(power), distance) for power, distance in distances)
    if pairs:
        neutral.append({"name": objective, "distances": dict(pairs)})
    cfg["neutral"] = neutral
    save_cfg(game, cfg)
    audit(uow, actor, game, "dod3_neutral", name=objective, distances=dict(pairs))
    return NeutralChanged(objective, pairs)

