"""Issue 9.9: HELP explains the A/F orders in Small World games only; issue 20.7: the section is
the one the variant's folder declares."""

from __future__ import annotations

from pathlib import Path

import pytest

import app.variants as variants
from app.variants import VARIANTS_DIR
from tests.server.conftest import Harness


def test_help_in_a_small_world_game_explains_the_af_orders(harness: Harness) -> None:
    harness.send("gm@example.com", "CREATE swh masterpw smallworld\nSET REMINDER 0\nSIGNOFF")
    harness.send("gm@example.com", "SIGNON master@swh masterpw\nHELP")
    text = harness.last_reply("gm@example.com")
    for words in ("boards F", "disembarks", "Fast Ferry", "A/F", "F Peking - Yellow Sea", "retreats with your Winter"):
        assert words in text, words


def test_help_elsewhere_has_no_af_orders(harness: Harness) -> None:
    harness.send("gm@example.com", "CREATE sth masterpw standard\nSET REMINDER 0\nSIGNOFF")
    harness.send("gm@example.com", "SIGNON master@sth masterpw\nHELP")
    assert "disembarks" not in harness.last_reply("gm@example.com")
    harness.send("x@example.com", "HELP")
    assert "disembarks" not in harness.last_reply("x@example.com")


def test_help_comes_from_the_variant_folder_not_its_name(harness: Harness, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20.7: a variant declares its HELP section in its folder (`help = "help.txt"`);
    a new folder with one gets it in HELP, with no code naming it."""
    standard = (VARIANTS_DIR / "standard" / "variant.toml").read_text(encoding="utf-8")
    folder = tmp_path / "ferryland"
    folder.mkdir()
    (folder / "variant.toml").write_text(
        standard.replace('name = "standard"', 'name = "ferryland"\nhelp = "orders.txt"\nhooks = ["army_fleet"]', 1),
        encoding="utf-8")
    (folder / "orders.txt").write_text("Ferryland orders:\n  A York boards F North Sea\n", encoding="utf-8")
    monkeypatch.setattr(variants, "VARIANTS_DIR", tmp_path)
    harness.send("gm@example.com", "CREATE fly masterpw ferryland\nSET REMINDER 0\nSIGNOFF")
    harness.send("gm@example.com", "SIGNON master@fly masterpw\nHELP")
    text = harness.last_reply("gm@example.com")
    assert "Ferryland orders:\n  A York boards F North Sea" in text
    assert "disembarks" not in text  # Small World's section is Small World's
