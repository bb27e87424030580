"""What a power must order, as the judge counts it for lateness, reminders and early processing.

Two refinements over the engine's ``orderable``:

- a dislodged unit with nowhere to retreat is never "without orders" (issue 8.1): it is
  destroyed whatever happens, so it is left out of a retreat phase's units;
- a starting unit whose coast or type is still secret (Small World 6.1/6.2) is *undeclared*
  until its reveal phase is processed (issue 9.6): it is shown with its options, and an
  order for any of its options counts as its order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.services.ruleset import engine as game_engine
from app.services.ruleset.engine import GameState, Orderable, Variant, province_of, read_unit
from app.services.ruleset.phases import PhaseKind

__all__ = ["Undeclared", "needed", "public_units", "undeclared_units", "unit_label"]


@dataclass(frozen=True)
class Undeclared:
    """A starting unit not yet revealed: its province, the default the engine assumes, its options."""

    province: str
    default: str  # e.g. "A PEK"
    options: tuple[str, ...]  # e.g. ("A PEK", "F PEK")

    @property
    def label(self) -> str:
        """``A PEK or F PEK (undeclared)``"""
        return " or ".join(self.options) + " (undeclared)"


def undeclared_units(variant: Variant, state: GameState, power: str) -> dict[str, Undeclared]:
    """The power's secret starting units still standing as their default in their reveal phase."""
    out: dict[str, Undeclared] = {}
    for choice in variant.hidden_choices:
        if choice.power.upper() != power.upper() or variant.phase(choice.reveal_with) != state.phase:
            continue
        default = read_unit(choice.unit, variant)
        province = province_of(default.location)
        if state.units.get(province) != (choice.power, default):
            continue
        options = tuple(str(read_unit(option, variant)).upper() for option in choice.options)
        out[province.upper()] = Undeclared(province.upper(), str(default).upper(), options)
    return out


def public_units(variant: Variant, published: set[str], units: dict[str, list[str]]) -> dict[str, list[str]]:
    """Units as anyone may see them (`MAP`, the public page): a secret starting unit whose
    reveal phase is not among the ``published`` phase codes is shown with its options,
    ``A PEK or F PEK (undeclared)``, as its picture shows ``?`` (Small World 6.1/6.2)."""
    secret: dict[tuple[str, str], Undeclared] = {}
    for choice in variant.hidden_choices:
        if str(variant.phase(choice.reveal_with)) in published:
            continue
        default = str(read_unit(choice.unit, variant)).upper()
        options = tuple(str(read_unit(option, variant)).upper() for option in choice.options)
        secret[(choice.power.upper(), default)] = Undeclared(province_of(default.split()[-1]), default, options)
    if not secret:
        return units
    return {power: [secret[(power.upper(), str(u).upper())].label if (power.upper(), str(u).upper()) in secret
                    else u for u in us] for power, us in units.items()}


def needed(variant: Variant, state: GameState, power: str) -> Orderable:
    """The engine's ``orderable``, less the dislodged units that have no retreat."""
    need = game_engine.order_need(variant, state, power)
    if need.kind is not PhaseKind.RETREAT:
        return need
    can_retreat = {str(d.unit).upper() for d in state.dislodged.values()
                   if d.power.upper() == power.upper() and d.retreats}
    return replace(need, units=tuple(u for u in need.units if str(u).upper() in can_retreat))


def unit_label(unit: str, hidden: dict[str, Undeclared]) -> str:
    """How a unit still without orders is shown: undeclared units with their options."""
    province = unit.split(" ", 1)[-1].split("/", 1)[0].upper()
    found = hidden.get(province)
    return found.label if found is not None and found.default == unit.upper() else unit
