"""Run the SE rater's techniques against HoDoKu's regression library (reglib-1.3).

Each library line is one technique on one pencil-mark grid with the eliminations or
placements it must find (format in the library's header). A case *passes* when one hint
of the matching SE producer removes exactly the expected candidates (or places the
expected digit); a fail case (variant ``x``) passes when the producer finds nothing.

Only the HoDoKu techniques that SE has an equivalent for are run; :data:`COVERED` maps
their codes to our producers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sudoku_model.se.state import BIT, State
from sudoku_model.se.steps import SEStep

from . import basic, strong_links, unique

__all__ = ["COVERED", "ReglibCase", "parse_case", "run_case"]

Producer = Callable[[State], Iterator[SEStep]]


#: HoDoKu technique code -> (name, producer).
COVERED: dict[str, tuple[str, Producer]] = {
    "0000": ("Full House", basic.hidden_singles),
    "0002": ("Hidden Single", basic.hidden_singles),
    "0003": ("Naked Single", basic.naked_singles),
    "0100": ("Locked Candidates 1 (pointing)", basic.locking),
    "0101": ("Locked Candidates 2 (claiming)", basic.locking),
    "0200": ("Naked Pair", lambda s: basic.naked_sets(s, 2)),
    "0201": ("Naked Triple", lambda s: basic.naked_sets(s, 3)),
    "0202": ("Naked Quadruple", lambda s: basic.naked_sets(s, 4)),
    "0210": ("Hidden Pair", lambda s: basic.hidden_sets(s, 2)),
    "0211": ("Hidden Triple", lambda s: basic.hidden_sets(s, 3)),
    "0212": ("Hidden Quadruple", lambda s: basic.hidden_sets(s, 4)),
    "0300": ("X-Wing", lambda s: basic.fish(s, 2)),
    "0301": ("Swordfish", lambda s: basic.fish(s, 3)),
    "0302": ("Jellyfish", lambda s: basic.fish(s, 4)),
    "0400": ("Skyscraper", strong_links.turbot_fish),
    "0401": ("2-String Kite", strong_links.turbot_fish),
    "0402": ("Empty Rectangle", strong_links.turbot_fish),
    "0403": ("Turbot Fish", strong_links.turbot_fish),
    "0800": ("XY-Wing", lambda s: basic.xy_wings(s, False)),
    "0801": ("XYZ-Wing", lambda s: basic.xy_wings(s, True)),
    "0600": ("Uniqueness Test 1", unique.unique_loops),
    "0601": ("Uniqueness Test 2", unique.unique_loops),
    "0602": ("Uniqueness Test 3", unique.unique_loops),
    "0603": ("Uniqueness Test 4", unique.unique_loops),
    "0610": ("Bivalue Universal Grave + 1", unique.bug),
}


@dataclass(frozen=True)
class ReglibCase:
    """One library line: technique code, variant, the grid, what must be found."""

    code: str
    variant: str
    state: State
    eliminations: frozenset[tuple[int, int]]
    placements: frozenset[tuple[int, int]]
    line: int


def _cells(field: str) -> frozenset[tuple[int, int]]:
    out = set()
    for item in field.split():
        d, r, c = int(item[0]), int(item[1]), int(item[2])
        out.add(((r - 1) * 9 + c - 1, d))
    return frozenset(out)


def parse_case(text: str, line: int = 0) -> ReglibCase:
    """Parse one ``:code:cands:givens:deleted:elims:placements:extra`` line.

    Raises:
        ValueError: on a line that is not in the library's format (quoting the line).
    """
    parts = text.strip().split(":")
    if len(parts) < 7 or parts[0] != "":
        raise ValueError(f"line {line}: not a reglib case: {text.strip()[:60]!r}")
    code, _, variant = parts[1].partition("-")
    givens = parts[3]
    digits = []
    i = 0
    while i < len(givens):
        ch = givens[i]
        if ch == "+":
            i += 1
            continue
        digits.append(0 if ch in ".0" else int(ch))
        i += 1
    if len(digits) != 81:
        raise ValueError(f"line {line}: givens are not 81 cells: {givens[:60]!r}")
    state = State.from_values(digits)
    for c, d in _cells(parts[4]):
        state.cands[c] &= ~BIT[d]
    return ReglibCase(code, variant, state, _cells(parts[5]), _cells(parts[6]), line)


def iter_cases(path: str) -> Iterator[ReglibCase]:
    """The cases of a library file, skipping comments and blank lines."""
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            if text.startswith(":"):
                yield parse_case(text, number)


def run_case(case: ReglibCase, limit: int = 10_000) -> bool | None:
    """True when our producer finds the expected result, False when it does not, None
    when the technique is not covered."""
    entry = COVERED.get(case.code)
    if entry is None:
        return None
    producer = entry[1]
    fail_case = case.variant == "x"
    # SE reports a subset or fish once per region it clears; HoDoKu once per pattern, so
    # the eliminations of one pattern's hints are pooled before comparing.
    pooled: dict[frozenset[int], set[tuple[int, int]]] = {}
    for count, step in enumerate(producer(case.state)):
        if count >= limit:
            break
        if fail_case:
            return False
        if case.placements:
            if step.placement is not None and step.placement in case.placements:
                return True
            continue
        got = pooled.setdefault(frozenset(step.cells), set())
        got.update(step.eliminations)
        if got == case.eliminations:
            return True
    return fail_case
