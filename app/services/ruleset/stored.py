"""A map game's stored phase read once into typed values: ``stored_state`` for a position
(``phases.state_before`` / ``state_after``), ``stored_result`` for a phase's results
(``phases.results``).

The JSON is the codec's (``app.db.codec``, shapes in docs/engine-api.md): written only by
the engine port (``engine.state_json`` / ``result_json``) and left as it is in the database;
the use cases read it through these two decoders, which check its shape and refuse what is
not one with ``DomainError("bad_state")``.  Each order's ``outcome`` becomes the engine's
typed outcome (one of ``engine.outcomes``).  Keys the codec may add later are ignored; a Days of
Decision III step stores JSON of its own and is never read here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.services.errors import DomainError
from app.services.ruleset.engine import Outcome, outcome_of

__all__ = [
    "StoredDislodged",
    "StoredHiddenBuild",
    "StoredHiddenStart",
    "StoredOrder",
    "StoredResult",
    "StoredReveal",
    "StoredRuling",
    "StoredState",
    "Table",
    "stored_outcome",
    "stored_result",
    "stored_state",
]

Table = Mapping[str, tuple[str, ...]]  # power -> unit texts (``A PAR``) or provinces (``PAR``)


def _province(unit: str) -> str:
    """``PAR`` for ``A PAR``, ``STP`` for ``F STP/SC``."""
    return unit.partition(" ")[2].split("/")[0].upper()


@dataclass(frozen=True)
class StoredDislodged:
    """A dislodged unit: where its attacker came from and where it may retreat (none: destroyed)."""

    power: str
    unit: str  # ``A BUR``
    attacker_from: str | None
    retreats: tuple[str, ...]
    af_moves: int = 0  # Army/Fleet rations: turns its army has spent at sea

    @property
    def province(self) -> str:
        return _province(self.unit)


@dataclass(frozen=True)
class StoredHiddenStart:
    """A starting unit whose coast or type stays secret until ``reveal_with`` (Small World 6.1/6.2)."""

    power: str
    unit: str
    options: tuple[str, ...]
    reveal_with: str


@dataclass(frozen=True)
class StoredState:
    """A stored position: the phase it is the start of, each power's units and centres, the
    dislodged units (a retreat phase), and the variant's own extras."""

    phase: str
    units: Table = field(default_factory=dict)
    centres: Table = field(default_factory=dict)
    dislodged: tuple[StoredDislodged, ...] = ()
    variant: str | None = None
    territories: Table = field(default_factory=dict)
    retreated: tuple[str, ...] = ()
    af_moves: Mapping[str, int] = field(default_factory=dict)
    hidden: tuple[StoredHiddenStart, ...] = ()  # the first position's secret starting units

    def units_of(self, power: str) -> tuple[str, ...]:
        return self.units.get(power.upper(), ())

    def centres_of(self, power: str) -> tuple[str, ...]:
        return self.centres.get(power.upper(), ())

    def centre_counts(self) -> dict[str, int]:
        return {power: len(centres) for power, centres in self.centres.items()}

    def in_play(self) -> frozenset[str]:
        """The powers with a unit or a centre (the others are out)."""
        return frozenset(p for table in (self.units, self.centres) for p, items in table.items() if items)

    def dislodged_of(self, power: str) -> tuple[StoredDislodged, ...]:
        return tuple(d for d in self.dislodged if d.power == power.upper())


@dataclass(frozen=True)
class StoredOrder:
    """One order's result: the order as written and as understood, the verdict and what decided it."""

    power: str
    order: str  # as written (or the default the judge gave)
    normalized: str | None  # as the judge understood it
    result: str  # succeeds | fails | invalid
    reason: str  # the short code: ``bounce``, ``cut``, ``civil_disorder``...
    explanation: str
    default: bool = False  # the judge gave it: nobody ordered the unit
    dislodged_by: str | None = None
    outcome: Outcome | None = None  # None: stored before outcomes were

    @property
    def text(self) -> str:
        """The order as understood, else as written."""
        return self.normalized or self.order


