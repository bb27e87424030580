"""The names of the optional rule modules a variant may switch on in its data.

A variant names the modules it uses (`hooks = ["army_fleet", ...]`); a name not in `Hook`
is refused when the variant is loaded, so a misspelt hook is never silently ignored.
`modules.rule_hooks` turns the names into the `RuleHooks` object the variant carries
(`Variant.hooks`, variant.py): the adjudicator calls it at each point where a module may
change the game, and never asks whether a module is switched on.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


class Hook(StrEnum):
    ARMY_FLEET = "army_fleet"  # the Army/Fleet module (armyfleet.py; Small World rule 10)
    FAST_FERRY = "fast_ferry"  # a convoy crosses one sea only; own ferries take armies aboard (rule 9)
    NO_DISBAND_RETREAT = "no_disband_retreat"  # a unit with a retreat may not disband (rule 11.1)
    PROTECTED_CENTRES = "protected_centres"  # provinces with `no_attack_before` (rule 5.1)


class UnknownHook(ValueError):
    """Variant data names a hook the engine does not have."""


def check_hooks(names: Iterable[object]) -> tuple[Hook, ...]:
    """The hooks named in variant data, each checked against the registry."""
    hooks = []
    for name in names:
        try:
            hooks.append(Hook(str(name)))
        except ValueError:
            known = ", ".join(h.value for h in Hook)
            raise UnknownHook(f"unknown hook {name!r}; hooks: {known}") from None
    return tuple(hooks)
