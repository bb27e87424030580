"""`judge map`: the JSON of `judge adjudicate` in, SVG or PNG out."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET

import pytest

from app import jsonapi
from app.cli import main
from tests.maps.test_render_grid import drawing_for, groups
from tests.maps.test_render_svg import png_size


@pytest.fixture(autouse=True)
def _drawings(monkeypatch):
    monkeypatch.setattr("app.maps.render.load_drawing", drawing_for)


def run(monkeypatch, capsys, data: object, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(data if isinstance(data, str) else json.dumps(data)))
    code = main(["map", *args])
    out, err = capsys.readouterr()
    return code, out, err


STATE = jsonapi.initial_state("standard")
ORDERS = {"FRANCE": ["A PAR - BUR", "A MAR - BUR"], "GERMANY": ["A MUN - RUH"]}


@pytest.mark.parametrize(
    ("data", "orders_drawn"),
    [
        ({"variant": "standard"}, 0),  # no units: the start position
        (STATE, 0),
        ({**STATE, "orders": ORDERS}, 22),  # adjudicated, then drawn with its results
        (jsonapi.adjudicate_request({**STATE, "orders": ORDERS}), 22),  # a result alone
        ({"variant": "smallworld7"}, 0),
        ({"variant": "zeus5", "phase": "W1939A"}, 0),
    ],
)
def test_judge_map_writes_well_formed_svg(monkeypatch, capsys, data, orders_drawn):
    code, out, err = run(monkeypatch, capsys, data)
    assert code == 0, err
    root = ET.fromstring(out)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(groups(root, "order")) == orders_drawn
    assert groups(root, "unit")


def test_a_result_alone_is_drawn_like_its_position_and_result(monkeypatch, capsys):
    result = jsonapi.adjudicate_request({**STATE, "orders": ORDERS})
    _, alone, _ = run(monkeypatch, capsys, result)
    _, request, _ = run(monkeypatch, capsys, {**STATE, "orders": ORDERS})
    assert alone == request


def test_judge_map_png_to_a_file(monkeypatch, capsys, tmp_path):
    target = tmp_path / "map.png"
    code, out, err = run(monkeypatch, capsys, {**STATE, "orders": ORDERS}, "--png", str(target), "--title", "demo")
    assert code == 0, err
    assert out == ""
    width, _ = png_size(target.read_bytes())
    assert width >= 1000


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "not JSON"),
        ([1, 2], "one JSON object"),
        ({"variant": "nope"}, "unknown variant"),
        ({"variant": "standard", "units": {"FRANCE": ["A XYZ"]}}, "bad unit"),
        ({"variant": "standard", "units": "A PAR"}, '"units" must map'),
        ({"variant": "standard", "orders": {"FRANCE": ["A PAR - BUR"]}, "phase": "S1901X"}, "not a phase"),
        ({"variant": "standard", "phase": "S1901M", "orders": [], "units": {}}, None),
    ],
)
def test_bad_input_gets_a_clear_answer(monkeypatch, capsys, data, message):
    code, out, err = run(monkeypatch, capsys, data)
    if message is None:  # an empty result is still a map
        assert code == 0 and ET.fromstring(out) is not None
        return
    assert code == 2
    assert out == ""
    assert message in err and err.startswith("judge map: ")


def test_png_width_below_1000_is_refused(monkeypatch, capsys, tmp_path):
    code, _, err = run(monkeypatch, capsys, STATE, "--png", str(tmp_path / "x.png"), "--width", "500")
    assert code == 2 and "at least 1000" in err


def test_a_winter_result_alone_is_drawn_like_its_position_and_result(monkeypatch, capsys):
    from tests.maps.test_render_orders import WINTER

    result = jsonapi.adjudicate_request(WINTER)
    _, alone, _ = run(monkeypatch, capsys, result)
    _, request, _ = run(monkeypatch, capsys, WINTER)
    assert alone == request
    assert "order-build" in alone and "order-remove" in alone


def test_a_retreat_result_alone_shows_its_retreats_and_disbands(monkeypatch, capsys):
    from tests.maps.test_render_orders import RETREATS

    code, out, err = run(monkeypatch, capsys, jsonapi.adjudicate_request(RETREATS))
    assert code == 0, err
    root = ET.fromstring(out)
    assert groups(root, "order-retreat") and groups(root, "order-disband")
    assert len(groups(root, "dislodged")) == 2
