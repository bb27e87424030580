"""What one map shows: the pieces, centre owners and order marks of a position or of a
phase's results, with everything still secret left out (see `pieces`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from app.engine.phases import Phase, PhaseKind
from app.engine.state import NEUTRAL
from app.engine.variant import Variant

from .orders import BUILD, DISBAND, LAND, MOVE, REMOVE, RETREAT, OrderMark, order_marks
from .pieces import (
    Piece,
    parse_unit_text,
    piece,
    pieces_of,
    public_units,
    published_through,
    secret_builds,
    undeclared,
)


@dataclass(frozen=True)
class Board:
    variant: Variant
    phase: Phase
    pieces: tuple[Piece, ...]
    centres: dict[str, str]  # centre province -> owning power (unowned centres absent)
    marks: tuple[OrderMark, ...] = ()
    results: bool = False  # a results map (orders and outcomes) rather than a position
    winner: str | None = None
    unit_totals: dict[str, int] | None = None  # a results map: the units as the results text counts them

    def centre_counts(self) -> dict[str, int]:
        counts = {p.id: 0 for p in self.variant.powers}
        for owner in self.centres.values():
            if owner in counts:
                counts[owner] += 1
        return counts

    def unit_counts(self) -> dict[str, int]:
        counts = {p.id: 0 for p in self.variant.powers}
        if self.unit_totals is not None:
            return {power: self.unit_totals.get(power, 0) for power in counts}
        for drawn in self.pieces:
            if drawn.power in counts and not drawn.dislodged and drawn.mark not in ("removed", "disbanded", "destroyed"):
                counts[drawn.power] += 2 if drawn.type == "AF" else 1
        return counts


def build_board(variant: Variant, position: dict[str, Any] | None, result: dict[str, Any] | None) -> Board:
    """The board of `position` (a state as `judge adjudicate` takes it), or, with `result`
    (its adjudication), the board of that phase's orders and outcomes. Without `units`
    the position is the variant's start; without a position, the result alone is used."""
    position = position or {}
    phase = variant.phase(str((result or {}).get("phase") or position.get("phase") or variant.start_phase))
    published = published_through(phase, results=result is not None)
    if "units" in position:
        units, dislodged = position.get("units") or {}, position.get("dislodged") or {}
    elif result is not None:
        units, dislodged = units_before(result, variant)
    else:
        units = {p.id: list(p.units) for p in variant.powers}
        if variant.standing_armies:
            units[NEUTRAL] = [f"A {s}" for s in variant.standing_armies]
        dislodged = {}
    hidden = [h for h in (result or {}).get("hidden") or [] if h.get("public")]
    hidden += [h for h in position.get("hidden") or [] if isinstance(h, dict) and h.get("public")]
    hidden += secret_builds(variant, units, published)
    units = public_units(units, hidden)
    pieces = pieces_of(units, variant) + _dislodged_pieces(dislodged, variant, hidden)
    marks: list[OrderMark] = []
    if result is not None:
        marks = [_landing(_public_mark(m, hidden), variant) for m in order_marks(result)]
        pieces = _with_outcomes(variant, phase, pieces, marks, result, hidden)
    pieces = undeclared(variant, pieces, published)
    if result is None:
        return Board(variant, phase, tuple(pieces), _centres(variant, position), tuple(marks), False)
    winner = str(result["winner"]).upper() if result.get("winner") else None
    centres = _centres(variant, result)
    if phase.season == "F" and phase.kind is PhaseKind.MOVEMENT:
        centres = _after_the_moves(variant, centres, result)
    return Board(variant, phase, tuple(pieces), centres, tuple(marks), True, winner, _unit_totals(variant, phase, result))


def _centres(variant: Variant, data: dict[str, Any]) -> dict[str, str]:
    if "centers" not in data and "centres" not in data:
        return {c: p.id for p in variant.powers for c in p.centres}
    owned = data.get("centers") or data.get("centres") or {}
    return {str(c).upper().split("/")[0]: str(p).upper() for p, cs in owned.items() for c in cs}


def _province(unit: Any) -> str:
    return str(unit).split()[-1].split("/")[0].upper()


