"""From the engine's adjudication result to what the results templates print."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.engine.geo import province_of
from app.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Land,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)
from app.services.phases import PhaseName
from app.services.powers import PowerBook

__all__ = ["Names", "ResultsView", "build_results_view", "describe_order", "publishable"]

UNIT_WORDS = {"A": "Army", "F": "Fleet", "AF": "A/F"}
COASTS = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}
SUCCESS = {"", "succeeds", "success", "ok", "resolved", "moves", "holds", "true", "none", "valid"}


class Names:
    """Province full names of a variant (falls back to the abbreviation)."""

    def __init__(self, info: dict[str, Any]) -> None:
        self.full: dict[str, str] = {}
        provinces = info.get("provinces") or {}
        if isinstance(provinces, dict):
            for key, value in provinces.items():
                name = value.get("name") if isinstance(value, dict) else value
                self.full[str(key).upper()] = str(name)
        else:
            for entry in provinces:
                if isinstance(entry, dict):
                    self.full[str(entry.get("id", "")).upper()] = str(entry.get("name", entry.get("id")))

    def __call__(self, location: str) -> str:
        loc = location.upper()
        province, _, coast = loc.partition("/")
        name = self.full.get(loc) or self.full.get(province) or province.title()
        if coast in self.full:  # a secret choice of site, `NYK/CAL` (see `publishable`)
            return f"{name} or {self.full[coast]}"
        if coast and loc not in self.full:
            name += f" ({COASTS.get(coast, coast.lower())})"
        return name


def publishable(result: dict[str, Any], state_after: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The result and position as everyone may read them: a build whose site is secret
    (the engine's `hidden` list, Zeus 5 rule 4) shows as its public form, `F NYK/CAL`,
    until the results of its `reveal_after` phase show where the unit really is."""
    hidden = result.get("hidden") or []
    if not hidden:
        return result, state_after
    swap = {h["unit"]: h["public"] for h in hidden}

    def public(text: str | None) -> str | None:
        if not text:
            return text
        for unit, shown in swap.items():
            text = text.replace(unit, shown)
        return text

    orders = [
        {**entry, "order": public(entry.get("order")), "normalized": public(entry.get("normalized"))}
        for entry in result.get("orders", [])
    ]
    units = {power: [public(u) for u in units] for power, units in (state_after.get("units") or {}).items()}
    return {**result, "orders": orders, "units": units}, {**state_after, "units": units}


def _unit_text(unit: Unit, names: Names) -> str:
    return f"{UNIT_WORDS.get(unit.type, unit.type)} {names(unit.location)}"


def _supported(province: str, verb: str, units_at: dict[str, tuple[str, str]], book: PowerBook,
               names: Names) -> str:
    power, utype = units_at.get(province_of(province), ("", "A" if verb == "C" else ""))
    owner = f"{book.adjective(power)} " if power else ""
    return f"{owner}{UNIT_WORDS.get(utype, 'unit')} {names(province)}".strip()


def describe_order(order: Order, names: Names, units_at: dict[str, tuple[str, str]], book: PowerBook,
                   public: Mapping[str, str] | None = None) -> str:
    """``A PAR - BUR`` -> ``Army Paris -> Burgundy``; supports name the supported unit in full.
    ``public`` maps a build whose site is secret (``F CAL``) to what others see (``F NYK/CAL``)."""
    if isinstance(order, Waive):
        return "Build waived"
    if isinstance(order, (Build, Remove)):
        shown = (public or {}).get(str(order.unit), str(order.unit))
        location = shown.partition(" ")[2] or order.unit.location
        army = order.unit.type == "A"
        if isinstance(order, Remove):
            return f"Removes {'the army' if army else 'the fleet'} in {names(location)}"
        return f"Builds {'an army' if army else 'a fleet'} in {names(location)}"
    unit = _unit_text(order.unit, names)
    if isinstance(order, Hold):
        return f"{unit} HOLD"
    if isinstance(order, Disband):
        return f"{unit} DISBAND"
    if isinstance(order, (Move, Retreat)):
        return f"{unit} -> {names(order.target)}"
    if isinstance(order, Land):
        return f"{unit} -> " + " -> ".join(names(w) for w in (order.via, order.target) if w)
    if isinstance(order, SupportHold):
        return f"{unit} SUPPORT {_supported(order.supported, 'S', units_at, book, names)}"
    if isinstance(order, SupportMove):
        return (f"{unit} SUPPORT {_supported(order.supported, 'S', units_at, book, names)} "
                f"-> {names(order.target)}")
    if isinstance(order, Convoy):
        return f"{unit} CONVOY {_supported(order.army, 'C', units_at, book, names)} -> {names(order.target)}"
    return str(order)


