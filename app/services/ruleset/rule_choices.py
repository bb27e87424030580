"""The rule options a GM may choose on the dashboard (a new game, an override), with what each
means: the engine's own list of options and values, so a form never offers one it refuses."""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.rules import OPTION_NAMES, valid_values

__all__ = ["GAME_ONLY", "MEANINGS", "RuleChoice", "rule_choices"]

GAME_ONLY = ("victory_groups",)  # options a game sets that are not the engine's (docs/rules.md)

# What each option settles and what its values mean (docs/rules.md has the same table).
MEANINGS: dict[str, tuple[str, dict[str, str]]] = {
    "edition": ("the edition of the rules (sets every option below to that edition's)",
                {"2023": "DATC v3.0 defaults", "2000": "the 2000 rulebook", "1982": "the 1982 rulebook",
                 "1976": "the 1976 rulebook", "1971": "the 1971 rulebook"}),
    "civil_disorder_removal": ("which unit a power in civil disorder removes (DATC 4.D.8)",
                               {"owned_any_terrain": "farthest from any owned centre, over land and sea",
                                "home_by_unit": "farthest from a home centre, fleets by sea only"}),
    "adjacent_convoy": ("when an army may reach an adjacent province by convoy (DATC 4.A.3)",
                        {"intent": "when ordered 'via convoy' or its own fleet convoys it",
                         "opposite": "only when the unit there moves the opposite way"}),
    "retreat_to_convoy_origin": ("a unit dislodged by a convoyed army may retreat to the army's origin (DATC 4.A.5)",
                                 {"true": "it may", "false": "it may not"}),
    "paradox_rule": ("convoy paradoxes (DATC 4.A.2)",
                     {"szykman": "the convoying fleets of the paradox hold, the convoyed move fails"}),
    "retreat_default": ("what an unordered dislodged unit does",
                        {"disband": "it is disbanded", "right_hand": "it retreats by Just's Right-Hand Rule"}),
    "removal_default": ("removals a power owes but did not order",
                        {"civil_disorder": "the rulebook's distance rule",
                         "least_impact": "the least-impact choice (Small World 11.3)"}),
    "nmr_builds": ("builds a power did not order (DATC 4.D.7)", {"waive": "they are waived"}),
    "retreats_with_adjustments": ("Fall retreats ordered with the Winter adjustments, one phase (Small World 11.2)",
                                  {"true": "one phase", "false": "a retreat phase of its own"}),
    "victory_groups": ("the three-group victory rule of a variant that defines groups",
                       {"true": "on", "false": "off"}),
}


@dataclass(frozen=True)
class RuleChoice:
    name: str
    meaning: str
    values: tuple[tuple[str, str], ...]  # (value as SET RULE takes it, what it means)


def rule_choices(*, game_options: bool = True) -> tuple[RuleChoice, ...]:
    """Every rule option the engine takes (and, with ``game_options``, those a game sets), each
    with its valid values in the engine's order."""
    choices = []
    for name in (*OPTION_NAMES, *(GAME_ONLY if game_options else ())):
        meaning, value_meanings = MEANINGS[name]
        values = valid_values(name) if name in OPTION_NAMES else ("true", "false")
        choices.append(RuleChoice(name, meaning, tuple((v, value_meanings.get(v, "")) for v in values)))
    return tuple(choices)
