"""Read models of the GM dashboard: one game in full (GM only), one phase with its stored outcomes,
and a game as the public may see it (the games of a GM at a glance are ``overview``'s, re-exported
here).

Use cases in the common shape ``verb_noun(judge, db, actor, ...) -> frozen value``; they read
only.  What the public may see is decided here, not in the pages: published results, broadcast or
published press (grey press without its sender), positions with secret builds in their public form.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, InboundMessage, OutboundMessage, Phase, Player, Press
from app.db.statuses import GameStatus, PhaseStatus, SeatRole
from app.services.errors import DomainError
from app.services.kernel.access import require_gm
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.display import readable_mail, shown_text
from app.services.mailout.redact import mask_passwords
from app.services.orders.need import public_units
from app.services.readmodels.forming import FormingView, show_forming
from app.services.readmodels.overview import Attention, GameSummary, game_summary, list_games, order_statuses
from app.services.ruleset import engine as game_engine
from app.services.ruleset.kinds import ruleset_for
from app.services.ruleset.phases import PhaseName
from app.services.ruleset.powers import PowerBook
from app.services.ruleset.stored import StoredState, stored_outcome, stored_result, stored_state

__all__ = [
    "Attention",
    "CentreHistory",
    "GameDetail",
    "GameSummary",
    "MailEntry",
    "OrderEntry",
    "OrderOutcome",
    "PhaseEntry",
    "PhaseOutcomes",
    "PowerView",
    "PressEntry",
    "PublicGame",
    "RawMail",
    "gm_game_named",
    "list_games",
    "show_game",
    "show_mail",
    "show_phase",
    "show_public_game",
]

MAIL_LOG_LIMIT = 200


@dataclass(frozen=True)
class OrderEntry:
    unit: str
    line: str
    order: str | None
    submitted_at: datetime


@dataclass(frozen=True)
class PowerView:
    power: str
    name: str
    player: str | None
    status: str
    units: tuple[str, ...]
    centres: tuple[str, ...]
    orders: tuple[OrderEntry, ...]
    missing: tuple[str, ...]
    needs_orders: bool


@dataclass(frozen=True)
class MailEntry:
    direction: str  # in | out
    id: int
    at: datetime
    party: str  # the sender of mail in, the recipients of mail out
    subject: str
    status: str
    kind: str


@dataclass(frozen=True)
class PressEntry:
    id: int
    at: datetime
    phase: str | None
    sender: str
    to: str
    body: str
    public: bool


@dataclass(frozen=True)
class PhaseEntry:
    code: str
    status: str
    processed_at: datetime | None
    results_text: str | None


@dataclass(frozen=True)
class CentreHistory:
    """Centre counts at the end of each year (``labels``), one series per power."""

    labels: tuple[str, ...]
    series: tuple[tuple[str, tuple[int, ...]], ...]


@dataclass(frozen=True)
class GameDetail:
    summary: GameSummary
    press_rule: str
    powers: tuple[PowerView, ...]
    mail: tuple[MailEntry, ...]
    press: tuple[PressEntry, ...]
    phases: tuple[PhaseEntry, ...]
    centres: CentreHistory
    forming: FormingView | None = None  # a forming game: who has joined, with their preferences (issue 21.1)


@dataclass(frozen=True)
class OrderOutcome:
    power: str
    order: str
    result: str
    reason: str | None
    explanation: str | None
    default: bool
    outcome: dict[str, Any] | None  # the engine's structured outcome in its stored shape (the API's), when stored

    @property
    def decided(self) -> game_engine.Outcome | None:
        """``outcome`` as the engine's typed outcome (what the review reads)."""
        return stored_outcome(self.outcome)


@dataclass(frozen=True)
class PhaseOutcomes:
    game: str
    code: str
    status: str
    processed_at: datetime | None
    orders: tuple[OrderOutcome, ...]
    units_after: dict[str, list[str]]
    centres_after: dict[str, list[str]]
    results_text: str | None


@dataclass(frozen=True)
class RawMail:
    direction: str
    id: int
    text: str


@dataclass(frozen=True)
class PublicGame:
    name: str
    variant: str
    status: str
    phase: str | None
    deadline: datetime | None
    units: tuple[tuple[str, tuple[str, ...]], ...]
    centres: tuple[tuple[str, int], ...]
    phases: tuple[PhaseEntry, ...]
    press: tuple[PressEntry, ...]
    history: CentreHistory


# -- access ----------------------------------------------------------------------


def _game_for(db: Session, actor: Actor, name: str) -> Game:
    game = queries.game_by_name(db, name)
    if game is None:
        raise DomainError("no_game", f"There is no game '{name}'.")
    require_gm(actor, game)
    return game


def gm_game_named(uow: UnitOfWork, actor: Actor, name: str) -> Game:
    """The game ``name`` if the actor is its GM (or the keeper); DomainError otherwise."""
    db = uow.session
    return _game_for(db, actor, name)


def _book(judge: Judge, game: Game) -> PowerBook:
    return PowerBook(judge.variant_data(game.variant))


# -- the overview ----------------------------------------------------------------