def _after_the_moves(variant: Variant, centres: dict[str, str], result: dict[str, Any]) -> dict[str, str]:
    """A Fall movement's owners as its results text shows them: each centre a unit stands on
    after the moves belongs to that unit's power (before any retreat; issue 22.14)."""
    owners = dict(centres)
    powers = {p.id for p in variant.powers}
    for power, units in (result.get("units") or {}).items():
        for unit in units or ():
            province = _province(unit)
            info = variant.map.provinces.get(province)
            if str(power).upper() in powers and info is not None and info.centre:
                owners[province] = str(power).upper()
    return owners


def _unit_totals(variant: Variant, phase: Phase, result: dict[str, Any]) -> dict[str, int]:
    """The units after the phase as the results text counts them (an A/F is two): those
    standing, and after a movement followed at once by the adjustments (Small World 11.2)
    also those still to retreat."""
    counted: dict[str, list[str]] = {str(p).upper(): [str(u) for u in us or ()] for p, us in (result.get("units") or {}).items()}
    after = variant.phase(str(result["next_phase"])) if result.get("next_phase") else None
    if phase.kind is PhaseKind.MOVEMENT and after is not None and after.kind is PhaseKind.ADJUSTMENT:
        for power, entries in (result.get("dislodged") or {}).items():
            for text, info in (entries or {}).items() if isinstance(entries, dict) else ():
                if isinstance(info, dict) and info.get("retreats"):
                    counted.setdefault(str(power).upper(), []).append(str(text))
    return {power: sum(2 if u.upper().startswith("A/F ") else 1 for u in units) for power, units in counted.items()}


def _dislodged_pieces(dislodged: dict[str, Any], variant: Variant, hidden: list[dict[str, Any]]) -> list[Piece]:
    found = []
    for power, entries in (dislodged or {}).items():
        for text, info in (entries or {}).items():
            shown = public_units({power: [text]}, hidden)[power][0]
            drawn = piece(str(power).upper(), shown, variant)
            if drawn is None:
                continue
            found.append(replace(drawn, dislodged=True, retreats=_retreats(info), attacker=_attacker(info)))
    return found


def _landing(mark: OrderMark, variant: Variant) -> OrderMark:
    """`A/F NWG - SCA`: an A/F moving ashore lands its army."""
    if mark.kind != MOVE or not mark.unit.startswith("A/F "):
        return mark
    target = variant.map.provinces.get(mark.path[0].split("/")[0])
    if target is None or target.terrain.value == "sea":
        return mark
    return replace(mark, kind=LAND)


def _retreats(info: Any) -> tuple[str, ...]:
    return tuple(str(r).upper() for r in info.get("retreats", ())) if isinstance(info, dict) else ()


def _attacker(info: Any) -> str | None:
    """`{"attacker_from": "BUR", ...}` or the short form `"BUR"`."""
    found = info.get("attacker_from") if isinstance(info, dict) else info
    return str(found).upper().split("/")[0] if found else None


def _public_mark(mark: OrderMark, hidden: list[dict[str, Any]]) -> OrderMark:
    for entry in hidden:
        if mark.unit == entry["unit"]:
            return replace(mark, unit=str(entry["public"]))
    return mark


def _with_outcomes(
    variant: Variant, phase: Phase, pieces: list[Piece], marks: list[OrderMark], result: dict[str, Any],
    hidden: list[dict[str, Any]],
) -> list[Piece]:
    """Pieces as the results show them: as revealed by their orders, dislodged,
    destroyed, built, removed, disbanded, or an A/F whose army starved at sea."""
    by_province = {(p.province, p.dislodged): i for i, p in enumerate(pieces)}
    revealed = {(c.power, c.unit.split()[-1].split("/")[0]) for c in variant.hidden_choices}
    out = list(pieces)

    def at(province: str, dislodged: bool = False) -> int | None:
        return by_province.get((province, dislodged))

    for mark in marks:
        parsed = parse_unit_text(mark.unit, variant) if mark.unit else None
        if mark.kind == BUILD and mark.ok and parsed is not None:
            out.append(Piece(mark.power, parsed[0], parsed[1], parsed[2] if len(parsed[2]) > 1 else (), mark="built"))
            continue
        i = at(mark.province, dislodged=mark.kind in (RETREAT, DISBAND) and phase.kind is PhaseKind.RETREAT)
        if i is None or parsed is None:
            continue
        if (mark.power, mark.province) in revealed and out[i].power == mark.power:
            out[i] = replace(out[i], type=parsed[0], location=parsed[1])  # a hidden start, revealed by its order
        if mark.kind == REMOVE and mark.ok:
            out[i] = replace(out[i], mark="removed")
        elif mark.kind == DISBAND and mark.ok:
            out[i] = replace(out[i], mark="disbanded")
        elif mark.kind == RETREAT and not mark.ok and phase.kind is PhaseKind.RETREAT:
            # bounced with another retreat (a standoff): destroyed; `retreats` keeps where it tried to go
            out[i] = replace(out[i], mark="destroyed", retreats=tuple(mark.path[:1]))
    if phase.kind is PhaseKind.MOVEMENT:
        out = _movement_outcomes(out, marks, result, variant, hidden)
    return out


