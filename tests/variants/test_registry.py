"""Issue 20.7: the variant registry. A variant is its folder: `variants/<name>/variant.toml`
declares its player-count set-ups and their names, its offer on the dashboard's new-game form
and the HELP section its players get; no Python file names a variant."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import app.variants as variants
from app.maps import has_drawing
from app.services.games.settings import game_variants
from app.services.ruleset.catalogue import DOD3_OFFER, VariantOffer, offered_variants, variant_help
from app.variants import (
    VARIANTS_DIR,
    UnknownVariant,
    VariantDataError,
    available,
    load_variant,
    variant_folder,
)

APP = Path(__file__).resolve().parents[2] / "app"
STANDARD = (VARIANTS_DIR / "standard" / "variant.toml").read_text(encoding="utf-8")
HELP = "Minor orders:\n  A YOR - LON\n  (a duel is two powers)"


def _minor_toml(header: str = "", setups: str = "") -> str:
    """Standard's map and rules under another name, with the declarations given."""
    body = STANDARD[STANDARD.index("[rules]"):]
    return f'name = "minor"\ntitle = "Minor Diplomacy"\nstart_phase = "S1901M"\nvictory_centres = 18\n{header}\n{body}\n{setups}'


MINOR_HEADER = 'help = "help.txt"\n\n[offer]\noffered = false\n'
MINOR_SETUPS = """
[setups.full]
name = "minor7"
offer = { title = "Minor, seven players", description = "All seven powers." }

[setups.duel]
name = "minor2"
title = "Minor duel"
powers = ["ENGLAND", "FRANCE"]
victory_centres = 10
"""


@pytest.fixture
def minor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A variants directory with standard and a new folder `minor`, written as data only."""
    (tmp_path / "standard").symlink_to(VARIANTS_DIR / "standard", target_is_directory=True)
    folder = tmp_path / "minor"
    folder.mkdir()
    (folder / "variant.toml").write_text(_minor_toml(MINOR_HEADER, MINOR_SETUPS), encoding="utf-8")
    (folder / "help.txt").write_text(HELP + "\n", encoding="utf-8")
    monkeypatch.setattr(variants, "VARIANTS_DIR", tmp_path)
    return folder


def test_a_new_variant_folder_is_all_a_new_variant_needs(minor: Path) -> None:
    assert available() == ["minor", "minor2", "minor7", "standard"]
    duel = load_variant("minor2")
    assert duel.power_ids == ("ENGLAND", "FRANCE") and duel.victory_centres == 10 and duel.title == "Minor duel"
    assert len(load_variant("minor7").powers) == 7
    assert load_variant("minor").power_ids == load_variant("minor7").power_ids  # the first set-up
    assert variant_folder("minor2") == minor
    # the new-game form: the folder's own name is not offered, its set-ups are
    assert offered_variants() == (
        VariantOffer("minor2", "Minor duel", ""),
        VariantOffer("minor7", "Minor, seven players", "All seven powers."),
        VariantOffer("standard", "Standard Diplomacy", offered_variants()[2].description),
        DOD3_OFFER,
    )
    assert game_variants() == ("minor2", "minor7", "standard", "dod3")
    # HELP: every name of the folder gets its section; others none
    assert variant_help("minor2") == variant_help("minor") == HELP
    assert variant_help("standard") is None and variant_help("dod3") is None and variant_help(None) is None
    # the map drawing follows the folder: standard's is found, minor has none
    assert has_drawing("standard") and not has_drawing("minor7")


def test_the_judges_variants_declare_their_set_ups_offers_and_help() -> None:
    assert available() == ["smallworld", "smallworld7", "smallworld8", "standard", "zeus5"]
    assert len(load_variant("smallworld7").powers) == 7 and len(load_variant("smallworld8").powers) == 8
    offers = {offer.name: offer for offer in offered_variants()}
    assert list(offers) == [*available(), "dod3"]
    assert offers["smallworld7"].title == "Small World II-R, seven players"
    assert all(offer.description for offer in offers.values())
    for name in ("smallworld", "smallworld7", "smallworld8"):
        assert "A/F" in (variant_help(name) or ""), name
    assert variant_help("standard") is None and variant_help("zeus5") is None


BAD_DECLARATIONS = [
    ('help = "nowhere.txt"\n', "", "help = 'nowhere.txt' is not a file of the folder"),
    ('help = "../standard/variant.toml"\n', "", "is not a file of the folder"),
    ('[offer]\ntitel = "Minor"\n', "", "[offer] takes description, offered, title"),
    ('[offer]\noffered = "no"\n', "", "offered = true or false"),
    ("", '[setups.again]\nname = "standard"\n', "variant name 'standard' is declared twice"),
]


@pytest.mark.parametrize(("header", "setups", "message"), BAD_DECLARATIONS)
def test_wrong_declarations_are_refused_with_the_reason(
    minor: Path, header: str, setups: str, message: str
) -> None:
    (minor / "variant.toml").write_text(_minor_toml(header, setups), encoding="utf-8")
    with pytest.raises(VariantDataError) as error:
        available()
    assert message in str(error.value)


def test_a_folder_whose_name_is_not_its_variants_is_refused(minor: Path) -> None:
    minor.rename(minor.parent / "other")
    with pytest.raises(VariantDataError, match="name = 'minor', but the folder is 'other'"):
        available()


def test_an_unknown_name_is_no_variant(minor: Path) -> None:
    with pytest.raises(UnknownVariant, match="known: minor, minor2, minor7, standard"):
        load_variant("minor3")
    assert not has_drawing("minor3")


def _code_strings(path: Path) -> list[str]:
    """The string constants of a module that are not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_no_code_names_a_variant() -> None:
    """What a variant has comes from its folder: no module of app/ names a variant folder or
    set-up (as `_SETUP_NAMES` and `startswith("smallworld")` did), but `standard`, the default
    of CREATE."""
    names = [name for name in available() if name != "standard"]
    found = [(path.relative_to(APP).as_posix(), text) for path in sorted(APP.rglob("*.py"))
             for text in _code_strings(path) if any(name in text.lower() for name in names)]
    assert found == []


def test_a_folder_s_own_name_is_loaded_from_its_folder_alone(minor: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26.6: `judge adjudicate` starts with the variant it is asked for, reading no other
    folder's declarations (a set-up's name still goes through the registry)."""
    read: list[str] = []
    real = variants.tomllib.load

    def reading(handle: object) -> object:
        read.append(Path(str(getattr(handle, "name", ""))).parent.name)
        return real(handle)  # type: ignore[arg-type]

    monkeypatch.setattr(variants.tomllib, "load", reading)
    assert load_variant("standard").power_ids[0] == "AUSTRIA"
    assert read == ["standard"]
    assert load_variant("minor2").victory_centres == 10  # a set-up's name: the registry reads every folder
    assert sorted(set(read)) == ["minor", "standard"]
    with pytest.raises(UnknownVariant):
        load_variant("../standard")
