"""Order results as marks on the map: the engine's normalized orders (`A PAR - BUR`,
`F NTH C LON - BEL`, `BUILD F NYK/CAL`...) read back into small typed values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, CONVOY = "hold", "move", "support-hold", "support-move", "convoy"
BOARD, LAND, RETREAT, DISBAND, BUILD, REMOVE, WAIVE = "board", "land", "retreat", "disband", "build", "remove", "waive"
KINDS = (HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, CONVOY, BOARD, LAND, RETREAT, DISBAND, BUILD, REMOVE, WAIVE)
UNIT_WORDS = ("A", "F", "A/F")


@dataclass(frozen=True)
class OrderMark:
    kind: str
    power: str
    unit: str  # the unit as written in the order, `A PAR`; empty for WAIVE
    path: tuple[str, ...]  # locations the mark points at (see `read_order`)
    ok: bool
    reason: str = ""

    @property
    def province(self) -> str:
        return self.unit.split()[-1].split("/")[0] if self.unit else ""


def read_order(text: str) -> tuple[str, str, tuple[str, ...]] | None:
    """(kind, unit, path) of a normalized order; None for anything else.

    path: move and retreat (target,); land (via, target) or (target,); support-hold
    (supported,); support-move and convoy (from, to); board (fleet,); others ()."""
    words = text.replace("->", "-").split()
    if not words:
        return None
    head = words[0].upper()
    if head == "WAIVE":
        return WAIVE, "", ()
    if head in ("BUILD", "REMOVE") and len(words) == 3 and words[1] in UNIT_WORDS:
        return (BUILD if head == "BUILD" else REMOVE), f"{words[1]} {words[2]}", ()
    if head not in UNIT_WORDS or len(words) < 3:
        return None
    unit, verb, rest = f"{head} {words[1].upper()}", words[2].upper(), [w.upper() for w in words[3:] if w.upper() != "VIA"]
    if verb == "H" and not rest:
        return HOLD, unit, ()
    if verb == "D" and not rest:
        return DISBAND, unit, ()
    if verb == "R" and len(rest) == 1:
        return RETREAT, unit, (rest[0],)
    if verb == "BOARDS" and len(rest) == 2:
        return BOARD, unit, (rest[1],)
    if verb == "-":
        targets = tuple(w for w in rest if w != "-")
        if len(targets) == 1:
            return MOVE, unit, targets
        if len(targets) == 2 and head == "A/F":
            return LAND, unit, targets
        return None
    if verb in ("S", "C"):
        if rest and rest[0] in UNIT_WORDS:
            rest = rest[1:]
        if len(rest) == 1 and verb == "S":
            return SUPPORT_HOLD, unit, (rest[0],)
        if len(rest) == 3 and rest[1] == "-":
            return (SUPPORT_MOVE if verb == "S" else CONVOY), unit, (rest[0], rest[2])
    return None


def order_marks(result: dict[str, Any]) -> list[OrderMark]:
    """One mark per understood order of a result; void orders get none (the results
    text lists them). An A/F moving ashore through a sea is a landing."""
    marks = []
    for entry in result.get("orders") or []:
        if not isinstance(entry, dict) or str(entry.get("result")) == "invalid":
            continue
        read = read_order(str(entry.get("normalized") or ""))
        if read is None:
            continue
        kind, unit, path = read
        ok = str(entry.get("result")) == "succeeds"
        marks.append(OrderMark(kind, str(entry.get("power", "")).upper(), unit, path, ok, str(entry.get("reason") or "")))
    return marks