def _movement_outcomes(
    pieces: list[Piece], marks: list[OrderMark], result: dict[str, Any], variant: Variant, hidden: list[dict[str, Any]]
) -> list[Piece]:
    dislodged = {
        str(text).split()[-1].split("/")[0]: info
        for entries in (result.get("dislodged") or {}).values() for text, info in (entries or {}).items()
    }
    taken = {m.path[-1].split("/")[0] for m in marks if m.kind in (MOVE, LAND) and m.ok}
    landed = {m.province for m in marks if m.kind == LAND and m.ok}
    moved_to = {m.province: m.path[-1].split("/")[0] for m in marks if m.kind == MOVE and m.ok}
    after = {
        (power, str(u).split()[-1].split("/")[0]): str(u).split()[0]
        for power, units in public_units(result.get("units") or {}, hidden).items() for u in units
    }
    out = []
    for drawn in pieces:
        if drawn.province in dislodged and not drawn.dislodged:
            info = dislodged[drawn.province]
            retreats = _retreats(info)
            # with nowhere to retreat it is destroyed at once: crossed, not left to retreat
            drawn = replace(drawn, dislodged=True, retreats=retreats, attacker=_attacker(info),
                            mark="destroyed" if isinstance(info, dict) and not retreats else "")
        elif drawn.power == NEUTRAL and drawn.province in taken:
            drawn = replace(drawn, mark="destroyed")
        elif drawn.type == "AF" and drawn.province not in landed:
            where = moved_to.get(drawn.province, drawn.province)
            if after.get((drawn.power, where)) == "F":
                drawn = replace(drawn, mark="army_lost")
        out.append(drawn)
    return out


def units_before(result: dict[str, Any], variant: Variant) -> tuple[dict[str, list[str]], dict[str, Any]]:
    """The units (and dislodged units) before a phase, from its result alone: every unit
    of a movement phase has an order (the judge supplies holds), a retreat phase's
    dislodged units have theirs, and an adjustment phase changes only what it orders."""
    phase = variant.phase(str(result.get("phase")))
    marks = order_marks(result)
    units: dict[str, list[str]] = {}
    dislodged: dict[str, dict[str, Any]] = {}
    if phase.kind is PhaseKind.MOVEMENT:
        for mark in marks:
            if mark.unit and mark.unit not in units.get(mark.power, []):
                units.setdefault(mark.power, []).append(mark.unit)
        ordered = {m.province for m in marks}
        for power, texts in (result.get("units") or {}).items():
            if power == NEUTRAL:
                units[power] = [t for t in texts if str(t).split()[-1] not in ordered]
        return units, dislodged
    after = {p: list(us) for p, us in (result.get("units") or {}).items()}
    for mark in marks:
        if mark.kind == RETREAT:
            if mark.ok:
                target = mark.path[0].split("/")[0]
                after[mark.power] = [u for u in after.get(mark.power, []) if str(u).split()[-1].split("/")[0] != target]
            dislodged.setdefault(mark.power, {})[mark.unit] = {"retreats": [mark.path[0]]}
        elif mark.kind == DISBAND:
            dislodged.setdefault(mark.power, {})[mark.unit] = {"retreats": []}
        elif mark.kind == BUILD and mark.ok:
            after[mark.power] = [u for u in after.get(mark.power, []) if u != mark.unit]
        elif mark.kind == REMOVE and mark.ok:
            after.setdefault(mark.power, []).append(mark.unit)
    return after, dislodged