def units_by_province(state: dict[str, Any]) -> dict[str, tuple[str, str]]:
    where: dict[str, tuple[str, str]] = {}
    for power, units in (state.get("units") or {}).items():
        for unit in units:
            utype, _, loc = str(unit).partition(" ")
            where[loc.split("/")[0].upper()] = (power, utype)
    return where


REASON_WORDS = {
    "bounce": "bounce", "standoff": "bounce", "cut": "cut", "dislodged": "dislodged", "no_convoy": "no convoy",
    "disrupted": "disrupted", "void": "void", "illegal": "void", "unreadable": "void", "duplicate": "void",
    "paradox": "void", "destroyed": "destroyed", "no_support": "no support", "ruling": "GM ruling",
}


def annotation(entry: dict[str, Any]) -> str:
    """The judges' ``(*bounce*)``, ``(*cut, dislodged*)``... for one order result."""
    result = str(entry.get("result") or "").strip().lower()
    reason = str(entry.get("reason") or "").strip().lower()
    notes: list[str] = []
    if result not in SUCCESS:
        word = REASON_WORDS.get(reason)
        if word is None and result not in ("fails", "invalid"):
            word = result.replace("_", " ")
        if word is None and result == "invalid":
            word = "void"
        if word:
            notes.append(word)
    if (entry.get("dislodged_by") or entry.get("dislodged")) and "dislodged" not in notes:
        notes.append("dislodged")
    return f"  (*{', '.join(notes)}*)" if notes else ""


def waiting_to_retreat(result: dict[str, Any], power: str, next_phase: PhaseName | None) -> int:
    """Small World 11.2: after a Fall move, the units still to retreat (with the Winter orders)
    count in the Winter adjustment table, as the engine counts them before the retreats."""
    if next_phase is None or next_phase.kind != "adjustment" or PhaseName(str(result.get("phase") or "")).kind != "movement":
        return 0
    units = (result.get("dislodged") or {}).get(power) or {}
    if not isinstance(units, dict):
        return 0
    return sum((2 if str(unit).upper().startswith("A/F") else 1) for unit, item in units.items()
               if isinstance(item, dict) and item.get("retreats"))


def _order_text(entry: dict[str, Any]) -> str:
    return str(entry.get("normalized") or entry.get("order") or "")


def _sort_key(order: Order | None, text: str, public: Mapping[str, str]) -> tuple[int, str]:
    if isinstance(order, (Build, Remove)):
        return (1, public.get(str(order.unit), str(order.unit)).partition(" ")[2])
    if isinstance(order, Waive):
        return (1, "")
    if order is not None:
        return (0, order.unit.location)
    words = text.split()  # an order the judge could not read: as written
    return (0, words[1] if len(words) > 1 else "")


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
    nmr: list[str]
    press: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    preview: bool = False


