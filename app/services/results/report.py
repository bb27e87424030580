"""From the engine's adjudication result to what the results templates print."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from app.services.results.centres import centre_owners, centre_report, projected_centres, unit_count
from app.services.results.orders import annotation, default_note, describe_order, units_by_province
from app.services.ruleset.engine import Build, Convoy, Move, Order, Remove, Waive, outcomes, province_of
from app.services.ruleset.phases import PhaseKind, PhaseName
from app.services.ruleset.powers import PowerBook
from app.services.ruleset.stored import StoredOrder, StoredResult, StoredState

__all__ = ["Names", "ResultsView", "build_results_view", "describe_order", "publishable"]

COASTS = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}


class Names:
    """Province full names of a variant (falls back to the abbreviation)."""

    def __init__(self, info: dict[str, Any]) -> None:
        self.full: dict[str, str] = {}
        self.centres: set[str] = set()  # the supply centres (for the ``Unowned:`` line)
        self.seas: set[str] = set()  # named with "the" after "in": "the fleet in the North Sea"
        self.title = str(info.get("title") or "")  # the variant's own title: "Small World II-R"
        provinces = info.get("provinces") or {}
        if isinstance(provinces, dict):
            for key, value in provinces.items():
                name = value.get("name") if isinstance(value, dict) else value
                self.full[str(key).upper()] = str(name)
        else:
            for entry in provinces:
                if isinstance(entry, dict):
                    pid = str(entry.get("id", "")).upper()
                    self.full[pid] = str(entry.get("name", entry.get("id")))
                    if entry.get("supply_center"):
                        self.centres.add(pid)
                    if entry.get("type") == "sea":
                        self.seas.add(pid)

    def place(self, location: str) -> str:
        """The name after "in": ``the North Sea``, ``Brest``."""
        name = self(location)
        sea = location.upper().partition("/")[0] in self.seas
        return f"the {name}" if sea and not name.lower().startswith("the ") else name

    def __call__(self, location: str) -> str:
        loc = location.upper()
        province, _, coast = loc.partition("/")
        name = self.full.get(loc) or self.full.get(province) or province.title()
        if coast in self.full:  # a secret choice of site, `NYK/CAL` (see `publishable`)
            return f"{name} or {self.full[coast]}"
        if coast and loc not in self.full:
            name += f" ({COASTS.get(coast, coast.lower())})"
        return name


def publishable(result: StoredResult, state_after: StoredState) -> tuple[StoredResult, StoredState]:
    """The result and position as everyone may read them: a build whose site is secret
    (the engine's `hidden` list, Zeus 5 rule 4) shows as its public form, `F NYK/CAL`,
    until the results of its `reveal_after` phase show where the unit really is."""
    if not result.hidden:
        return result, state_after
    swap = {h.unit.upper(): h.public for h in result.hidden}
    # each unit once, as a whole word: ``F NYK`` never matches inside ``F NYK/CAL``
    pattern = re.compile(r"(?<![\w/])(" + "|".join(re.escape(u) for u in swap) + r")(?![\w/])", re.IGNORECASE)

    def public(text: str) -> str:
        return pattern.sub(lambda m: swap[m.group(1).upper()], text)

    orders = tuple(replace(entry, order=public(entry.order),
                           normalized=public(entry.normalized) if entry.normalized else entry.normalized)
                   for entry in result.orders)
    units = {power: tuple(public(u) for u in items) for power, items in state_after.units.items()}
    return replace(result, orders=orders, units=units), replace(state_after, units=units)


def with_waiting_units(result: StoredResult, units: Mapping[str, Sequence[str]],
                       next_phase: PhaseName | None) -> dict[str, list[str]]:
    """Small World 11.2: after a Fall move, the units still to retreat (with the Winter orders)
    count in the Winter adjustment table, as the engine counts them before the retreats."""
    counted = {power: list(items) for power, items in units.items()}
    if next_phase is None or next_phase.kind is not PhaseKind.ADJUSTMENT or PhaseName(result.phase).kind is not PhaseKind.MOVEMENT:
        return counted
    for waiting in result.retreating:
        counted.setdefault(waiting.power, []).append(waiting.unit)
    return counted


@dataclass
class PowerBlock:
    power: str
    name: str
    lines: list[str] = field(default_factory=list)
    zine_lines: list[str] = field(default_factory=list)
    nmr: bool = False


@dataclass
class ResultsView:
    game: str
    variant: str
    judge_id: str
    phase: PhaseName
    deadline_text: str
    blocks: list[PowerBlock]
    dislodged: list[str]
    ownership: list[str]
    adjustments: list[str]
    centre_chart: list[dict[str, Any]]
    next_phase: PhaseName | None
    next_deadline_text: str
    game_over: bool
    winner: str | None
    variant_title: str  # the variant's own title: "Standard Diplomacy", "Small World II-R"
    nmr: list[str]
    press: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    preview: bool = False
    # The unit counts of the tables are provisional when units still have to retreat:
    # `units_left_out` dislodged units are not counted (a retreat phase comes next),
    # `units_waiting` are counted as if they got away (Small World 11.2, retreats with the Winter orders).
    units_left_out: int = 0
    units_waiting: int = 0
    owners: list[tuple[str, str]] = field(default_factory=list)  # the zine's (power, its centres)
    changes: list[str] = field(default_factory=list)  # centres that changed hands: ``Bel F->E``
    awaiting_retreat: int = 0  # Spring units counted in the zine's chart that still have to retreat


def _wrap(text: str, width: int = 75, indent: str = "") -> list[str]:
    return textwrap.wrap(text, width=width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def _sort_key(order: Order | None, text: str, public: Mapping[str, str]) -> tuple[int, str]:
    if isinstance(order, (Build, Remove)):
        return (1, public.get(str(order.unit), str(order.unit)).partition(" ")[2])
    if isinstance(order, Waive):
        return (1, "")
    if order is not None:
        return (0, order.unit.location)
    words = text.split()  # an order the judge could not read: as written
    return (0, words[1] if len(words) > 1 else "")


def _unit_province(order: Order) -> str | None:
    unit = getattr(order, "unit", None)
    return province_of(unit.location) if unit is not None else None


def _held_instead(read: Sequence[tuple[StoredOrder, Order | None]]) -> dict[str, StoredOrder]:
    """In a movement phase, the units whose order was void (illegal when adjudicated, or one of
    several different orders): the unit held instead, and the judge's default hold is no line of
    its own.  Province -> that default hold (its result: was the unit dislodged?)."""
    voided = {_unit_province(order) for entry, order in read
              if order is not None and not entry.default and entry.result.strip().lower() == "invalid"}
    return {province: entry for entry, order in read
            if entry.default and order is not None and (province := _unit_province(order)) in voided
            and province is not None}


def _was_dislodged(entry: StoredOrder) -> bool:
    return isinstance(entry.outcome, outcomes.Dislodged) or bool(entry.dislodged_by)


ConvoyPath = Callable[[str, str, list[str], bool], Sequence[str]]
_BY_SEA = (outcomes.NoConvoyRoute, outcomes.ConvoyDisrupted, outcomes.Paradox)


def _by_convoy(entry: StoredOrder) -> bool:
    """The engine said this move went (or tried to go) by sea, or the player wrote ``VIA``."""
    decided = [entry.outcome, entry.outcome.failed if isinstance(entry.outcome, outcomes.Dislodged) else None]
    return (entry.text.upper().endswith(" VIA")
            or any((isinstance(o, outcomes.Moved) and o.by_convoy) or isinstance(o, _BY_SEA) for o in decided))


def _awaiting_retreat(result: StoredResult) -> dict[str, list[str]]:
    """The dislodged units that can retreat (they are still in play until the retreat phase)."""
    waiting: dict[str, list[str]] = {}
    for unit in result.retreating:
        waiting.setdefault(unit.power, []).append(unit.unit)
    return waiting


def _destroyed_before(entry: StoredOrder) -> bool:
    """A unit with no retreat, destroyed at the movement phase, that the retreat phase disbands."""
    return entry.default and isinstance(entry.outcome, outcomes.Disbanded) and entry.outcome.no_retreat


def _convoy_paths(read: list[tuple[StoredOrder, Order | None]], convoy_path: ConvoyPath) -> dict[int, Sequence[str]]:
    """Each convoyed move's path (keyed by the id of its result entry): njudge's
    ``Army London -> North Sea -> Belgium``."""
    fleets: dict[tuple[str, str], list[str]] = {}
    for _entry, order in read:
        if isinstance(order, Convoy):
            key = (province_of(order.army), province_of(order.target))
            fleets.setdefault(key, []).append(order.unit.location)
    paths: dict[int, Sequence[str]] = {}
    for entry, order in read:
        if isinstance(order, Move) and order.unit.type == "A":
            ordered = fleets.get((province_of(order.unit.location), province_of(order.target)), [])
            path = convoy_path(order.unit.location, order.target, ordered, _by_convoy(entry)) if ordered else ()
            if path:
                paths[id(entry)] = path
    return paths


_PIECES = {"A": "army", "F": "fleet", "A/F": "A/F", "AF": "A/F"}


def _dislodged_lines(result: StoredResult, units_at: dict[str, tuple[str, str]], book: PowerBook,
                     names: Names) -> list[str]:
    """The judges' retreat sentences, then the units destroyed where they stood (a standing army)."""
    lines: list[str] = []
    listed: set[str] = set()
    for dislodged in result.dislodged:
        utype, _, loc = dislodged.unit.partition(" ")
        listed.add(dislodged.province)
        who = f"The {book.adjective(dislodged.power)} {_PIECES.get(utype.upper(), 'unit')} in {names.place(loc)}"
        if dislodged.retreats:
            spots = [names(o) for o in dislodged.retreats]
            choice = spots[0] if len(spots) == 1 else ", ".join(spots[:-1]) + " or " + spots[-1]
            lines.extend(_wrap(f"{who} can retreat to {choice}."))
        else:
            lines.extend(_wrap(f"{who} with no valid retreats was destroyed."))
    for entry in result.orders:
        outcome = entry.outcome
        where = (outcome.dislodged or "").upper() if isinstance(outcome, outcomes.Moved) else ""
        if not where or where in listed or where not in units_at:
            continue
        listed.add(where)
        power, utype = units_at[where]
        owner = book.adjective(power) if power.upper() in book.ids else "standing"
        lines.extend(_wrap(f"The {owner} {_PIECES.get(utype, 'unit')} in {names.place(where)} was destroyed."))
    return lines


def build_results_view(
    *,
    game_name: str,
    variant: str,
    judge_id: str,
    state_before: StoredState,
    result: StoredResult,
    state_after: StoredState,
    book: PowerBook,
    names: Names,
    deadline_text: str,
    next_deadline_text: str,
    nmr_powers: list[str],
    read_order: Callable[[str], Order | None],
    previous_centres: dict[str, int] | None = None,
    previous_owners: Mapping[str, Sequence[str]] | None = None,
    convoy_path: ConvoyPath | None = None,
) -> ResultsView:
    """``result`` as the engine gave it; ``read_order`` reads an order's stored text (the engine's
    parser); a build whose site is secret (``result.hidden``) shows in its public form;
    ``convoy_path(source, target, fleets, by_convoy)``: the fleets a convoyed move went through."""
    phase = PhaseName(result.phase)
    units_at = units_by_province(state_before)
    public = {h.unit: h.public for h in result.hidden}
    blocks: dict[str, PowerBlock] = {}
    for pid in book.ids:
        blocks[pid] = PowerBlock(power=pid, name=book.name(pid), nmr=pid in nmr_powers)
    read = [(entry, read_order(entry.text)) for entry in result.orders]
    paths = _convoy_paths(read, convoy_path) if convoy_path else {}
    held = _held_instead(read) if phase.kind is PhaseKind.MOVEMENT else {}
    for entry, order in sorted(read, key=lambda pair: _sort_key(pair[1], pair[0].text, public)):
        if phase.kind is PhaseKind.RETREAT and _destroyed_before(entry):
            continue  # the movement results said it was destroyed (njudge lists it once)
        if entry.default and order is not None and _unit_province(order) in held:
            continue  # its void order is the unit's line: no second "No Order Processed" (issue 28.17)
        pid = entry.power
        block = blocks.setdefault(pid, PowerBlock(power=pid, name=book.name(pid), nmr=pid in nmr_powers))
        text = (describe_order(order, names, units_at, book, public, place=names.place,
                               default=entry.default, path=paths.get(id(entry), ()))
                if order is not None else entry.text)
        twin = held.get(_unit_province(order) or "") if order is not None and not entry.default else None
        note = annotation(entry, also_dislodged=twin is not None and _was_dislodged(twin))
        why = default_note(entry, order)
        if phase.kind is PhaseKind.MOVEMENT:
            block.lines.append(f"{block.name}: {text}.{note}{why}")
        else:  # the judges pad the power name of retreat and adjustment lines
            block.lines.append(f"{(block.name + ':').ljust(11)} {text}.{note}{why}")
        block.zine_lines.append(f"{text}{note.strip() and ' ' + note.strip()}{why.rstrip() and ' ' + why.strip()}")
    centres = {p: list(c) for p, c in (result.centres or state_after.centres).items()}
    next_code = result.next_phase or state_after.phase
    next_phase = PhaseName(next_code) if next_code else None
    units_after = {p: list(u) for p, u in (result.units or state_after.units).items()}
    winner = result.winner
    show_centres = (next_phase is not None and next_phase.kind is PhaseKind.ADJUSTMENT) or bool(winner)
    counted = with_waiting_units(result, units_after, next_phase)
    report = centre_report(book, names, centres, counted, names.centres, show=show_centres,
                           winner=winner or None, before=previous_centres)
    charted = centres
    waiting = _awaiting_retreat(result) if phase.kind is PhaseKind.MOVEMENT and phase.season == "Spring" else {}
    if phase.kind is PhaseKind.MOVEMENT and phase.season == "Fall":  # the chart shows who owns what after the moves
        charted = projected_centres(centres, units_after, names.centres)
        report.chart = centre_report(book, names, charted, counted, names.centres, show=False, winner=None,
                                     before=previous_centres).chart
    elif waiting:  # a Spring unit that retreats is still in play: not a build in the chart
        in_play = {p: [*units_after.get(p, []), *waiting.get(p, [])] for p in {*units_after, *waiting}}
        report.chart = centre_report(book, names, charted, in_play, names.centres, show=False, winner=None,
                                     before=previous_centres).chart
    # "Changed hands" since the same position as the Change column counts from (the last adjustment):
    # a Winter's changes are the year's, never "none" beside a chart of gains (issue 28.21)
    owners, changes = centre_owners(book, charted, previous_owners or state_before.centres, names.centres)
    retreating = unit_count([d.unit for d in result.retreating])
    # Small World 11.2: the retreats are ordered with the Winter adjustments, counted as if they get away;
    # a Spring chart counts them in play and says so itself (awaiting_retreat).
    with_adjustments = phase.kind is PhaseKind.MOVEMENT and next_phase is not None and next_phase.kind is PhaseKind.ADJUSTMENT
    left_out = 0 if with_adjustments or phase.kind is not PhaseKind.MOVEMENT or waiting else retreating
    return ResultsView(
        game=game_name,
        variant=variant,
        judge_id=judge_id,
        phase=phase,
        deadline_text=deadline_text,
        blocks=[b for b in blocks.values() if b.lines],
        dislodged=_dislodged_lines(result, units_at, book, names),
        ownership=report.ownership,
        adjustments=report.adjustments,
        centre_chart=report.chart,
        next_phase=next_phase,
        next_deadline_text=next_deadline_text,
        variant_title=names.title or f"{variant.title()} Diplomacy",
        game_over=bool(winner),
        winner=book.name(winner) if winner else None,
        nmr=[book.name(p) for p in nmr_powers],
        units_left_out=left_out,
        units_waiting=retreating if with_adjustments else 0,
        owners=owners,
        changes=changes,
        awaiting_retreat=sum(len(units) for units in waiting.values()),
    )
