"""Pencilmark puzzles in the editor: the wire's ``candidates`` field (decode, encode,
bad input), loading a 729-character line, the live count and saving, without a browser;
and the page drawing and editing candidate clues in chromium (skipped without one)."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from sudoku_model import Puzzle, RuleSet, Shape, get_backend
from sudoku_model.editor import EditorService, decode_puzzle, encode_puzzle, layout
from sudoku_model.editor.wire import ApiError
from sudoku_model.formats.pencilmark import format_pencilmark_line


@cache
def minimal_pencilmark() -> Puzzle:
    """A unique minimal 9x9 pencilmark puzzle (seeded): restoring any candidate it
    eliminates makes it multiple."""
    from sudoku_model.generate.pencilmark import generate_pencilmark

    rules = RuleSet.classic(Shape(3, 3))
    return generate_pencilmark(rules, seed=5, backend=get_backend("native")).puzzle


def restricted_cell(puzzle: Puzzle) -> tuple[int, int]:
    """A cell with 2..n-2 candidates and a digit it does not list (restoring it leaves
    the cell restricted)."""
    for cell, digits in enumerate(puzzle.candidates):
        if not puzzle.givens.values[cell] and 1 < len(digits) < puzzle.size - 1:
            return cell, min(set(range(1, puzzle.size + 1)) - digits)
    raise AssertionError("no such cell")


def ok(service: EditorService, endpoint: str, payload: dict[str, Any]) -> dict[str, Any]:
    reply = service.handle(endpoint, payload)
    assert reply.status == 200, reply.json
    assert reply.json is not None
    return reply.json


def test_the_wire_carries_candidates_both_ways() -> None:
    puzzle = minimal_pencilmark()
    obj = encode_puzzle(puzzle)
    assert len(obj["candidates"]) == 81
    for cell, digits in enumerate(puzzle.candidates):
        expected = [] if puzzle.givens.values[cell] or len(digits) == 9 else sorted(digits)
        assert obj["candidates"][cell] == expected
    back = decode_puzzle(obj).puzzle
    assert back.candidates == puzzle.candidates and back.givens == puzzle.givens
    # a plain puzzle has no candidates field; all n digits, or none, is no restriction
    assert "candidates" not in encode_puzzle(Puzzle.parse("1.3..4.2.1.3..2."))
    plain = decode_puzzle({"size": 4, "givens": [0] * 16, "candidates": [[1, 2, 3, 4]] * 16})
    assert not plain.puzzle.is_pencilmark
    # the page draws candidates in the cells: the layout pictures no candidates rule
    texts = [d.get("text", "") for d in layout(puzzle.rules)["decorations"]]
    assert not any("candidates" in t for t in texts), texts


@pytest.mark.parametrize(
    "candidates, says",
    [
        ("12", "must be a list of 81"),
        ([[1]] * 80, "must be a list of 81"),
        ([[0]] + [[]] * 80, "cell r1c1 must list digits 1..9"),
        ([[1, 10]] + [[]] * 80, "cell r1c1 must list digits 1..9"),
        ([[2, 2]] + [[]] * 80, "lists a digit twice"),
        ([[True]] + [[]] * 80, "must list digits"),
        ([["1"]] + [[]] * 80, "must list digits"),
    ],
)
def test_bad_candidates_are_refused_naming_the_field(candidates: Any, says: str) -> None:
    with pytest.raises(ApiError) as info:
        decode_puzzle({"size": 9, "givens": [0] * 81, "candidates": candidates})
    assert info.value.status == 400 and info.value.field == "candidates"
    assert says in info.value.message


def test_load_count_and_save_a_pencilmark_line() -> None:
    service = EditorService()
    puzzle = minimal_pencilmark()
    line = format_pencilmark_line(puzzle)
    loaded = ok(service, "load", {"text": line})  # one line: sniffed as a pencilmark line
    obj = loaded["puzzle"]
    assert decode_puzzle(obj).puzzle.candidates == puzzle.candidates
    assert ok(service, "status", {"puzzle": obj})["verdict"] == "unique"
    # the candidates are clues: without them, or with one restored, it is not unique
    bare = {k: v for k, v in obj.items() if k != "candidates"}
    assert ok(service, "status", {"puzzle": bare})["verdict"] == "multiple"
    cell, digit = restricted_cell(puzzle)
    more = [list(c) for c in obj["candidates"]]
    more[cell] = sorted([*more[cell], digit])
    assert ok(service, "status", {"puzzle": {**obj, "candidates": more}})["verdict"] == "multiple"
    saved = ok(service, "save", {"puzzle": obj, "format": "pencilmark"})
    assert saved["text"].split()[0] == line


# -- the page, in a real browser ------------------------------------------------------------
from tests.editor.test_browser import browser, page, server, wait_status  # noqa: E402,F401


@pytest.mark.browser
def test_the_page_draws_and_edits_candidate_clues(page: Any) -> None:  # noqa: F811
    puzzle = minimal_pencilmark()
    page.fill("[data-role=paste]", format_pencilmark_line(puzzle))
    page.click("[data-action=load]")
    page.wait_for_function(
        "() => document.querySelector('#message').textContent.startsWith('loaded')"
    )
    assert wait_status(page)["verdict"] == "unique"
    cell, digit = restricted_cell(puzzle)
    drawn = page.text_content(f"g[data-pencil='{cell}']")
    assert drawn == "".join(str(d) for d in sorted(puzzle.candidates[cell]))
    assert "cand" in page.get_attribute(f"g[data-pencil='{cell}'] text", "class")
    # entering givens, a pencil digit toggles a candidate clue: the puzzle is no longer unique
    page.click("[data-action=mode-given]")
    page.click(f"rect[data-cell='{cell}']")
    page.keyboard.press(f"Shift+{digit}")
    assert str(digit) in page.text_content(f"g[data-pencil='{cell}']")
    page.wait_for_function(
        "() => document.querySelector('[data-role=status]').dataset.state === 'done'"
        " && document.querySelector('#verdict').textContent === 'multiple'"
    )
    sent = page.evaluate("() => window.sudokuEditor.puzzle()")
    assert digit in sent["candidates"][cell]
    page.keyboard.press("Control+z")  # undo puts the clue back as it was
    page.wait_for_function("() => document.querySelector('#verdict').textContent === 'unique'")


def test_sudoku_edit_opens_a_pencilmark_puzzle_with_its_candidates() -> None:
    puzzle = minimal_pencilmark()
    opened = EditorService(puzzle).config()["puzzle"]
    assert decode_puzzle(opened).puzzle.candidates == puzzle.candidates
