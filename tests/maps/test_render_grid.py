"""A throwaway drawing for the renderer's tests: every province a square on a grid.

Never variant data: it only lets the renderer be tested on any variant without depending
on the real drawings' geography."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache
from typing import Any

from app.maps import Drawing, DrawingError, drawing_from_data, load_drawing
from app.variants import load_variant

CELL = 100


@cache
def grid_drawing(variant_name: str) -> Drawing:
    variant = load_variant(variant_name)
    provinces = {}
    columns = 12
    for i, (pid, province) in enumerate(sorted(variant.map.provinces.items())):
        x, y = (i % columns) * CELL, (i // columns) * CELL
        entry: dict[str, Any] = {
            "kind": province.terrain.value,
            "shape": [[[[x, y], [x + CELL, y], [x + CELL, y + CELL], [x, y + CELL]]]],
            "label": [x + 50, y + 15],
            "name_label": [x + 50, y + 88],
            "unit": [x + 35, y + 50],
        }
        if province.centre:
            entry["centre"] = [x + 75, y + 50]
        if province.coasts:
            entry["coasts"] = {
                c.split("/")[1]: {"unit": [x + 30 + 40 * k, y + 68], "label": [x + 30 + 40 * k, y + 32]}
                for k, c in enumerate(province.coasts)
            }
        provinces[pid] = entry
    rows = -(-len(provinces) // columns)
    return drawing_from_data({"format": 1, "variant": variant_name, "width": columns * CELL, "height": rows * CELL,
                              "provinces": provinces})


def test_grid_drawing_has_every_province_of_every_variant() -> None:
    for name in ("standard", "zeus5", "smallworld8"):
        assert set(grid_drawing(name).provinces) == set(load_variant(name).map.provinces)


def drawing_for(variant_name: str) -> Drawing:
    """The variant's real drawing once it exists, else the grid."""
    try:
        return load_drawing(variant_name)
    except DrawingError:
        return grid_drawing(variant_name)


SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classes(element: ET.Element) -> set[str]:
    return set((element.get("class") or "").split())


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    """Every element whose class list holds `cls`."""
    return [e for e in root.iter() if cls in classes(e)]


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def title_of(element: ET.Element) -> str:
    found = element.find(f"{SVG}title")
    return found.text or "" if found is not None else ""