def _position(game: Game, data: dict[str, Any] | None) -> StoredState | None:
    """A stored position of a map game (None: none yet, or a game without a drawn position)."""
    return stored_state(data) if data and ruleset_for(game.variant).has_map else None


def _open_state(uow: UnitOfWork, game: Game) -> tuple[Phase | None, StoredState | None]:
    """The open phase and its position, else the position the last processed phase left."""
    db = uow.session
    phase = queries.open_phase(db, game.id)
    if phase is not None:
        return phase, _position(game, phase.state_before)
    done = queries.phases_of(db, game.id)
    return None, _position(game, done[-1].state_after) if done else None


# -- one game (GM) ---------------------------------------------------------------


def _power_views(judge: Judge, uow: UnitOfWork, game: Game, phase: Phase | None,
                 state: StoredState | None) -> list[PowerView]:
    db = uow.session
    book = _book(judge, game)
    seats: dict[str, Player] = {s.power: s for s in game.players if s.power and s.role == SeatRole.PLAYER}
    statuses = order_statuses(uow, game, phase)
    rows = queries.orders_for(db, game.id, phase.code) if phase is not None else []
    units = state.units if state is not None else {}
    centres = state.centres if state is not None else {}
    powers = [p for p in book.ids if p in seats or p in units or p in centres] or list(seats)
    if game.status == GameStatus.FORMING:  # every power, with its player once the GM has assigned it
        powers = list(book.ids)
    views = []
    for power in powers:
        seat = seats.get(power)
        status = statuses.get(power)
        views.append(PowerView(
            power=power, name=book.name(power), player=seat.email if seat else None,
            status=seat.status if seat else "unplayed",
            units=tuple(units.get(power, [])), centres=tuple(centres.get(power, [])),
            orders=tuple(OrderEntry(r.unit, r.line, r.order, r.created_at) for r in rows if r.power == power),
            missing=tuple(status.missing) if status else (),
            needs_orders=bool(status and status.needs_orders),
        ))
    return views


def _mail_log(db: Session, game: Game) -> list[MailEntry]:
    inbound = db.scalars(select(InboundMessage).where(InboundMessage.game_id == game.id)
                         .order_by(InboundMessage.id.desc()).limit(MAIL_LOG_LIMIT))
    outbound = db.scalars(select(OutboundMessage).where(OutboundMessage.game_id == game.id)
                          .order_by(OutboundMessage.id.desc()).limit(MAIL_LOG_LIMIT))
    entries = [MailEntry("in", m.id, m.received_at, m.sender, mask_passwords(m.subject), m.status, "mail")
               for m in inbound]
    entries += [MailEntry("out", m.id, m.created_at, ", ".join(m.recipients), m.subject, m.status, m.kind)
                for m in outbound]
    entries.sort(key=lambda e: (e.at, e.direction == "out", e.id), reverse=True)
    return entries[:MAIL_LOG_LIMIT]


def _press_is_public(item: Press) -> bool:
    """Broadcast press was mailed to everyone; postal press is public once the results published it."""
    return item.published or (item.broadcast and not item.postal)


def _press_entries(judge: Judge, db: Session, game: Game, *, public_only: bool) -> list[PressEntry]:
    book = _book(judge, game)

    def who(power: str) -> str:
        return book.name(power) if power not in ("GM", "OBSERVER") else power.title()

    out = []
    for item in db.scalars(select(Press).where(Press.game_id == game.id).order_by(Press.id)):
        public = _press_is_public(item)
        if public_only and not public:
            continue
        sender = "Someone" if item.grey and public_only else who(item.sender)
        if item.grey and not public_only:
            sender += " (grey)"
        to = "everyone" if item.broadcast else ", ".join(who(p) for p in item.recipients)
        out.append(PressEntry(item.id, item.created_at, item.phase, sender, to, item.body, public))
    return out


def _phase_entries(db: Session, game: Game) -> list[PhaseEntry]:
    return [PhaseEntry(p.code, p.status, p.processed_at, p.results_text)
            for p in queries.phases_of(db, game.id, processed_only=True)]


def _centre_history(judge: Judge, db: Session, game: Game) -> CentreHistory:
    phases = queries.phases_of(db, game.id, processed_only=True)
    if not phases or not ruleset_for(game.variant).has_map:
        return CentreHistory((), ())
    points: dict[str, dict[str, int]] = {}
    start = stored_state(phases[0].state_before).centre_counts()
    if start:
        points["start"] = start
    for phase in phases:
        after = _position(game, phase.state_after)
        if after is not None and after.centres:
            points[PhaseName(phase.code).year] = after.centre_counts()
    book = _book(judge, game)
    present = {p for counts in points.values() for p in counts}
    powers = [p for p in book.ids if p in present] + sorted(present - set(book.ids))
    labels = tuple(points)
    series = tuple((book.name(p), tuple(points[label].get(p, 0) for label in labels)) for p in powers)
    return CentreHistory(labels, series)


