"""The editor with the constraint rules (killer cages, kropki dots, thermometers...): the
``constraints`` field round-trips through every endpoint and the layout draws each mark."""

from __future__ import annotations

from typing import Any

import pytest

from sudoku_model import Shape
from sudoku_model.editor import EditorService, decode_puzzle, encode_puzzle, layout
from sudoku_model.rule_marks import rule_marks
from tests.datafiles import data_file

KILLER_CSV = data_file("killer-generated.csv")

#: A 4x4 killer (solution 1234/3412/2143/4321) with one black and one white kropki dot and
#: one given: unique with the dots, several solutions without them.
CAGES = [
    (["r1c1", "r2c1"], 4),
    (["r1c2", "r1c3"], 5),
    (["r1c4", "r2c4"], 6),
    (["r2c2", "r2c3"], 5),
    (["r3c1", "r4c1"], 6),
    (["r3c2", "r3c3", "r4c2"], 8),
    (["r3c4", "r4c4"], 4),
    (["r4c3"], 2),
]
KILLER = {"type": "killer", "cages": [{"cells": c, "sum": s} for c, s in CAGES]}
KROPKI = {"type": "kropki", "white": [["r1c3", "r1c4"]], "black": [["r1c1", "r1c2"]]}
GIVENS = [0] * 16
GIVENS[9] = 1  # r3c2


def small(*constraints: dict[str, Any]) -> dict[str, Any]:
    return {"size": 4, "constraints": list(constraints), "givens": list(GIVENS)}


@pytest.fixture(scope="module")
def service() -> EditorService:
    return EditorService()


def ok(service: EditorService, endpoint: str, payload: dict[str, Any]) -> dict[str, Any]:
    reply = service.handle(endpoint, payload)
    assert reply.status == 200, reply.json
    assert reply.json is not None
    return reply.json


def test_killer_kropki_counts_and_round_trips(service: EditorService) -> None:
    assert ok(service, "status", {"puzzle": small(KILLER, KROPKI)})["count_text"] == "1"
    # the dots are rules, not decoration: without them the count changes
    assert ok(service, "status", {"puzzle": small(KILLER)})["count_text"] == "at least 2"
    edit = decode_puzzle(small(KILLER, KROPKI))
    again = decode_puzzle(encode_puzzle(edit.puzzle))
    assert again.rules == edit.rules and again.givens == edit.givens
    solved = ok(service, "solve", {"puzzle": small(KILLER, KROPKI)})
    assert solved["status"] == "solved"
    assert solved["values"] == [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    saved = ok(service, "save", {"puzzle": small(KILLER, KROPKI), "format": "json"})
    loaded = ok(service, "load", {"text": saved["text"]})
    assert decode_puzzle(loaded["puzzle"]).rules == edit.rules
    warned = ok(service, "save", {"puzzle": small(KILLER, KROPKI), "format": "line"})
    assert "killer" in warned["warning"]


def test_layout_has_a_cage_per_cage_and_the_dots() -> None:
    rules = decode_puzzle(small(KILLER, KROPKI)).rules
    decorations = layout(rules)["decorations"]
    cages = [d for d in decorations if d["kind"] == "cage"]
    shape = Shape(2, 2)
    want = [
        (sorted(shape.cell(int(c[1]) - 1, int(c[3]) - 1) for c in cells), str(s))
        for cells, s in CAGES
    ]
    assert [(d["cells"], d["text"]) for d in cages] == want
    dots = [(d["style"], d["cells"]) for d in decorations if d["kind"] == "dot"]
    assert sorted(dots) == [("black", [0, 1]), ("white", [2, 3])]
    assert not [d for d in decorations if d["kind"] == "caption"]


def test_every_mark_becomes_a_decoration_or_a_caption() -> None:
    constraints = [
        {"type": "thermometer", "lines": [["r1c1", "r1c2", "r1c3"]]},
        {"type": "arrow", "arrows": [{"circle": ["r2c1"], "shaft": ["r2c2", "r2c3"]}]},
        {"type": "xv", "x": [], "v": [["r3c1", "r3c2"]]},
        {"type": "greater-than", "pairs": [["r4c2", "r4c1"]]},
        {"type": "even-odd", "even": ["r4c4"], "odd": ["r4c3"]},
        {"type": "sandwich", "rows": [None, 3, None, None], "columns": [None] * 4},
        {"type": "non-consecutive"},
    ]
    rules = decode_puzzle({"size": 4, "constraints": constraints, "givens": [0] * 16}).rules
    got = {(d["kind"], d.get("style"), d.get("text")) for d in layout(rules)["decorations"]}
    assert ("line", "thermo", None) in got and ("line", "arrow", None) in got
    assert ("edge", None, "V") in got and ("edge", "greater", "<") in got  # r4c1 < r4c2
    assert ("shade", "even", None) in got and ("shade", "odd", None) in got
    assert ("outside", None, "3") in got
    captions = [t for k, _, t in got if k == "caption"]
    assert captions == list(rule_marks(rules).captions) and "non-consecutive" in captions[0]


def test_a_killer_from_the_killer_csv_loads_counts_and_draws(service: EditorService) -> None:
    lines = KILLER_CSV.read_text().splitlines()[:2]
    loaded = ok(service, "load", {"text": "\n".join(lines) + "\n", "name": KILLER_CSV.name})
    puzzle = loaded["puzzle"]
    cages = puzzle["constraints"][0]["cages"]
    assert puzzle["constraints"][0]["type"] == "killer" and len(cages) > 20
    drawn = [d for d in loaded["layout"]["decorations"] if d["kind"] == "cage"]
    assert [d["text"] for d in drawn] == [str(c["sum"]) for c in cages]
    # a budget far above the live count's 2 s, so that a loaded machine cannot make it unknown
    status = ok(service, "status", {"puzzle": puzzle, "budget_seconds": 60})
    assert (status["count_text"], status["verdict"]) == ("1", "unique")
    assert status["solution"] == loaded["solution"]
    hint = ok(service, "hint", {"puzzle": puzzle})
    assert hint["step"]["technique"]


def test_generate_keeps_the_constraints(service: EditorService) -> None:
    made = ok(service, "generate", {"size": 4, "constraints": [KILLER], "seed": 1})
    assert made["puzzle"]["constraints"] == [KILLER]
    assert [d["text"] for d in made["layout"]["decorations"] if d["kind"] == "cage"] == [
        str(s) for _, s in CAGES
    ]
    status = ok(service, "status", {"puzzle": made["puzzle"]})
    assert status["count_text"] == "1" and status["solution"] == made["solution"]
