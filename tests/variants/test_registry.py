"""Issue 20.7: the variant registry. A variant is its folder: `variants/<name>/variant.toml`
declares its player-count set-ups and their names, its offer on the dashboard's new-game form
and the HELP section its players get; no Python file names a variant."""

from __future__ import annotations

import ast
import tomllib
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


def _declarations() -> dict[Path, dict[str, object]]:
    """Each variant folder's ``variant.toml``, read here as a newcomer would read it."""
    return {path.parent: tomllib.loads(path.read_text(encoding="utf-8"))
            for path in sorted(VARIANTS_DIR.glob("*/variant.toml"))}


def test_the_judges_variants_are_what_their_folders_declare() -> None:
    """The registry is the declarations (issue 27.6), not a list kept beside them: each folder's name,
    one name a named set-up, its powers and its player count; the offer of each name that is
    offered; the HELP section of every name of a folder that declares one."""
    declared = _declarations()
    names: list[str] = []
    offers = {offer.name: offer for offer in offered_variants()}
    for folder, data in declared.items():
        names.append(str(data.get("name", folder.name)))
        help_file = data.get("help")
        help_text = (folder / str(help_file)).read_text(encoding="utf-8").rstrip("\n") if help_file else None
        own = data.get("offer") or {}
        assert isinstance(own, dict)
        if own.get("offered", True):
            assert offers[folder.name].title == own.get("title", data.get("title", folder.name)), folder.name
        setups = data.get("setups") or {}
        assert isinstance(setups, dict)
        for setup in setups.values():
            if "name" not in setup:
                continue
            name = str(setup["name"])
            names.append(name)
            variant = load_variant(name)
            assert variant_folder(name) == folder
            if "powers" in setup:
                assert variant.power_ids == tuple(setup["powers"]), name
            if "players" in setup:
                assert len(variant.powers) == setup["players"], name
            if "victory_centres" in setup:
                assert variant.victory_centres == setup["victory_centres"], name
            offer = setup.get("offer") or {}
            if offer.get("offered", True):
                assert offers[name].title == offer.get("title", setup.get("title", data.get("title"))), name
                assert offers[name].description == offer.get("description", ""), name
        for name in [folder.name, *(str(setup["name"]) for setup in setups.values() if "name" in setup)]:
            assert variant_help(name) == help_text, name
    assert available() == sorted(names)
    assert list(offers) == [*(name for name in available()
                              if name in offers), "dod3"] and all(offer.description for offer in offers.values())


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


def test_a_map_drawn_for_another_variant_is_refused(minor: Path) -> None:
    """Issue 27.6: a folder's ``map.json`` says which variant it draws; one copied from another folder
    is refused, not drawn as this variant's map."""
    from app.maps.drawing import DrawingError, load_drawing

    (minor / "map.json").write_text((VARIANTS_DIR / "standard" / "map.json").read_text(encoding="utf-8"),
                                    encoding="utf-8")
    load_drawing.cache_clear()
    try:
        with pytest.raises(DrawingError, match="variants/minor/map.json is drawn for 'standard', not 'minor'"):
            load_drawing("minor7")
        assert load_drawing("standard").variant == "standard"  # its own folder's drawing
    finally:
        load_drawing.cache_clear()


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
