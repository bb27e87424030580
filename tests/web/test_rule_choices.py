"""Issue 21, item 8: the rule-option fields offer the options the engine takes, with their meaning
(the override form suggested `convoy_paradox`, which is refused)."""

from __future__ import annotations

import re

import pytest

from app.engine.rules import OPTION_NAMES, check_option
from app.services.ruleset.rule_choices import GAME_ONLY, rule_choices
from tests.web.conftest import GM, GM_PASSWORD, World, signed_in


def _select(html: str, name: str) -> str:
    found = re.search(rf'<select id="{name}" name="{name}">(.*?)</select>', html, re.S)
    assert found, f"no select {name}"
    return found.group(1)


def test_every_offered_value_is_one_the_engine_takes() -> None:
    choices = rule_choices()
    assert [c.name for c in choices] == [*OPTION_NAMES, *GAME_ONLY]
    for choice in choices:
        assert choice.meaning and choice.values
        for value, _meaning in choice.values:
            if choice.name in OPTION_NAMES:
                check_option(choice.name, value if value not in ("true", "false") else value == "true")


@pytest.mark.parametrize("path", ["/games/alpha/phases/S1901M", "/games/new"])
def test_the_forms_offer_the_real_options_with_their_meaning(world: World, path: str) -> None:
    page = signed_in(world, GM, GM_PASSWORD).get(path)
    assert page.status_code == 200
    options = _select(page.text, "rule_option")
    offered = re.findall(r'<option value="([^"]*)"', options)
    assert offered == ["", *OPTION_NAMES, *GAME_ONLY]
    assert "convoy_paradox" not in page.text
    assert "retreat_default: what an unordered dislodged unit does" in options
    values = _select(page.text, "rule_value")
    assert '<optgroup label="retreat_default">' in values and "right_hand: it retreats by Just" in values


def test_an_override_preview_with_a_chosen_option_is_taken(world: World) -> None:
    client = signed_in(world, GM, GM_PASSWORD)
    page = client.get("/games/alpha/phases/S1901M")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert token
    response = client.post("/games/alpha/phases/S1901M/override",
                           data={"csrf_token": token.group(1), "action": "preview",
                                 "rule_option": "retreat_to_convoy_origin", "rule_value": "false"})
    assert response.status_code == 200, response.text[-2000:]
    assert 'value="retreat_to_convoy_origin" selected' in response.text