def _wrap(text: str, width: int = 75, indent: str = "") -> list[str]:
    return textwrap.wrap(text, width=width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def build_results_view(
    *,
    game_name: str,
    variant: str,
    judge_id: str,
    state_before: dict[str, Any],
    result: dict[str, Any],
    state_after: dict[str, Any],
    book: PowerBook,
    names: Names,
    deadline_text: str,
    next_deadline_text: str,
    nmr_powers: list[str],
    read_order: Callable[[str], Order | None],
    previous_centres: dict[str, int] | None = None,
) -> ResultsView:
    """``result`` as the engine gave it; ``read_order`` reads an order's stored text (the engine's
    parser); a build whose site is secret (``result["hidden"]``) shows in its public form."""
    phase = PhaseName(str(result.get("phase") or state_before.get("phase")))
    units_at = units_by_province(state_before)
    public = {str(h["unit"]): str(h["public"]) for h in result.get("hidden") or []}
    blocks: dict[str, PowerBlock] = {}
    for pid in book.ids:
        blocks[pid] = PowerBlock(power=pid, name=book.name(pid), nmr=pid in nmr_powers)
    read = [(entry, read_order(_order_text(entry))) for entry in result.get("orders") or []]
    for entry, order in sorted(read, key=lambda pair: _sort_key(pair[1], _order_text(pair[0]), public)):
        pid = str(entry.get("power", "")).upper()
        block = blocks.setdefault(pid, PowerBlock(power=pid, name=book.name(pid), nmr=pid in nmr_powers))
        text = describe_order(order, names, units_at, book, public) if order is not None else _order_text(entry)
        note = annotation(entry)
        if phase.kind == "adjustment":
            label = f"{block.name}:".ljust(11)
            block.lines.append(f"{label} {text}.{note}")
        else:
            block.lines.append(f"{block.name}: {text}.{note}")
        block.zine_lines.append(f"{text}{note.strip() and ' ' + note.strip()}")
    dislodged: list[str] = []
    for pid, units in (result.get("dislodged") or {}).items():
        pairs: list[tuple[str, Any]] = list(units.items()) if isinstance(units, dict) else [
            (u if isinstance(u, str) else str(u.get("unit", "")), u) for u in units]
        for unit, item in pairs:
            options = list(item.get("retreats") or item.get("options") or []) if isinstance(item, dict) else []
            utype, _, loc = unit.partition(" ")
            kind = "army" if utype.upper() == "A" else "fleet"
            who = f"The {book.adjective(pid)} {kind} in {names(loc)}"
            if options:
                spots = [names(o) for o in options]
                choice = spots[0] if len(spots) == 1 else ", ".join(spots[:-1]) + " or " + spots[-1]
                dislodged.extend(_wrap(f"{who} can retreat to {choice}."))
            else:
                dislodged.extend(_wrap(f"{who} with no valid retreats was destroyed."))
    centres: dict[str, list[str]] = {
        p.upper(): list(c) for p, c in (result.get("centers") or state_after.get("centers") or {}).items()
    }
    next_code = result.get("next_phase") or state_after.get("phase")
    next_phase = PhaseName(str(next_code)) if next_code else None
    ownership: list[str] = []
    adjustments: list[str] = []
    chart: list[dict[str, Any]] = []
    units_after = {p.upper(): list(u) for p, u in (result.get("units") or state_after.get("units") or {}).items()}
    winner = result.get("winner")
    show_centres = (next_phase is not None and next_phase.kind == "adjustment") or bool(winner)
    for pid in book.ids:
        owned = sorted(names(c) for c in centres.get(pid, []))
        count = len(owned)
        units = len(units_after.get(pid, []))
        units += waiting_to_retreat(result, pid, next_phase)
        before = (previous_centres or {}).get(pid, count)
        chart.append({"power": book.name(pid), "centres": count, "units": units, "change": count - before,
                      "delta": count - units})
        if not show_centres or (not owned and not units):
            continue
        ownership.extend(_wrap(f"{(book.name(pid) + ':').ljust(11)} {', '.join(owned)}.", 75, " " * 12)
                         if owned else [f"{(book.name(pid) + ':').ljust(11)} none."])
        diff = count - units
        word, n = ("Builds", diff) if diff >= 0 else ("Removes", -diff)
        line = (f"{(book.name(pid) + ':').ljust(11)} {count:>2} Supply centers, {units:>2} Units:  "
                f"{word} {n:>3} unit{'s' if n != 1 else ''}.")
        if winner and str(winner).upper() == pid:
            line += "  (* VICTORY!! *)"
        adjustments.append(line)
    return ResultsView(
        game=game_name,
        variant=variant,
        judge_id=judge_id,
        phase=phase,
        deadline_text=deadline_text,
        blocks=[b for b in blocks.values() if b.lines],
        dislodged=dislodged,
        ownership=ownership,
        adjustments=adjustments,
        centre_chart=chart,
        next_phase=next_phase,
        next_deadline_text=next_deadline_text,
        game_over=bool(winner),
        winner=book.name(str(winner)) if winner else None,
        nmr=[book.name(p) for p in nmr_powers],
    )
