"""Order checks that must not give a secret build site away (Zeus 5 rule 4).

While a build's site is still secret (after the build phase, up to and including the
phase whose results reveal it), another power's order naming the unit is checked
against every site the unit might stand in: accepted if it is legal with the unit in
any of them, refused only with the answer the first site gives. The answer is the
same wherever the unit really is; the real position decides at resolution.
"""

from __future__ import annotations

from .orders import Unit
from .state import GameState
from .variant import HiddenBuildRule, Variant


def _secret(variant: Variant, rule: HiddenBuildRule, state: GameState) -> bool:
    """The rule's build is made and its site not yet revealed in this phase."""
    return variant.phase(rule.phase).index < state.phase.index <= variant.phase(rule.reveal_after).index


def hidden_placements(variant: Variant, state: GameState, power: str) -> list[GameState]:
    """The positions `power` cannot tell apart: the real one and those with each secret
    unit moved to another of its possible sites, in the order of the sites (so the list
    is the same wherever the unit stands). `[state]` when nothing is hidden from `power`."""
    placements = [state]
    for rule in variant.hidden_builds:
        if rule.power == power or not _secret(variant, rule, state):
            continue
        standing = [s for s in rule.sites if state.units.get(s, ("", None))[0] == rule.power]
        if len(standing) != 1:  # built in every site (or none): nothing is hidden
            continue
        site = standing[0]
        _owner, unit = state.units[site]
        options = []
        for other in rule.sites:
            for position in placements:
                if other == site:
                    options.append(position)
                elif other not in position.units:
                    units = dict(position.units)
                    del units[site]
                    units[other] = (rule.power, Unit(unit.type, other))
                    options.append(position.evolve(units=units))
        placements = options or placements
    return placements

