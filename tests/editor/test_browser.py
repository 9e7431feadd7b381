"""The editor's page in a real browser: Debian's chromium driven by Playwright for Python
(``executable_path``: Playwright never downloads a browser here). Skipped, with the reason,
when chromium or Playwright is missing; ``.ci/run`` installs chromium, so CI runs them.

Set ``SUDOKU_EDITOR_SCREENSHOT=PATH`` to write the README's screenshot there
(``sudoku_model/editor/screenshot.png``)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudoku_model import Grid
from sudoku_model.editor import EditorServer, EditorService

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EASY = "1.3..4.2.1.3..2."


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("no chromium on this machine (apt-get install chromium; .ci/run does)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (the dev extra has it)"
    )
    with sync_api.sync_playwright() as playwright:
        # --no-sandbox: CI runs as root, where chromium's sandbox refuses to start
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server() -> Iterator[EditorServer]:
    with EditorServer(EditorService()).start() as srv:
        yield srv


@pytest.fixture
def page(browser: Any, server: EditorServer) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 980, "height": 600}, accept_downloads=True)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.goto(server.url)
    tab.wait_for_selector("[data-cell='80']")
    wait_status(tab)
    yield tab
    context.close()
    assert not errors, errors


def wait_status(page: Any, filled: int | None = None) -> dict[str, str]:
    """Wait until the live count answers for the grid as it is (``filled`` cells)."""
    page.wait_for_function(
        """(filled) => {
            const s = document.querySelector('[data-role=status]');
            const d = document.querySelector('[data-role=detail]').textContent;
            return s.dataset.state === 'done'
                && (filled === null || d.startsWith(filled + ' filled') || d.includes('repeated'));
        }""",
        arg=filled,
    )
    return {"count": page.inner_text("#count"), "verdict": page.inner_text("#verdict")}


def cell_class(page: Any, cell: int) -> str:
    return page.get_attribute(f"rect[data-cell='{cell}']", "class")


def wait_message(page: Any, start: str) -> None:
    """Wait until the message line starts with ``start``."""
    page.wait_for_function(
        "(start) => document.querySelector('#message').textContent.startsWith(start)", arg=start
    )


def load_text(page: Any, text: str) -> None:
    page.fill("[data-role=paste]", text)
    page.click("[data-action=load]")
    wait_message(page, "loaded")
    wait_status(page)


def editor_puzzle(page: Any) -> dict[str, Any]:
    return page.evaluate("() => window.sudokuEditor.puzzle()")


def test_typing_a_17_clue_puzzle_counts_down_to_one_at_the_last_clue(page: Any) -> None:
    assert (page.inner_text("#count"), page.inner_text("#verdict")) == ("at least 2", "multiple")
    clues = [(c, ch) for c, ch in enumerate(HARD) if ch != "."]
    assert len(clues) == 17
    seen = []
    for k, (cell, digit) in enumerate(clues, start=1):
        page.click(f"rect[data-cell='{cell}']")
        page.keyboard.press(digit)
        seen.append(wait_status(page, filled=k)["count"])
    assert seen == ["at least 2"] * 16 + ["1"]
    assert page.inner_text("#verdict") == "unique"
    assert editor_puzzle(page)["givens"] == list(Grid.parse(HARD).values)


def test_fast_typing_leaves_the_count_of_the_last_grid(page: Any) -> None:
    # every keystroke supersedes the request before it; the last answer is the one shown
    page.click("rect[data-cell='0']")
    for ch in HARD:
        if ch != ".":
            page.keyboard.press(ch)
        page.keyboard.press("ArrowRight")
    assert wait_status(page, filled=17)["count"] == "1"


def test_a_clashing_digit_is_highlighted(page: Any) -> None:
    load_text(page, HARD)
    page.click("rect[data-cell='1']")
    page.keyboard.press("4")  # r1c1 holds the given 4
    status = wait_status(page, filled=18)
    assert status == {"count": "0", "verdict": "contradictory"}
    assert "clash" in cell_class(page, 0) and "clash" in cell_class(page, 1)
    assert "clash" not in cell_class(page, 2)
    page.keyboard.press("Backspace")
    assert wait_status(page, filled=17)["count"] == "1"
    assert "clash" not in cell_class(page, 1)


def test_take_a_hint_and_apply_it(page: Any) -> None:
    load_text(page, EASY)
    page.click("[data-action=hint]")
    page.wait_for_function("() => document.querySelector('#message').textContent.includes(':')")
    assert "r4c2 = 3: the only candidate left in the cell" in page.inner_text("#message")
    assert "hint" in cell_class(page, 13)
    page.click("[data-action=apply-hint]")
    wait_status(page, filled=8)
    assert editor_puzzle(page)["values"][13] == 3
    page.click("[data-action=undo]")
    wait_status(page, filled=7)
    assert editor_puzzle(page)["values"][13] == 0
    page.click("[data-action=redo]")
    wait_status(page, filled=8)
    assert editor_puzzle(page)["values"][13] == 3
    page.click("rect[data-cell='13']")  # the keys do the same
    page.keyboard.press("Control+z")
    wait_status(page, filled=7)
    page.keyboard.press("Control+y")
    wait_status(page, filled=8)
    assert editor_puzzle(page)["values"][13] == 3


def test_pencil_marks_entries_and_solve(page: Any) -> None:
    load_text(page, EASY)
    page.click("rect[data-cell='1']")
    page.keyboard.press("Shift+2")  # a pencil mark, not an entry
    assert page.text_content("g[data-pencil='1']") == "2"
    page.click("[data-action=candidates]")
    wait_message(page, "candidates")
    assert page.text_content("g[data-pencil='3']") == "4"  # r1c4: row 1 3, column 2 3
    page.click("rect[data-cell='1']")
    page.keyboard.press("2")  # an entered digit: drawn unlike a given
    assert page.get_attribute("text[data-digit='1']", "class") == "digit entered"
    assert page.get_attribute("text[data-digit='0']", "class") == "digit given"
    page.click("[data-action=solve]")
    wait_message(page, "solved")
    assert "solved by logic" in page.inner_text("#message")
    assert wait_status(page, filled=16)["count"] == "1"
    page.click("[data-action=check]")
    wait_message(page, "correct")


def test_save_reload_and_compare(page: Any, tmp_path: Path) -> None:
    variant = json.dumps({"size": 9, "variants": ["diagonal"], "puzzle": "1" + "." * 80})
    load_text(page, variant)
    page.click("rect[data-cell='10']")
    page.click("[data-action=mode-given]")
    page.keyboard.press("5")
    wait_status(page, filled=2)
    before = editor_puzzle(page)
    page.select_option("[data-role=format]", "jsonl")
    with page.expect_download() as download:
        page.click("[data-action=save]")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert json.loads(saved.read_text())["variants"] == ["diagonal"]
    page.click("[data-action=new]")
    wait_status(page, filled=0)
    page.set_input_files("[data-role=file]", str(saved))
    wait_message(page, "loaded")
    after = editor_puzzle(page)
    assert after["givens"] == before["givens"] and after["variants"] == ["diagonal"]
    assert page.locator("polyline.line-diagonal").count() == 2


def test_generate_a_6x6_puzzle(page: Any) -> None:
    page.select_option("[data-role=size]", "6")
    page.select_option("[data-role=symmetry]", "rot180")
    page.click("[data-action=generate]")
    page.wait_for_selector("svg[data-size='6']")
    wait_message(page, "generated")
    assert wait_status(page)["count"] == "1"
    assert page.locator("rect.cell").count() == 36
    assert len(page.inner_text("[data-role=pad]").split()) == 7  # 1-6 and the eraser


def test_screenshot(page: Any, tmp_path: Path) -> None:
    load_text(page, HARD)
    page.click("rect[data-cell='1']")
    page.keyboard.press("Shift+1")
    page.keyboard.press("Shift+6")
    page.click("[data-action=hint]")
    page.wait_for_function("() => document.querySelector('#message').textContent.includes(':')")
    target = os.environ.get("SUDOKU_EDITOR_SCREENSHOT") or str(tmp_path / "editor.png")
    page.screenshot(path=target)
    data = Path(target).read_bytes()
    assert data.startswith(b"\x89PNG") and 10_000 < len(data) < 400_000


WIDGET_HOST = """async (puzzle) => {
    // A stand-in for anywidget's model: the widget's messages go to this server's API, as
    // sudoku_model.widgets.Editor.answer sends them back through the comm.
    const module = await import('/static/editor.js');
    const handlers = {}, state = {value: puzzle}, saved = [];
    const model = {
        get: (key) => state[key],
        set: (key, value) => { state[key] = value; },
        save_changes: () => saved.push(JSON.parse(JSON.stringify(state.value))),
        on: (event, handler) => { (handlers[event] = handlers[event] || []).push(handler); },
        send: async (msg) => {
            const method = msg.endpoint === 'config' ? 'GET' : 'POST';
            const response = await fetch('/api/' + msg.endpoint, {method,
                headers: {'Content-Type': 'application/json'},
                body: method === 'POST' ? JSON.stringify(msg.payload) : undefined});
            const reply = {type: 'reply', id: msg.id, status: response.status,
                           json: await response.json()};
            for (const h of handlers['msg:custom'] || []) h(reply);
        },
    };
    const root = document.createElement('div');
    root.id = 'widget';
    document.body.append(root);
    module.default.render({model, el: root});
    window.widgetModel = {model, state, saved, handlers};
}"""


def test_the_widget_front_end_syncs_through_its_model(page: Any) -> None:
    givens = list(Grid.parse(HARD).values)
    page.evaluate(WIDGET_HOST, {"box": [3, 3], "variants": [], "givens": givens, "values": givens})
    widget = page.locator("#widget")
    widget.locator("rect[data-cell='80']").wait_for()
    page.wait_for_function(
        "() => document.querySelector('#widget [data-role=count]').textContent === '1'"
    )
    widget.locator("rect[data-cell='1']").click()
    page.keyboard.press("4")  # a clash, entered in the widget
    page.wait_for_function("() => window.widgetModel.saved.length > 0")
    synced = page.evaluate("() => window.widgetModel.state.value")
    assert synced["values"][1] == 4 and synced["givens"] == givens
    page.wait_for_function(
        "() => document.querySelector('#widget [data-role=verdict]').textContent"
        " === 'contradictory'"
    )
    # Python assigns a new puzzle: the widget redraws it
    page.evaluate(
        """() => { const w = window.widgetModel;
            w.state.value = {box: [2, 3], variants: [], givens: Array(36).fill(0)};
            for (const h of w.handlers['change:value']) h(); }"""
    )
    widget.locator("svg[data-size='6']").wait_for()


#: A 4x4 killer with two kropki dots (the one of tests/editor/test_rules.py): unique.
KILLER_KROPKI = {
    "size": 4,
    "constraints": [
        {
            "type": "killer",
            "cages": [
                {"cells": ["r1c1", "r2c1"], "sum": 4},
                {"cells": ["r1c2", "r1c3"], "sum": 5},
                {"cells": ["r1c4", "r2c4"], "sum": 6},
                {"cells": ["r2c2", "r2c3"], "sum": 5},
                {"cells": ["r3c1", "r4c1"], "sum": 6},
                {"cells": ["r3c2", "r3c3", "r4c2"], "sum": 8},
                {"cells": ["r3c4", "r4c4"], "sum": 4},
                {"cells": ["r4c3"], "sum": 2},
            ],
        },
        {"type": "kropki", "white": [["r1c3", "r1c4"]], "black": [["r1c1", "r1c2"]]},
    ],
    "puzzle": ".........1......",
}


def test_a_killer_kropki_puzzle_draws_its_cages_and_dots(page: Any) -> None:
    load_text(page, json.dumps(KILLER_KROPKI))
    page.wait_for_selector("svg[data-size='4']")
    assert wait_status(page)["count"] == "1"
    labels = [t.text_content() for t in page.locator("text.cage-label").all()]
    assert labels == ["4", "5", "6", "5", "6", "8", "4", "2"]
    # dashed outlines: a 2-cell cage has 6 sides, the 3-cell L 8, the single cell 4
    assert page.locator("line.cage").count() == 6 * 6 + 8 + 4
    assert page.locator("circle.dot-white").count() == 1
    assert page.locator("circle.dot-black").count() == 1
    assert editor_puzzle(page)["constraints"] == KILLER_KROPKI["constraints"]


def test_other_constraint_marks_are_drawn_or_named(page: Any) -> None:
    constraints = [
        {"type": "thermometer", "lines": [["r1c1", "r1c2", "r1c3"]]},
        {"type": "arrow", "arrows": [{"circle": ["r2c1"], "shaft": ["r2c2", "r3c3"]}]},
        {"type": "xv", "x": [], "v": [["r3c1", "r3c2"]]},
        {"type": "greater-than", "pairs": [["r4c2", "r4c1"]]},
        {"type": "even-odd", "even": ["r4c4"], "odd": ["r4c3"]},
        {"type": "sandwich", "rows": [None, 3, None, None], "columns": [None] * 4},
        {"type": "little-killer", "lines": [{"cells": ["r1c2", "r2c3", "r3c4"], "sum": 9}]},
        {"type": "non-consecutive"},
    ]
    load_text(page, json.dumps({"size": 4, "constraints": constraints, "puzzle": "." * 16}))
    page.wait_for_selector("svg[data-size='4']")
    assert page.locator("polyline.line-thermo").count() == 1
    assert page.locator("circle.line-arrow").count() == 1
    assert [t.text_content() for t in page.locator("text.edge-mark").all()] == ["V"]
    assert page.locator("polyline.edge-sign").count() == 1
    assert page.locator("rect.shade-even").count() == page.locator("circle.shade-odd").count() == 1
    outside = sorted(t.text_content() for t in page.locator("text.outside-clue").all())
    assert outside == ["3", "9\u2198"]
    assert "non-consecutive" in page.inner_text("[data-role=captions]")


def test_variant_lines_are_drawn_in_their_colours(page: Any) -> None:
    from sudoku_model import RuleSet, Shape
    from sudoku_model.formats import puzzle_to_json
    from sudoku_model.generate import DrawnOptions, GenerationSpec, generate

    spec = GenerationSpec(RuleSet.classic(Shape(2, 3)), drawn=DrawnOptions("whisper"))
    (made,) = generate(spec, count=1, seed=3)
    load_text(page, json.dumps(puzzle_to_json(made.puzzle)))
    page.wait_for_selector("svg[data-size='6']")
    assert wait_status(page)["count"] == "1"
    assert page.locator("polyline.line-whisper").count() == made.lines
    stroke = page.eval_on_selector("polyline.line-whisper", "e => getComputedStyle(e).stroke")
    assert stroke == "rgb(95, 207, 95)"
    assert "German whispers (green lines)" in page.inner_text("[data-role=captions]")