def show_game(judge: Judge, uow: UnitOfWork, actor: Actor, name: str) -> GameDetail:
    """Everything the GM sees of one game, current orders and private press included."""
    db = uow.session
    game = _game_for(db, actor, name)
    phase, state = _open_state(uow, game)
    return GameDetail(
        summary=game_summary(judge, uow, game), press_rule=game.press,
        powers=tuple(_power_views(judge, uow, game, phase, state)), mail=tuple(_mail_log(db, game)),
        press=tuple(_press_entries(judge, db, game, public_only=False)),
        phases=tuple(_phase_entries(db, game)), centres=_centre_history(judge, db, game),
        forming=show_forming(judge, uow, actor, game),
    )


def show_mail(judge: Judge, uow: UnitOfWork, actor: Actor, name: str, direction: str, mail_id: int) -> RawMail:
    """One mail of the game's log as it was received (raw) or queued (headers and text), with its
    passwords masked and, in a DoD III game before the reveal, its bid amounts hidden."""
    db = uow.session
    game = _game_for(db, actor, name)
    if direction == "in":
        inbound = db.get(InboundMessage, mail_id)
        if inbound is not None and inbound.game_id == game.id:
            return RawMail("in", inbound.id, readable_mail(uow, game, inbound.raw))
    elif direction == "out":
        out = db.get(OutboundMessage, mail_id)
        if out is not None and out.game_id == game.id:
            head = f"Message-ID: {out.message_id}\nTo: {', '.join(out.recipients)}\nSubject: {out.subject}\n"
            head += f"Kind: {out.kind}\nStatus: {out.status}\n"
            return RawMail("out", out.id, shown_text(uow, game, head + "\n" + out.body_text))
    raise DomainError("no_mail", f"Game '{game.name}' has no such mail.")


def _find_phase(db: Session, game: Game, code: str) -> Phase:
    phase = db.scalar(select(Phase).where(Phase.game_id == game.id, func.upper(Phase.code) == code.upper(),
                                          Phase.status != PhaseStatus.ROLLED_BACK).order_by(Phase.seq.desc()))
    if phase is None:
        raise DomainError("no_phase", f"Game '{game.name}' has no phase {code.upper()}.")
    return phase


def show_phase(judge: Judge, uow: UnitOfWork, actor: Actor, name: str, code: str) -> PhaseOutcomes:
    """A phase with its stored results: every order's result, reason and structured outcome."""
    db = uow.session
    game = _game_for(db, actor, name)
    phase = _find_phase(db, game, code)
    has_map = ruleset_for(game.variant).has_map
    result = stored_result(phase.results) if phase.results and has_map else None
    orders = tuple(OrderOutcome(
        power=e.power, order=e.order, result=e.result, reason=e.reason, explanation=e.explanation, default=e.default,
        outcome=game_engine.outcome_json(e.outcome) if e.outcome is not None else None,
    ) for e in (result.orders if result is not None else ()))
    after = _position(game, phase.state_after)
    return PhaseOutcomes(game.name, phase.code, phase.status, phase.processed_at, orders,
                         {p: list(u) for p, u in after.units.items()} if after is not None else {},
                         {p: list(c) for p, c in after.centres.items()} if after is not None else {},
                         phase.results_text)


# -- the public page -------------------------------------------------------------


def _hidden_swaps(phases: list[Phase]) -> dict[str, str]:
    """Secret builds (Zeus 5's hidden list) whose reveal phase has not been published yet."""
    done = {p.code.upper() for p in phases}
    swaps: dict[str, str] = {}
    for phase in phases:
        for hidden in stored_result(phase.results).hidden if phase.results else ():
            if hidden.reveal_after.upper() not in done:
                swaps[hidden.unit] = hidden.public
    return swaps


def show_public_game(judge: Judge, uow: UnitOfWork, actor: Actor, name: str) -> PublicGame:
    """A game as anyone may see it: only what the judge has already published."""
    db = uow.session
    game = queries.game_by_name(db, name)
    if game is None:
        raise DomainError("no_game", f"There is no game '{name}'.")
    done = queries.phases_of(db, game.id, processed_only=True)
    if done:
        state = _position(game, done[-1].state_after)
    else:
        state = _open_state(uow, game)[1] if game.status != GameStatus.FORMING else None
    book = _book(judge, game)
    units: tuple[tuple[str, tuple[str, ...]], ...] = ()
    centres: tuple[tuple[str, int], ...] = ()
    if state is not None:  # a map game: Small World's secret starts undeclared until their reveal is published
        swaps = _hidden_swaps(done)
        variant = game_engine.game_variant(game.variant, game_engine.game_rules(game.settings))
        shown = public_units(variant, {p.code.upper() for p in done},
                             {p: [swaps.get(u, u) for u in us] for p, us in state.units.items()})
        units = tuple((book.name(p), tuple(us)) for p, us in shown.items() if us)
        centres = tuple((book.name(p), len(cs)) for p, cs in state.centres.items() if cs)
    return PublicGame(
        name=game.name, variant=game.variant, status=game.status, phase=game.phase, deadline=game.deadline,
        units=units, centres=centres, phases=tuple(_phase_entries(db, game)),
        press=tuple(_press_entries(judge, db, game, public_only=True)),
        history=_centre_history(judge, db, game),
    )
