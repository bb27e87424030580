"""Rule options and variant hooks are checked values: unknown names or values are
refused at variant load and when a game sets a rule (SET RULE), with the valid list."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from app.engine.hooks import Hook, UnknownHook, check_hooks
from app.engine.rules import (
    AdjacentConvoy,
    CivilDisorderRemoval,
    Edition,
    RemovalDefault,
    RuleOptionError,
    rule_options,
    valid_values,
)
from app.engine.variant import with_game_rules
from app.variants import VARIANTS_DIR, load_game_variant, load_variant, variant_from_data


def _standard_data() -> dict[str, Any]:
    with (VARIANTS_DIR / "standard" / "variant.toml").open("rb") as handle:
        return tomllib.load(handle)


BAD_OPTIONS = [
    ({"civil_disorder_removal": "farthest_typo"},
     "civil_disorder_removal must be one of: owned_any_terrain, home_by_unit (got 'farthest_typo')"),
    ({"retreat_to_convoy_origin": "off"}, "retreat_to_convoy_origin must be one of: true, false (got 'off')"),
    ({"adjacent_convoy": True}, "adjacent_convoy must be one of: intent, opposite (got True)"),
    ({"paradox_rule": "pandin"}, "paradox_rule must be one of: szykman (got 'pandin')"),
    ({"retreat_default": "left_hand"}, "retreat_default must be one of: disband, right_hand (got 'left_hand')"),
    ({"removal_default": "random"}, "removal_default must be one of: civil_disorder, least_impact (got 'random')"),
    ({"nmr_builds": "build"}, "nmr_builds must be one of: waive (got 'build')"),
    ({"edition": "1999"}, "edition must be one of: 2023, 2000, 1982, 1976, 1971 (got '1999')"),
    ({"retreat_defualt": "disband"}, "unknown rule options: retreat_defualt"),
]


@pytest.mark.parametrize(("rules", "message"), BAD_OPTIONS)
def test_variant_load_refuses_bad_rule_options(rules: dict[str, Any], message: str) -> None:
    data = _standard_data()
    data["rules"] = {**data.get("rules", {}), **rules}
    with pytest.raises(RuleOptionError) as error:
        variant_from_data(data)
    assert message in str(error.value)


@pytest.mark.parametrize(("rules", "message"), [*BAD_OPTIONS, ({"victory_groups": "yes"},
                                                               "victory_groups must be one of: true, false")])
def test_game_rules_refuse_bad_options(rules: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleOptionError) as error:
        with_game_rules(load_variant("standard"), rules)
    assert message in str(error.value)
    with pytest.raises(ValueError):  # the SET RULE path catches ValueError
        load_game_variant("smallworld8", rules)


def test_unknown_game_option_lists_every_option() -> None:
    with pytest.raises(RuleOptionError) as error:
        with_game_rules(load_variant("standard"), {"civil_disorder": "x"})
    for name in ("edition", "civil_disorder_removal", "retreat_to_convoy_origin", "victory_groups"):
        assert name in str(error.value)


def test_good_options_become_typed_values() -> None:
    variant = load_game_variant("standard", {"edition": "1971", "removal_default": "least_impact"})
    assert variant.rules.edition is Edition.E1971
    assert variant.rules.adjacent_convoy is AdjacentConvoy.OPPOSITE
    assert variant.rules.removal_default is RemovalDefault.LEAST_IMPACT
    assert variant.rules.retreat_to_convoy_origin is False
    assert rule_options({"civil_disorder_removal": "home_by_unit"}).civil_disorder_removal is (
        CivilDisorderRemoval.HOME_BY_UNIT
    )
    assert rule_options({"edition": 1976}).edition is Edition.E1976
    assert load_game_variant("smallworld8", {"victory_groups": True}).victory_groups


def test_valid_values_are_listed() -> None:
    assert valid_values("retreat_to_convoy_origin") == ("true", "false")
    assert valid_values("adjacent_convoy") == ("intent", "opposite")


def test_variant_load_refuses_a_misspelt_hook() -> None:
    data = _standard_data()
    data["hooks"] = ["army_fleet", "fast_fery"]
    with pytest.raises(UnknownHook) as error:
        variant_from_data(data)
    assert "unknown hook 'fast_fery'" in str(error.value)
    assert "fast_ferry" in str(error.value)


def test_known_hooks_are_typed() -> None:
    assert check_hooks(["army_fleet", "fast_ferry"]) == (Hook.ARMY_FLEET, Hook.FAST_FERRY)
    assert set(load_variant("smallworld8").hooks.names) == {
        Hook.FAST_FERRY, Hook.ARMY_FLEET, Hook.NO_DISBAND_RETREAT, Hook.PROTECTED_CENTRES
    }
