"""The notebook widget (sudoku_model.widgets.Editor) without a browser or a kernel: its
traitlets sync both ways, and it answers the front end's requests with the editor's API.
(The front end itself is the page's code, tested in test_browser.py.)"""

from __future__ import annotations

from typing import Any

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape

pytest.importorskip("anywidget", reason="the widget needs anywidget (the editor/dev extra)")

from sudoku_model.editor import static_text  # noqa: E402
from sudoku_model.widgets import Editor  # noqa: E402

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_the_widget_ships_the_pages_front_end() -> None:
    editor = Editor()
    assert editor._esm == static_text("editor.js") and "export default" in editor._esm
    assert editor._css == static_text("editor.css")
    assert editor.puzzle == Puzzle.empty(Shape(3, 3))


def test_puzzle_syncs_both_ways() -> None:
    puzzle = Puzzle.parse(HARD)
    editor = Editor(puzzle)
    assert editor.value["givens"] == list(puzzle.givens.values)
    # the front end enters a digit: it sends the new state, as the comm does
    values = list(puzzle.givens.values)
    values[1] = 1
    editor.set_state({"value": {**editor.value, "values": values}})
    assert editor.puzzle == puzzle and editor.grid[1] == 1
    # Python sets a puzzle: the synced state changes (the front end redraws from it)
    jigsaw = Puzzle(
        Grid.empty(Shape(2, 2)),
        RuleSet.build(Shape(2, 2), regions=[0, 0, 1, 1] * 2 + [2, 2, 3, 3] * 2),
    )
    editor.puzzle = jigsaw
    assert editor.get_state()["value"]["regions"] == [
        0,
        0,
        1,
        1,
        0,
        0,
        1,
        1,
        2,
        2,
        3,
        3,
        2,
        2,
        3,
        3,
    ]
    assert editor.puzzle == jigsaw


def test_requests_are_answered_and_the_verdict_syncs_back() -> None:
    editor = Editor(Puzzle.parse(HARD))
    sent: list[dict[str, Any]] = []
    editor.send = sent.append  # type: ignore[method-assign]  # the comm's transport
    reply = editor.answer(
        {"type": "request", "id": 3, "endpoint": "status", "payload": {"puzzle": editor.value}}
    )
    assert sent == [reply] and reply["id"] == 3 and reply["status"] == 200
    assert reply["json"]["count_text"] == "1"
    assert (editor.verdict, editor.count_text) == ("unique", "1")
    assert editor.get_state()["verdict"] == "unique"
    # fewer clues: the verdict follows
    fewer = {**editor.value, "givens": [0] + editor.value["givens"][1:], "values": None}
    editor.answer({"type": "request", "id": 4, "endpoint": "status", "payload": {"puzzle": fewer}})
    assert editor.verdict == "multiple"
    # bytes (print) travel as base64, errors as the API's 4xx
    printed = editor.answer(
        {"id": 5, "endpoint": "print", "payload": {"puzzle": editor.value, "format": "svg"}}
    )
    assert printed["content_type"] == "image/svg+xml" and printed["body_base64"]
    bad = editor.answer({"id": 6, "endpoint": "status", "payload": {"puzzle": {"size": 9}}})
    assert bad["status"] == 400 and bad["json"]["error"]["field"] == "givens"


def test_the_widget_class_is_importable_by_name_and_pickles() -> None:
    import pickle

    import sudoku_model.widgets as widgets

    assert Editor is widgets.Editor and Editor.__qualname__ == "Editor"
    assert repr(Editor) == "<class 'sudoku_model.widgets.Editor'>"
    assert pickle.loads(pickle.dumps(Editor)) is Editor
    puzzle = Puzzle.parse(HARD)
    editor = Editor(puzzle)
    values = list(puzzle.givens.values)
    values[1] = 1
    editor.set_state({"value": {**editor.value, "values": values}})
    assert repr(editor) == f"<Editor of {puzzle!r}; not counted yet>"
    copy = pickle.loads(pickle.dumps(editor))
    assert isinstance(copy, Editor) and copy is not editor  # anywidget subclasses per instance
    assert copy.puzzle == puzzle and copy.grid == editor.grid and copy.grid[1] == 1
    editor.answer(
        {"type": "request", "id": 1, "endpoint": "status", "payload": {"puzzle": editor.value}}
    )
    assert repr(editor) == f"<Editor of {puzzle!r}; verdict 'unique'>"