@dataclass(frozen=True)
class StoredHiddenBuild:
    """A build whose site is secret (Zeus 5 rule 4): others see ``public`` until ``reveal_after``'s results."""

    power: str
    unit: str
    public: str
    reveal_after: str


@dataclass(frozen=True)
class StoredReveal:
    """A secret starting unit as its power's orders revealed it (Small World 6.1/6.2)."""

    power: str
    unit: str


@dataclass(frozen=True)
class StoredRuling:
    """A GM's ruling recorded by an override: the unit's ``order`` was adjudicated as ``adjudicated_as``."""

    power: str
    unit: str
    ruling: str  # holds | fails
    order: str | None
    adjudicated_as: str


@dataclass(frozen=True)
class StoredResult:
    """A phase's results: every order's, and the position it leaves (``next_phase``'s, with every
    unit dislodged in it: those without a retreat were destroyed)."""

    phase: str
    orders: tuple[StoredOrder, ...] = ()
    units: Table = field(default_factory=dict)
    centres: Table = field(default_factory=dict)
    dislodged: tuple[StoredDislodged, ...] = ()
    next_phase: str | None = None
    winner: str | None = None
    variant: str | None = None
    territories: Table = field(default_factory=dict)
    retreated: tuple[str, ...] = ()
    af_moves: Mapping[str, int] = field(default_factory=dict)
    hidden: tuple[StoredHiddenBuild, ...] = ()
    revealed: tuple[StoredReveal, ...] = ()
    rulings: tuple[StoredRuling, ...] = ()

    @property
    def retreating(self) -> tuple[StoredDislodged, ...]:
        """The dislodged units that may retreat (still in play until they do)."""
        return tuple(d for d in self.dislodged if d.retreats)


# -- decoding ----------------------------------------------------------------------------------


class _Bad(Exception):
    """The JSON is not the codec's shape; the message says where."""


