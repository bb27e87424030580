"""The supply centres in the results: the judges' ownership block and adjustment table,
and the zine's centre chart. Counts are the engine's (an A/F is an army and a fleet)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.services.ruleset.powers import PowerBook

__all__ = ["CentreReport", "centre_owners", "centre_report", "projected_centres", "unit_count"]

Namer = Callable[[str], str]


def _wrap(text: str, width: int = 75, indent: str = "") -> list[str]:
    return textwrap.wrap(text, width=width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def unit_count(units: Sequence[str]) -> int:
    """Units as the adjustments count them: an A/F (``A/F NAO``) is an army and a fleet."""
    return sum(2 if str(u).upper().startswith("A/F ") else 1 for u in units)


def projected_centres(centres: Mapping[str, Sequence[str]], units: Mapping[str, Sequence[str]],
                      supply_centres: set[str]) -> dict[str, list[str]]:
    """The owners after a Fall turn: a unit standing on a centre takes it (the ownership the
    Winter adjustments will use, before the retreats)."""
    owner = {c.upper(): p.upper() for p, cs in centres.items() for c in cs}
    for power, power_units in units.items():
        for unit in power_units:
            province = str(unit).partition(" ")[2].split("/")[0].upper()
            if province in supply_centres:
                owner[province] = power.upper()
    result: dict[str, list[str]] = {}
    for centre, power in sorted(owner.items()):
        result.setdefault(power, []).append(centre)
    return result


@dataclass
class CentreReport:
    ownership: list[str] = field(default_factory=list)
    adjustments: list[str] = field(default_factory=list)
    chart: list[dict[str, Any]] = field(default_factory=list)


def _label(name: str) -> str:
    return f"{(name + ':').ljust(11)}"


def centre_report(book: PowerBook, names: Namer, centres: Mapping[str, Sequence[str]],
                  units: Mapping[str, Sequence[str]], supply_centres: set[str], *, show: bool,
                  winner: str | None, before: Mapping[str, int] | None) -> CentreReport:
    """``show``: print the ownership block and the adjustment table (an adjustment phase
    comes next, or the game is won); ``before``: centre counts the change column compares to."""
    report = CentreReport()
    owned_anywhere: set[str] = set()
    for pid in book.ids:
        owned = sorted(names(c) for c in centres.get(pid, []))
        owned_anywhere.update(c.upper() for c in centres.get(pid, []))
        count = len(owned)
        pieces = unit_count(units.get(pid, []))
        previous = (before or {}).get(pid, count)
        report.chart.append({"power": book.name(pid), "centres": count, "units": pieces,
                             "change": count - previous, "delta": count - pieces})
        if not show or (not owned and not pieces):
            continue
        report.ownership.extend(_wrap(f"{_label(book.name(pid))} {', '.join(owned)}.", 75, " " * 12)
                                if owned else [f"{_label(book.name(pid))} none."])
        diff = count - pieces
        word, n = ("Builds", diff) if diff >= 0 else ("Removes", -diff)
        line = (f"{_label(book.name(pid))} {count:>2} Supply centers, {pieces:>2} Units:  "
                f"{word} {n:>3} unit{'s' if n != 1 else ''}.")
        if winner and winner.upper() == pid:
            line += "  (* VICTORY!! *)"
        report.adjustments.append(line)
    unowned = sorted(names(c) for c in supply_centres - owned_anywhere)
    if show and unowned:
        report.ownership.extend(_wrap(f"{_label('Unowned')} {', '.join(unowned)}.", 75, " " * 12))
    return report


def _short(centre: str) -> str:
    """A centre as the zine writes it: ``Bel``, ``StP`` stays as the map's id, title-cased."""
    return centre.split("/")[0].title()


def centre_owners(book: PowerBook, after: Mapping[str, Sequence[str]], before: Mapping[str, Sequence[str]],
                  supply_centres: set[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """The zine's ownership: (power name, its centres) per power that owns any, then ``Unowned``;
    and what changed hands since ``before``: ``Bel F->E`` (the powers' letters; ``-`` is unowned; ASCII, as
    the whole text mail is)."""
    owner_after = {c.upper(): p.upper() for p, cs in after.items() for c in cs}
    owner_before = {c.upper(): p.upper() for p, cs in before.items() for c in cs}
    rows: list[tuple[str, str]] = []
    for pid in book.ids:
        owned = sorted(c for c, p in owner_after.items() if p == pid)
        if owned:
            rows.append((book.name(pid), " ".join(_short(c) for c in owned)))
    unowned = sorted(c for c in supply_centres if c not in owner_after)
    if unowned:
        rows.append(("Unowned", " ".join(_short(c) for c in unowned)))

    def letter(pid: str | None) -> str:
        return book.letter(pid) if pid else "-"

    changes = [f"{_short(c)} {letter(owner_before.get(c))}->{letter(owner_after.get(c))}"
               for c in sorted(set(owner_after) | set(owner_before)) if owner_after.get(c) != owner_before.get(c)]
    return rows, changes
