"""Puzzles whose variant marks are drawn on a full grid (``sudoku generate --variant
renban``, ``whisper``, ``palindrome``, ``kropki-negative``; see
:func:`generate_drawn_one`).

Lines (renban, German whispers, palindromes) are random paths of 3 to 8 cells, each step
to an orthogonally or diagonally touching cell, that obey their rule on the full grid;
lines are added until the puzzle is unique (with givens then removed while it stays
unique when the lines alone do not get there). Negative kropki puzzles give every dot
that holds on the full grid, and the negative constraint forbids consecutive and double
pairs without a dot; the givens are then removed while the puzzle stays unique.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from ..geometry import Shape
from ..grid import Grid
from ..puzzle import Puzzle
from ..rules import RuleSet
from ..solving import VerdictKind
from .engine import GenerationEngine
from .spec import (
    GeneratedPuzzle,
    GenerationError,
    GenerationSpec,
    _deadline_error,
)

#: Search nodes (or conflicts) one uniqueness check of a trial set of lines may take
#: before it counts as "not known unique" (as for killer cages): lines are added while
#: that is the answer, so a slow check only adds a line.
LINE_CHECK_NODES = 5_000

#: Search nodes (or conflicts) one removal test may take: a test cut so keeps its given
#: (the puzzle stays unique, its minimality is reported unknown). Pairwise renban tables
#: propagate little, and a backtracker can spend seconds proving a renban puzzle with
#: few givens unique.
REMOVAL_CHECK_NODES = 20_000

#: Lines are drawn with 3 to this many cells.
LONGEST_LINE = 8

#: Draws of a line in a row that may fail (no path of three cells from the cell drawn)
#: before the grid counts as full of lines.
LINE_DRAW_FAILURES = 40


def whisper_difference(n: int) -> int:
    """The difference of German whispers on a grid of ``n`` digits: 5 on 9x9, 3 on 6x6."""
    return (n + 1) // 2


def _touching(shape: Shape, cell: int) -> list[int]:
    n = shape.size
    r, c = divmod(cell, n)
    return [
        (r + dr) * n + c + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n
    ]


class _Room:
    """Where lines may still go: the free cells, and the diagonal steps lines took (a step
    may not cross one, so no two lines, nor one line with itself, make an X)."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.free = set(range(shape.cell_count))
        self.diagonals: set[frozenset[int]] = set()

    def _crossing(self, a: int, b: int) -> frozenset[int] | None:
        """The other diagonal of the 2x2 block of a diagonal step a-b (None when a-b is
        orthogonal)."""
        n = self.shape.size
        (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
        if ra == rb or ca == cb:
            return None
        return frozenset((ra * n + cb, rb * n + ca))

    def can_step(self, a: int, b: int, taken: set[frozenset[int]]) -> bool:
        """Whether a line may step from ``a`` to the touching cell ``b``, given the
        diagonal steps ``taken`` by the line being drawn."""
        if b not in self.free:
            return False
        other = self._crossing(a, b)
        return other is None or (other not in self.diagonals and other not in taken)

    def step(self, a: int, b: int, taken: set[frozenset[int]]) -> None:
        """Record the step a-b in ``taken`` when it is diagonal."""
        if self._crossing(a, b) is not None:
            taken.add(frozenset((a, b)))

    def add(self, line: Sequence[int], taken: set[frozenset[int]]) -> None:
        """A drawn line: its cells and diagonal steps are no longer free."""
        self.free.difference_update(line)
        self.diagonals |= taken


def _grow(
    room: _Room,
    rng: random.Random,
    start: int,
    target: int,
    ok: Callable[[list[int], int], bool],
) -> tuple[list[int], set[frozenset[int]]]:
    """A path from ``start`` through free cells, each step to a touching cell that ``ok``
    accepts after the path so far, until ``target`` cells or no step is left; with its
    diagonal steps."""
    path = [start]
    taken: set[frozenset[int]] = set()
    while len(path) < target:
        a = path[-1]
        options = [
            x
            for x in _touching(room.shape, a)
            if x not in path and room.can_step(a, x, taken) and ok(path, x)
        ]
        if not options:
            break
        x = rng.choice(options)
        room.step(a, x, taken)
        path.append(x)
    return path, taken


def _palindrome(
    room: _Room, s: Sequence[int], rng: random.Random, start: int, target: int
) -> tuple[list[int], set[frozenset[int]]]:
    """A palindrome through ``start``: its middle cell, or one of its two middle cells (with
    a touching cell of the same digit), grown at both ends by touching cells of equal
    digits; with its diagonal steps."""
    shape = room.shape
    taken: set[frozenset[int]] = set()
    odd = rng.random() < 0.5
    front, back = [start], [start]
    if not odd:
        twins = [
            x
            for x in _touching(shape, start)
            if s[x] == s[start] and room.can_step(start, x, taken)
        ]
        if not twins:
            odd = True
        else:
            back = [rng.choice(twins)]
            room.step(start, back[0], taken)
    used = {start, back[0]}
    while len(used) + 2 <= target:
        a, b = front[-1], back[-1]
        options = []
        for x in _touching(shape, a):
            if x in used or not room.can_step(a, x, taken):
                continue
            with_x = set(taken)
            room.step(a, x, with_x)
            for y in _touching(shape, b):
                if y != x and y not in used and s[x] == s[y] and room.can_step(b, y, with_x):
                    options.append((x, y))
        if not options:
            break
        x, y = rng.choice(sorted(options))
        room.step(a, x, taken)
        room.step(b, y, taken)
        front.append(x)
        back.append(y)
        used |= {x, y}
    if odd:
        return front[::-1] + back[1:], taken
    return front[::-1] + back, taken


def _draw_line(
    kind: str, room: _Room, s: Sequence[int], rng: random.Random, start: int
) -> tuple[list[int], set[frozenset[int]]]:
    """One random line of ``kind`` from ``start`` that holds on the full grid ``s``, with
    its diagonal steps."""
    n = room.shape.size
    target = rng.randint(3, min(LONGEST_LINE, n))
    if kind == "whisper":
        d = whisper_difference(n)
        return _grow(room, rng, start, target, lambda p, x: abs(s[x] - s[p[-1]]) >= d)
    if kind == "renban":

        def extends(path: list[int], x: int) -> bool:
            digits = [s[c] for c in path]
            return s[x] in (min(digits) - 1, max(digits) + 1)

        return _grow(room, rng, start, target, extends)
    return _palindrome(room, s, rng, start, target)


def _line_rules(base: RuleSet, kind: str, lines: Sequence[Sequence[int]]) -> RuleSet:
    from ..rules import palindrome_rule, renban_rules, whisper_rule

    shape = base.shape
    if not lines:
        return base
    if kind == "whisper":
        return base.with_rules([whisper_rule(shape, lines, whisper_difference(shape.size))])
    if kind == "renban":
        return base.with_rules(list(renban_rules(shape, lines)))
    return base.with_rules([palindrome_rule(shape, lines)])


def kropki_negative_rules(base: RuleSet, s: Sequence[int]) -> tuple[RuleSet, int]:
    """``base`` with every kropki dot that holds on the full grid ``s`` (a white dot
    between consecutive digits, 1 and 2 included; a black dot where one digit is double
    the other) and the negative constraint; and the number of dots."""
    from ..rules import kropki_rules

    shape = base.shape
    n = shape.size
    white, black = [], []
    for a in range(shape.cell_count):
        r, c = divmod(a, n)
        for b in (a + 1 if c + 1 < n else -1, a + n if r + 1 < n else -1):
            if b < 0:
                continue
            x, y = s[a], s[b]
            if abs(x - y) == 1:
                white.append((a, b))
            elif x == 2 * y or y == 2 * x:
                black.append((a, b))
    rules = base.with_rules(list(kropki_rules(shape, white, black, negative=True)))
    return rules, len(white) + len(black)


def _pictured(kind: str, base: RuleSet, lines: list[list[int]]) -> bool:
    """Whether the picture of the lines' rule shows these very lines: a palindrome's rule
    does not name its middle cell, and two palindromes whose ends touch read as one."""
    if kind != "palindrome":
        return True  # whisper steps and renban cells are all in their rules
    from ..rule_lines import relation_lines
    from ..rules import palindrome_rule

    shape = base.shape
    drawn = relation_lines(shape.size, palindrome_rule(shape, lines)) or []
    return sorted(line.cells for line in drawn) == sorted(tuple(line) for line in lines)


def _verdict(engine: GenerationEngine, rules: RuleSet, solution: Grid, limit: int | None) -> Any:
    """The backend's verdict on ``rules`` without givens, within ``limit`` nodes."""
    budget = engine.budget_now()
    if limit is not None:
        budget = replace(
            budget,
            nodes=min(budget.nodes or limit, limit),
            conflicts=min(budget.conflicts or limit, limit),
        )
    return engine.backend.check_unique(
        Puzzle.empty(rules.shape, rules), solution=solution, budget=budget
    )


class _DeadlinePassed(Exception):
    """The per-puzzle deadline passed while lines were being added."""


def _add_lines(
    kind: str,
    engine: GenerationEngine,
    base: RuleSet,
    solution: Grid,
    rng: random.Random,
) -> tuple[list[list[int]], bool]:
    """Lines added on ``solution`` until they alone make the puzzle unique (True) or no
    more fit (False); each new line starts, when it can, at a cell where a second
    solution differs from ``solution``."""
    shape = base.shape
    s = solution.values
    room = _Room(shape)
    lines: list[list[int]] = []
    differ: list[int] = []
    failures = 0
    while failures < LINE_DRAW_FAILURES:
        starts = sorted(c for c in differ if c in room.free) or sorted(room.free)
        if not starts:
            return lines, False
        line, taken = _draw_line(kind, room, s, rng, rng.choice(starts))
        if len(line) < 3 or not _pictured(kind, base, lines + [line]):
            failures += 1
            continue
        lines.append(line)
        room.add(line, taken)
        verdict = _verdict(engine, _line_rules(base, kind, lines), solution, LINE_CHECK_NODES)
        if engine.expired:
            raise _DeadlinePassed
        if verdict.kind is VerdictKind.UNIQUE:
            return lines, True
        other = next((w for w in verdict.witnesses if w != solution), None)
        differ = [] if other is None else [c for c in room.free if other.values[c] != s[c]]
    return lines, False


def _drop_lines(
    kind: str,
    engine: GenerationEngine,
    base: RuleSet,
    lines: list[list[int]],
    solution: Grid,
    rng: random.Random,
) -> list[list[int]]:
    """Lines removed, in random order, while the others alone keep the puzzle unique."""
    order = list(range(len(lines)))
    rng.shuffle(order)
    kept = set(order)
    for k in order:
        trial = [lines[j] for j in sorted(kept - {k})]
        verdict = _verdict(engine, _line_rules(base, kind, trial), solution, LINE_CHECK_NODES)
        if verdict.kind is VerdictKind.UNIQUE:
            kept.discard(k)
    return [lines[j] for j in sorted(kept)]


def generate_drawn_one(
    spec: GenerationSpec, engine: GenerationEngine, *, seed: int, index: int = 0
) -> GeneratedPuzzle:
    """Make one unique puzzle of ``spec.drawn.kind`` from ``seed``.

    1. A random full grid S of ``spec.rules`` (the base rules).
    2. Lines (renban, whisper, palindrome): random lines that hold on S are added, each
       from a cell where a second solution differs when there is one, until the lines
       alone give a unique puzzle (then lines are dropped, in random order, while they
       still do) or no more fit (then every cell starts as a given). Negative kropki:
       every dot of S, and the negative constraint.
    3. **Givens** removed in random order while the puzzle stays unique; ``minimal``
       says whether every given left is necessary.
    4. The puzzle is checked unique by the backend once more, and S against its rules.

    Reports the lines (``lines``) or dots (``dots``) and the givens (``clues``).

    Raises:
        GenerationError: when no puzzle was made within ``spec.tries`` full grids, or the
            deadline passed first.
    """
    options = spec.drawn
    assert options is not None
    kind = options.kind
    began = time.perf_counter()
    base = spec.rules
    shape = base.shape
    rng = random.Random(seed)
    for attempt in range(1, spec.tries + 1):
        solution = engine.random_full_grid(base, rng)
        if engine.expired:
            raise _deadline_error(spec)
        if solution is None:
            continue
        s = solution.values
        values = bytearray(s)
        lines: list[list[int]] = []
        dots = 0
        if kind == "kropki-negative":
            rules, dots = kropki_negative_rules(base, s)
        else:
            try:
                lines, unique = _add_lines(kind, engine, base, solution, rng)
            except _DeadlinePassed:
                raise _deadline_error(spec) from None
            if unique:
                lines = _drop_lines(kind, engine, base, lines, solution, rng)
                values = bytearray(shape.cell_count)
            rules = _line_rules(base, kind, lines)
        givens = [c for c in range(shape.cell_count) if values[c]]
        rng.shuffle(givens)
        with engine.node_cap(REMOVAL_CHECK_NODES):
            done = engine.remove_groups(rules, solution, values, [(c,) for c in givens])
        minimal: bool | None = None if None in done.answers else True
        puzzle = Puzzle(Grid._trusted(shape, tuple(done.givens)), rules)
        verdict = engine.backend.check_unique(puzzle, solution=solution, budget=engine.budget_now())
        if engine.expired:
            raise _deadline_error(spec)
        if verdict.kind is not VerdictKind.UNIQUE or rules.violations(s):
            continue
        return GeneratedPuzzle(
            index,
            seed,
            puzzle,
            solution,
            minimal,
            minimal,
            attempt,
            time.perf_counter() - began,
            engine.name,
            lines=None if kind == "kropki-negative" else len(lines),
            dots=dots if kind == "kropki-negative" else None,
        )
    raise GenerationError(f"no {kind} puzzle made in {spec.tries} tries (budget too small?)")