def _shown(value: Any) -> str:
    """A value in an error message, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _text(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise _Bad(f"{key!r} is {_shown(value)}, not text")
    return value


def _required(data: Mapping[str, Any], key: str) -> str:
    value = _text(data, key)
    if value is None:
        raise _Bad(f"no {key!r}")
    return value


def _texts(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value):
        raise _Bad(f"{where} is {_shown(value)}, not a list of text")
    return tuple(value)


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise _Bad(f"{where} is {_shown(value)}, not an object")
    return value


def _table(data: Mapping[str, Any], key: str) -> dict[str, tuple[str, ...]]:
    """``{"FRANCE": ["A PAR", ...]}``, power names upper-cased."""
    return {power.upper(): _texts(items, f"{key}.{power}") for power, items in _mapping(data.get(key), key).items()}


def _dislodged(data: Mapping[str, Any]) -> tuple[StoredDislodged, ...]:
    """``{"GERMANY": {"A BUR": {"attacker_from": "PAR", "retreats": ["RUH"], "af_moves": 1}}}``."""
    out: list[StoredDislodged] = []
    for power, units in _mapping(data.get("dislodged"), "dislodged").items():
        for unit, info in _mapping(units, f"dislodged.{power}").items():
            entry = _mapping(info, f"dislodged.{power}.{unit}")
            moves = entry.get("af_moves", 0)
            if not isinstance(moves, int):
                raise _Bad(f"dislodged.{power}.{unit}.af_moves is {_shown(moves)}, not a number")
            out.append(StoredDislodged(power.upper(), unit, _text(entry, "attacker_from"),
                                       _texts(entry.get("retreats"), f"dislodged.{power}.{unit}.retreats"), moves))
    return tuple(out)


def _counts(data: Mapping[str, Any], key: str) -> dict[str, int]:
    counts = _mapping(data.get(key), key)
    if not all(isinstance(n, int) for n in counts.values()):
        raise _Bad(f"{key} is {_shown(dict(counts))}, not numbers")
    return {power.upper(): int(n) for power, n in counts.items()}


def _records(data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    value = data.get(key)
    if value is None:
        return []
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise _Bad(f"{key!r} is {_shown(value)}, not a list")
    return [_mapping(item, f"{key}[{index}]") for index, item in enumerate(value)]


def _outcome(data: Any) -> Outcome | None:
    if data is None:
        return None
    try:
        return outcome_of(_mapping(data, "outcome"))
    except (ValueError, TypeError) as error:
        raise _Bad(str(error)) from error


def stored_outcome(data: Mapping[str, Any] | None) -> Outcome | None:
    """One order's ``outcome`` JSON as the engine's typed outcome (None: none was stored)."""
    try:
        return _outcome(data)
    except _Bad as error:
        raise DomainError("bad_state", f"a stored outcome cannot be read: {error}") from error


def stored_state(data: Mapping[str, Any] | None) -> StoredState:
    """A stored position (``phases.state_before`` / ``state_after``) as a ``StoredState``."""
    try:
        if not isinstance(data, Mapping):
            raise _Bad(f"{_shown(data)} is not an object")
        hidden = tuple(StoredHiddenStart(_required(h, "power"), _required(h, "unit"),
                                         _texts(h.get("options"), "hidden.options"), _required(h, "reveal_with"))
                       for h in _records(data, "hidden"))
        return StoredState(
            phase=_required(data, "phase"), units=_table(data, "units"),
            centres=_table(data, "centers" if "centers" in data else "centres"),
            dislodged=_dislodged(data), variant=_text(data, "variant"), territories=_table(data, "territories"),
            retreated=_texts(data.get("retreated"), "retreated"), af_moves=_counts(data, "af_moves"), hidden=hidden)
    except _Bad as error:
        raise DomainError("bad_state", f"the stored position cannot be read: {error}") from error


def _order(entry: Mapping[str, Any]) -> StoredOrder:
    return StoredOrder(
        power=_required(entry, "power").upper(), order=_required(entry, "order"), normalized=_text(entry, "normalized"),
        result=_required(entry, "result"), reason=_text(entry, "reason") or "",
        explanation=_text(entry, "explanation") or "", default=bool(entry.get("default")),
        dislodged_by=_text(entry, "dislodged_by"), outcome=_outcome(entry.get("outcome")))


def stored_result(data: Mapping[str, Any] | None) -> StoredResult:
    """A phase's stored results (``phases.results``) as a ``StoredResult``."""
    try:
        if not isinstance(data, Mapping):
            raise _Bad(f"{_shown(data)} is not an object")
        return StoredResult(
            phase=_required(data, "phase"),
            orders=tuple(_order(entry) for entry in _records(data, "orders")),
            units=_table(data, "units"), centres=_table(data, "centers"), dislodged=_dislodged(data),
            next_phase=_text(data, "next_phase"), winner=_text(data, "winner"), variant=_text(data, "variant"),
            territories=_table(data, "territories"), retreated=_texts(data.get("retreated"), "retreated"),
            af_moves=_counts(data, "af_moves"),
            hidden=tuple(StoredHiddenBuild(_required(h, "power"), _required(h, "unit"), _required(h, "public"),
                                           _required(h, "reveal_after")) for h in _records(data, "hidden")),
            revealed=tuple(StoredReveal(_required(r, "power"), _required(r, "unit")) for r in _records(data, "revealed")),
            rulings=tuple(StoredRuling(_required(r, "power"), _required(r, "unit"), _required(r, "ruling"),
                                       _text(r, "order"), _required(r, "adjudicated_as"))
                          for r in _records(data, "rulings")),
        )
    except _Bad as error:
        raise DomainError("bad_state", f"the stored results cannot be read: {error}") from error
