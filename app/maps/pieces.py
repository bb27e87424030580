"""Units as the map shows them: what a player may see, never more.

A unit text is `A PAR`, `F STP/SC`, `A/F NTH`, or the public form of a secret build site,
`F NYK/CAL` (Zeus 5 rule 4). Small World's hidden starts (rules 6.1, 6.2) are drawn
without their coast or type until the orders that reveal them are published.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from app.engine.phases import Phase
from app.engine.variant import Variant

UNDECLARED = "?"  # a unit whose type (army or fleet) is still secret
TYPES = {"A": "A", "F": "F", "A/F": "AF", "AF": "AF"}


@dataclass(frozen=True)
class Piece:
    power: str  # power id, or NEUTRAL for a standing army
    type: str  # "A", "F", "AF", or UNDECLARED
    location: str  # "PAR", "SPA/SC"; the province alone when the coast is secret
    sites: tuple[str, ...] = ()  # several provinces when the build site is secret
    secret_coast: bool = False
    dislodged: bool = False
    retreats: tuple[str, ...] = ()  # where it may retreat; destroyed in a retreat standoff: where it tried to
    attacker: str | None = None  # where the dislodging attack came from
    mark: str = ""  # "", "built", "removed", "disbanded", "destroyed", "army_lost"

    @property
    def province(self) -> str:
        return self.location.split("/")[0]

    @property
    def secret_site(self) -> bool:
        return len(self.sites) > 1

    @property
    def public_text(self) -> str:
        word = {"AF": "A/F"}.get(self.type, self.type)
        if self.secret_site:
            return f"{word} {'/'.join(self.sites)}"
        return f"{word} {self.location}"


def parse_unit_text(text: str, variant: Variant) -> tuple[str, str, tuple[str, ...]] | None:
    """`F SPA/SC` -> ("F", "SPA/SC", ("SPA",)); `F NYK/CAL` -> ("F", "NYK", ("NYK", "CAL"));
    None when the text is not a unit on this map."""
    words = text.split()
    if len(words) != 2 or words[0].upper() not in TYPES:
        return None
    unit_type = TYPES[words[0].upper()]
    location = words[1].upper()
    province, _, rest = location.partition("/")
    provinces = variant.map.provinces
    if province not in provinces:
        return None
    if rest and rest in provinces and f"{province}/{rest}" not in provinces[province].coasts:
        sites = (province, *(s for s in rest.split("/") if s in provinces))
        return unit_type, province, sites
    return unit_type, location, (province,)


def piece(power: str, text: str, variant: Variant) -> Piece | None:
    parsed = parse_unit_text(text, variant)
    if parsed is None:
        return None
    unit_type, location, sites = parsed
    return Piece(power, unit_type, location, sites if len(sites) > 1 else ())


def pieces_of(units: dict[str, Any], variant: Variant) -> list[Piece]:
    """The units of a position or result (`{"FRANCE": ["A PAR", ...]}`)."""
    found = []
    for power, texts in (units or {}).items():
        for text in texts or ():
            drawn = piece(str(power).upper(), str(text), variant)
            if drawn is not None:
                found.append(drawn)
    return found


def public_units(units: dict[str, Any], hidden: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Units with each secret build shown in its public form (`F NYK` -> `F NYK/CAL`)."""
    swap = {str(h["unit"]): str(h["public"]) for h in hidden if h.get("unit") and h.get("public")}
    return {p: [swap.get(str(u), str(u)) for u in us] for p, us in (units or {}).items()}


def published_through(phase: Phase, *, results: bool) -> int:
    """The index (`Phase.index`) of the last phase whose results the map may show: the
    phase itself on its results map, the phase before on a map of the position."""
    return phase.index if results else phase.index - 1


def secret_builds(variant: Variant, units: dict[str, Any], published: int) -> list[dict[str, Any]]:
    """Builds whose site is still secret on a map showing results up to `published`
    (see `published_through`): the variant's `hidden_builds` rule, applied to the board
    itself, since a stored position no longer carries the result's `hidden` list."""
    hidden = []
    for rule in variant.hidden_builds:
        built, reveal = variant.phase(rule.phase), variant.phase(rule.reveal_after)
        if not (built.index <= published < reveal.index):
            continue
        sites = list(rule.sites)
        mine = [u for u in units.get(rule.power, []) if str(u).split()[-1].split("/")[0] in sites]
        if len(mine) == 1:  # both sites built: nothing to hide
            unit = str(mine[0])
            hidden.append({"unit": unit, "public": f"{unit.split()[0]} {'/'.join(sites)}"})
    return hidden


def undeclared(variant: Variant, pieces: list[Piece], published: int) -> list[Piece]:
    """Small World's hidden starts, drawn without the coast or type their power has not
    revealed yet (on a map showing results up to `published`)."""
    secret: dict[tuple[str, str], tuple[str, ...]] = {}
    for choice in variant.hidden_choices:
        if published >= variant.phase(choice.reveal_with).index:
            continue
        secret[(choice.power, choice.unit.upper())] = choice.options
    if not secret:
        return pieces
    out = []
    for drawn in pieces:
        options = secret.get((drawn.power, drawn.public_text))
        if options is None:
            out.append(drawn)
            continue
        types = {o.split()[0] for o in options}
        out.append(replace(
            drawn,
            type=drawn.type if len(types) == 1 else UNDECLARED,
            location=drawn.province,
            secret_coast=any("/" in o for o in options),
        ))
    return out
