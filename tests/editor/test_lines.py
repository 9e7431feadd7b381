"""The editor draws the variant lines (whispers, renban, palindromes, double arrows...) as
the SVG output does: one ``line`` decoration per line with its look as style, circles at
both ends of a double arrow, the legend as captions, and a colour for every look in the
page's stylesheet."""

from __future__ import annotations

from sudoku_model import RuleSet, Shape
from sudoku_model.editor import layout
from sudoku_model.editor.server import static_text
from sudoku_model.rule_marks import LINE_LOOKS
from sudoku_model.rules import double_arrow_rule, palindrome_rule, renban_rules, whisper_rule

S9 = Shape(3, 3)


def test_layout_has_a_line_decoration_per_line_and_the_legend() -> None:
    whisper = [0, 1, 11]
    renban = [40, 41, 42]
    arrow = [60, 61, 62, 63]
    palindrome = [72, 73, 74, 75]
    rules = RuleSet.classic(S9).with_rules(
        [
            whisper_rule(S9, [whisper]),
            *renban_rules(S9, [renban]),
            double_arrow_rule(S9, [arrow]),
            palindrome_rule(S9, [palindrome]),
        ]
    )
    decorations = layout(rules)["decorations"]
    lines = {d["style"]: d for d in decorations if d["kind"] == "line"}
    assert lines["whisper"]["cells"] == whisper
    assert lines["renban"]["cells"] == renban
    assert lines["palindrome"]["cells"] == palindrome
    assert lines["double-arrow"]["cells"] == arrow
    assert lines["double-arrow"]["circle"] == [60, 63]
    captions = [d["text"] for d in decorations if d["kind"] == "caption"]
    assert any(c.startswith("German whispers (green lines)") for c in captions)
    assert any(c.startswith("renban (purple lines)") for c in captions)
    assert not any("not drawn" in c for c in captions)


def test_every_line_look_has_a_colour_on_the_page() -> None:
    css = static_text("editor.css")
    for look in LINE_LOOKS:
        assert f".sdk .line-{look} {{ stroke:" in css, look
