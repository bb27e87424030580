"""A quick raster preview of a generated map.json (needs Pillow; a development aid only).

Usage: python tools/mapgen/preview.py standard /tmp/standard.png
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[2]
NAMES: dict[str, str] = {}
FILL = {"sea": (170, 200, 235), "land": (235, 220, 180), "coast": (225, 210, 165), "impassable": (150, 150, 150)}


def main(name: str, out: str, scale: float = 1.0) -> None:
    data = json.loads((ROOT / "variants" / name / "map.json").read_text())
    import tomllib

    variant = tomllib.loads((ROOT / "variants" / name / "variant.toml").read_text())
    NAMES.update({pid: info["name"] for pid, info in variant["provinces"].items()})
    w, h = int(data["width"] * scale), int(data["height"] * scale)
    image = Image.new("RGB", (w, h), (255, 255, 255))
    draw = ImageDraw.Draw(image)

    def pts(ring: list[list[float]]) -> list[tuple[float, float]]:
        return [(x * scale, y * scale) for x, y in ring]

    for info in data["provinces"].values():
        for polygon in info["shape"]:
            draw.polygon(pts(polygon[0]), fill=FILL[info["kind"]], outline=(60, 60, 60))
            for hole in polygon[1:]:
                draw.polygon(pts(hole), fill=(255, 255, 255), outline=(60, 60, 60))
    for crossing in data["crossings"]:
        draw.line(pts(crossing["line"]), fill=(200, 0, 0), width=3)
    for pid, info in data["provinces"].items():
        x, y = info["label"]
        draw.text((x * scale - 9, y * scale - 5), pid, fill=(0, 0, 0))
        if "name_label" in info:
            nx_, ny_ = info["name_label"]
            draw.text((nx_ * scale, ny_ * scale), NAMES.get(pid, pid), fill=(90, 90, 90), anchor="mm")
        ux, uy = info["unit"]
        draw.rectangle((ux * scale - 3, uy * scale - 3, ux * scale + 3, uy * scale + 3), outline=(0, 0, 160))
        if "centre" in info:
            cx, cy = info["centre"]
            draw.ellipse((cx * scale - 4, cy * scale - 4, cx * scale + 4, cy * scale + 4), outline=(160, 0, 0))
        for coast, c in info.get("coasts", {}).items():
            cx, cy = c["unit"]
            draw.rectangle((cx * scale - 3, cy * scale - 3, cx * scale + 3, cy * scale + 3), fill=(0, 120, 0))
            lx, ly = c["label"]
            draw.text((lx * scale - 5, ly * scale - 5), coast.lower(), fill=(0, 100, 0))
    image.save(out)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 1.0)
