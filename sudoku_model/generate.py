"""Generating puzzles: unique by construction, minimal, of any shape and unit-based variant.

How a puzzle is made
--------------------
1. **A random full grid** (a solution of the rules) from a seed: a randomised search with
   random digit order (the native backend's C search; for the other backends the default
   ``random_solution``, a Python search with fewest-candidates branching, naked singles and
   random digit order).
2. **Removal**: the clues are visited in random order and each one is dropped when the
   puzzle stays unique without it. Uniqueness is decided with the known solution S:
   removing clue c from a unique puzzle keeps it unique exactly when "the remaining clues +
   (c != S[c])" has no solution, because any other solution of the smaller puzzle must
   differ from S at c. That is one solver call per clue (a forbidden (cell, digit) pair in
   the native backend, one more assumption in the SAT backend). A clue found necessary stays
   necessary as more clues go, so one pass yields a **minimal** puzzle (every clue needed).

Before asking the solver, cheap logic answers "still unique" when it can: the emptied cell
is a naked single (its peers show every other digit) or, for engines whose calls are slow,
a hidden single; from 16x16 up, full singles propagation is tried first while it keeps
succeeding. Only yes answers are taken from logic, so minimality is unaffected.

Both questions go to the backend through the contract's primitives
(:class:`GenerationEngine`): ``random_solution`` for the full grid and ``removal_oracle``
for "still unique?", so any backend generates, and the fast paths are the backends' own.
The whole pass is one call, :meth:`~sudoku_model.solving.RemovalOracle.remove_groups`:
a Python loop with the shortcuts above by default, one C call with the native backend
(its own singles tests, then a search per clue). The order is drawn here, and every
answer is a fact about the puzzle, so both make the same puzzles for a seed.

Large grids: near-minimal 25x25 puzzles (about 42-45% of the cells given) sit where
quasigroup completion is hardest, and single uniqueness calls there take from milliseconds
to many seconds. On the default backend (``auto``) the native removal oracle gives each
call from 16x16 up a short first try (a fixed number of search nodes, with the known
solution's digits tried first) and hands the calls that need more to a SAT backend
(CaDiCaL in its stable mode, phases set to the known solution), whose learnt clauses are
far better at these; see ``backends.native.NativeRemovalOracle`` and the removal route of
``backends.auto.ROUTES``. Most of those calls
find a second solution, and it is far from the known one (on one 25x25 puzzle, a median
146 of the ~330 empty cells differ), so no local search would find it. Give a budget per
call (``budget=Budget(seconds=...)``, ``--budget-seconds``): a call that runs out keeps
its clue, so the puzzle is still unique, and ``minimal`` is then reported unknown.

With a symmetry the clues go in *orbits* (a cell and its images): an orbit is removed when
the puzzle stays unique without all of it, which is tested as "no solution differs from S
at any cell of the orbit". The result is **group-minimal** (no orbit can go); it may still
have single clues that could go alone, so every clue is then tested one by one and
:attr:`GeneratedPuzzle.minimal` says whether the puzzle is minimal in the strict sense.

How random it is (and is not)
-----------------------------
The full grids are *not* uniform over all grids. A randomised backtracking search picks,
at each branching cell, a random candidate, so a grid's probability depends on how many
branching choices led to it: grids reached through fewer, narrower choices are more likely.
Every grid has a non-zero probability, digits are exchangeable (each digit is as likely
anywhere) and the bias in practice is small, but it is not measured away. (SAT solvers
with random phases have a stronger bias, toward the solver's decision order; this module
does not use them for full grids, see below.) The removal order is uniform, but top-down
removal itself is biased toward puzzles with few clues: minimal 9x9 puzzles made this way
have about 24.4 clues on average, against about 26.6 for the real distribution of minimal
puzzles (the figures of the "minimal sudoku" counting studies). :func:`bias_note` says so
in the reports.

Difficulty
----------
With ``level`` (``GenerationSpec(level="hard")``), each made puzzle is graded by the
logical solver (:func:`sudoku_model.logic.grade`) and kept when its level is one of those
asked for; otherwise a new puzzle is made from the next derived seed, up to ``level_tries``
times (:data:`DEFAULT_LEVEL_TRIES`). Grading works for every shape and variant the logic
solver handles, but the levels are calibrated on classic 9x9 puzzles. Minimal 9x9 puzzles
made here grade about 42% easy, 20% medium, 11% hard, 12% expert and 16% extreme (3,000
puzzles, seed 3), so every level takes a handful of tries on average.

Reproducibility
---------------
Puzzle ``i`` of a batch with seed ``S`` is made from its own seed :func:`puzzle_seed`
(S, i), so the output depends neither on the number of worker processes nor on the order
they finish in; with ``level``, try ``t`` of puzzle ``i`` uses :func:`level_seed` of that
seed and ``t`` (try 0 uses the puzzle seed itself, so a puzzle whose first try matches is
the one made without ``level``). Only state-free answers are used: yes/no uniqueness
answers (identical for every correct backend) and full grids from a seeded search that owns
no learnt state. That is why the PySAT backend's full grids come from the Python search
(the default ``random_solution``) and not from its long-lived solver (whose models depend
on the clauses it learnt from earlier puzzles). A search stopped by a time budget is the
one thing that can vary between runs.

>>> from sudoku_model import RuleSet, Shape
>>> symmetry_orbits(Shape(2, 2), "rot180")[:2]
((0, 15), (1, 14))
>>> minimum_clues(RuleSet.classic(Shape(3, 3)))[0]
17
"""

from __future__ import annotations

import hashlib
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from operator import itemgetter
from typing import Any

from .errors import SudokuError
from .fill import Singles
from .formats import read_char_grid
from .geometry import Shape
from .grid import Grid
from .puzzle import Puzzle
from .rules import RuleSet
from .solving import (
    DEFAULT_BACKEND,
    DEFAULT_BUDGET,
    Backend,
    Budget,
    RemovalOracle,
    RemovalPass,
    RemovalShortcut,
    VerdictKind,
)

__all__ = [
    "SYMMETRIES",
    "symmetry_orbits",
    "is_symmetric",
    "puzzle_seed",
    "minimum_clues",
    "parse_pattern",
    "GenerationError",
    "ImpossibleRequestError",
    "GenerationSpec",
    "GeneratedPuzzle",
    "KillerOptions",
    "generate_killer_one",
    "GenerationEngine",
    "engine_for",
    "random_full_grid",
    "generate_one",
    "generate",
    "clue_histogram",
    "bias_note",
    "DEFAULT_MAX_TRIES",
    "LEVEL_NAMES",
    "DEFAULT_LEVEL_TRIES",
    "parse_levels",
    "level_seed",
    "level_histogram",
]


# -- errors --------------------------------------------------------------------------------
class GenerationError(SudokuError):
    """The request is possible in principle but no puzzle was found within the tries.

    ``levels_seen``: for a level request, level -> puzzles graded at it (else None).
    """

    levels_seen: dict[str, int] | None = None


class ImpossibleRequestError(SudokuError, ValueError):
    """The request can never be met (too few clues, clashing options): says why."""


# -- symmetries ----------------------------------------------------------------------------
def _transforms(n: int) -> dict[str, Callable[[int, int], tuple[int, int]]]:
    m = n - 1
    return {
        "rot90": lambda r, c: (c, m - r),
        "rot180": lambda r, c: (m - r, m - c),
        "mirror": lambda r, c: (r, m - c),  # left-right
        "flip": lambda r, c: (m - r, c),  # top-bottom
        "diagonal": lambda r, c: (c, r),  # about the main diagonal
        "antidiagonal": lambda r, c: (m - c, m - r),
    }


#: Symmetry name -> the generating transforms of its group (positions only, not digits).
_SYMMETRY_GENERATORS: dict[str, tuple[str, ...]] = {
    "none": (),
    "rot180": ("rot180",),
    "rot90": ("rot90",),
    "mirror": ("mirror",),
    "flip": ("flip",),
    "diagonal": ("diagonal",),
    "antidiagonal": ("antidiagonal",),
    "biaxial": ("mirror", "flip"),  # both axes (implies rot180)
    "bidiagonal": ("diagonal", "antidiagonal"),  # both diagonals (implies rot180)
    "dihedral": ("rot90", "mirror"),  # all eight symmetries of the square
}

#: Names accepted by ``--symmetry``.
SYMMETRIES = tuple(_SYMMETRY_GENERATORS)


@lru_cache(maxsize=256)
def symmetry_orbits(shape: Shape, symmetry: str) -> tuple[tuple[int, ...], ...]:
    """The cells grouped into orbits of a symmetry group of the square (clue positions).

    ``none`` gives one orbit per cell; ``rot180`` pairs each cell with its image through
    the centre; ``dihedral`` uses all eight symmetries. Orbits are sorted by their first
    cell, each orbit's cells in increasing order.

    Raises:
        ValueError: for an unknown symmetry name, listing the known ones.
    """
    key = symmetry.strip().lower()
    if key not in _SYMMETRY_GENERATORS:
        raise ValueError(f"unknown symmetry {symmetry!r}; known: {', '.join(SYMMETRIES)}")
    n = shape.size
    maps = _transforms(n)
    generators = [maps[g] for g in _SYMMETRY_GENERATORS[key]]
    seen: set[int] = set()
    orbits = []
    for cell in range(n * n):
        if cell in seen:
            continue
        orbit = {cell}
        frontier = [divmod(cell, n)]
        while frontier:
            r, c = frontier.pop()
            for g in generators:
                r2, c2 = g(r, c)
                image = r2 * n + c2
                if image not in orbit:
                    orbit.add(image)
                    frontier.append((r2, c2))
        seen |= orbit
        orbits.append(tuple(sorted(orbit)))
    return tuple(orbits)


def is_symmetric(grid: Grid, symmetry: str) -> bool:
    """True when the filled cells of ``grid`` form a union of orbits of ``symmetry``."""
    values = grid.values
    return all(
        len({bool(values[c]) for c in orbit}) == 1
        for orbit in symmetry_orbits(grid.shape, symmetry)
    )


# -- seeds and limits ----------------------------------------------------------------------
def puzzle_seed(seed: int, index: int) -> int:
    """The seed of puzzle ``index`` in a batch with seed ``seed`` (a 63-bit integer).

    A hash, so neighbouring indices get unrelated streams and any worker can make any
    puzzle on its own.

    >>> puzzle_seed(1, 0) == puzzle_seed(1, 0) != puzzle_seed(1, 1)
    True
    """
    digest = hashlib.blake2b(f"sudoku-generate:{seed}:{index}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1


def minimum_clues(rules: RuleSet) -> tuple[int, str]:
    """The fewest clues a unique puzzle of these rules can have, as far as is known, and why.

    Unit and pair rules are symmetric in the digits, so a unique puzzle must show at least
    n - 1 different digits (two absent digits could be swapped in any solution): at least
    n - 1 clues. Relation, domain, sum and sandwich rules are not: with them, 0. Known
    exact minimums: 4 for 4x4 (exhaustive search) and 17 for classic
    9x9 (McGuire, Tugemann and Civario 2012: no 16-clue puzzle is unique).

    >>> from sudoku_model import Shape
    >>> minimum_clues(RuleSet.classic(Shape(2, 2)))
    (4, 'no 4x4 puzzle with fewer than 4 clues is unique (exhaustive search)')
    """
    n = rules.shape.size
    if rules.constraint_rules:  # cages, dots, domains... can fix every digit without clues
        return 0, "rules beyond all-different (cages, dots...) can fix digits without clues"
    if rules.is_classic and n == 9 and rules.shape.box_rows == 3:
        return 17, "no 16-clue 9x9 puzzle is unique (McGuire et al. 2012)"
    if rules.is_classic and n == 4:
        return 4, "no 4x4 puzzle with fewer than 4 clues is unique (exhaustive search)"
    return n - 1, (
        f"a unique {n}x{n} puzzle shows at least {n - 1} different digits "
        "(two absent digits could be swapped)"
    )


def parse_pattern(
    text: str, *, shape: Shape | None = None, source: str = "<pattern>"
) -> tuple[Shape, frozenset[int]]:
    """Read a clue mask: a grid (one line or a block) where a blank (``.``, ``0`` or ``_``)
    is an empty cell and any other character marks a given. Spaces and ``|`` are ignored;
    lines made only of ``-``, ``+``, ``=`` and spaces are decoration; ``#`` lines are
    comments.

    >>> shape, cells = parse_pattern("x..x\\n....\\n....\\nx..x")
    >>> shape, sorted(cells)
    (Shape(2, 2), [0, 3, 12, 15])

    Raises:
        ParseError: naming line and column when the marks do not form a grid (of
            ``shape`` when given).
    """
    found, marks = read_char_grid(text, source=source, shape=shape)
    return found, frozenset(i for i, m in enumerate(marks) if m not in "._0")


# -- what to make, what was made -----------------------------------------------------------
#: Full grids (or full passes) tried per puzzle before giving up, by kind of request.
DEFAULT_MAX_TRIES = {"plain": 20, "clues": 2000, "pattern": 2000}

#: The levels of :func:`sudoku_model.logic.grade`, easiest first (spelled out so that this
#: module does not load the logic solver until it grades; a test keeps them equal).
LEVEL_NAMES = ("easy", "medium", "hard", "expert", "extreme")

#: Puzzles made and graded per kept puzzle before giving up, by level asked for (with
#: several levels, the smallest of theirs). From the rates of minimal 9x9 puzzles (3,000
#: made with seed 3: easy 42%, medium 20%, hard 11%, expert 12%, extreme 16%; measured by
#: ``tests/benchmarks/bench_generate_level.py --rates 3000 --seed 3``), each default leaves
#: a chance of about one in a million or less of failing on 9x9, with rot180 symmetry too
#: (1,000 puzzles: easy 67%, medium 11%, hard 9%, expert 7%, extreme 7%).
DEFAULT_LEVEL_TRIES = {"easy": 40, "medium": 150, "hard": 200, "expert": 200, "extreme": 200}


def parse_levels(levels: str | Iterable[str]) -> tuple[str, ...]:
    """Level names from ``"hard"``, ``"hard,expert"`` or a list of such strings, without
    repeats, easiest first.

    >>> parse_levels(["expert", "easy,expert"])
    ('easy', 'expert')

    Raises:
        ValueError: for an unknown level name (listing the known ones) or no name at all.
    """
    items = [levels] if isinstance(levels, str) else list(levels)
    names: set[str] = set()
    for item in items:
        for part in str(item).split(","):
            name = part.strip().lower()
            if not name:
                continue
            if name not in LEVEL_NAMES:
                raise ValueError(f"unknown level {part.strip()!r}; known: {', '.join(LEVEL_NAMES)}")
            names.add(name)
    if not names:
        raise ValueError(f"no level given; known: {', '.join(LEVEL_NAMES)}")
    return tuple(name for name in LEVEL_NAMES if name in names)


def level_seed(seed: int, attempt: int) -> int:
    """The seed of try ``attempt`` (0, 1, ...) at a level for the puzzle seeded ``seed``:
    ``seed`` itself for try 0, then a hash of both (so, in a batch, a function of the
    batch seed, the puzzle index and the try).

    >>> level_seed(5, 0), level_seed(5, 1) == level_seed(5, 1) != level_seed(5, 2)
    (5, True)
    """
    if attempt == 0:
        return seed
    digest = hashlib.blake2b(f"sudoku-generate-level:{seed}:{attempt}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1


@dataclass(frozen=True)
class GenerationSpec:
    """What kind of puzzle to make (the same for every puzzle of a batch).

    Args:
        rules: the shape and rules (classic or variants).
        symmetry: one of :data:`SYMMETRIES`; clue positions are removed in orbits.
        clues: stop removing once the puzzle has at most this many clues (exactly this
            many without symmetry; ``None``: remove down to minimal). A pass that ends
            above it is retried on a new grid, up to ``max_tries`` times. Stopping early
            usually leaves clues that could go: :attr:`GeneratedPuzzle.minimal` says.
        pattern: the exact cells that are givens (a setter's mask); grids are retried until
            the mask gives a unique puzzle.
        start: a partial grid whose clues are kept fixed (``--from``): it is completed at
            random, and other clues are removed until the result is unique and every added
            clue is necessary. With a symmetry, orbits that hold a starting clue are kept
            whole, so the result is symmetric.
        max_tries: full grids tried per puzzle before :class:`GenerationError` (default
            from :data:`DEFAULT_MAX_TRIES`).
        level: keep only puzzles that :func:`sudoku_model.logic.grade` puts at this level
            (a name of :data:`LEVEL_NAMES`, a comma list or a sequence of names: any of
            them); stored as a tuple of names, easiest first. None: no grading.
        level_tries: with ``level``, puzzles made and graded per kept puzzle before
            :class:`GenerationError` (default from :data:`DEFAULT_LEVEL_TRIES`); each try
            is a whole generation, itself allowed ``max_tries`` full grids.
        killer: make killer puzzles (:class:`KillerOptions`): cages are drawn on each full
            grid and added to ``rules`` (see :func:`generate_killer_one`).

    Raises:
        ImpossibleRequestError: for options that contradict each other or a clue target
            below :func:`minimum_clues`.
        ValueError: for an unknown symmetry or level.
    """

    rules: RuleSet
    symmetry: str = "none"
    clues: int | None = None
    pattern: frozenset[int] | None = None
    start: Grid | None = None
    max_tries: int | None = None
    level: tuple[str, ...] | None = None
    level_tries: int | None = None
    killer: KillerOptions | None = None

    def __post_init__(self) -> None:
        symmetry_orbits(self.rules.shape, self.symmetry)  # validates the name
        if self.killer is not None:
            _check_killer_spec(self)
        if self.level is not None:
            object.__setattr__(self, "level", parse_levels(self.level))
        for name in ("max_tries", "level_tries"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 1
            ):
                raise ImpossibleRequestError(f"{name} must be a positive integer, got {value!r}")
        object.__setattr__(self, "symmetry", self.symmetry.strip().lower())
        shape = self.rules.shape
        least, reason = minimum_clues(self.rules)
        if self.start is not None and self.start.shape != shape:
            raise ImpossibleRequestError(
                f"the starting grid is {self.start.shape.name}; the rules are for {shape.name}"
            )
        if self.clues is not None:
            if isinstance(self.clues, bool) or not isinstance(self.clues, int) or self.clues < 0:
                raise ImpossibleRequestError(
                    f"a clue target must be a non-negative integer, got {self.clues!r}"
                )
            if self.clues < least:
                raise ImpossibleRequestError(
                    f"cannot make a unique puzzle with {self.clues} clues: {reason}"
                )
            if self.start is not None and self.start.clues > self.clues:
                raise ImpossibleRequestError(
                    f"the starting grid already has "
                    f"{self.start.clues} clues, more than "
                    f"{self.clues}"
                )
        if self.pattern is not None:
            if self.symmetry != "none" or self.clues is not None:
                raise ImpossibleRequestError(
                    "a pattern fixes the clue cells: it does not "
                    "combine with a symmetry or a clue target"
                )
            if any(not 0 <= c < shape.cell_count for c in self.pattern):
                raise ImpossibleRequestError("the pattern names a cell outside the grid")
            if len(self.pattern) < least:
                raise ImpossibleRequestError(
                    f"a pattern of {len(self.pattern)} cells cannot give a unique puzzle: {reason}"
                )
            if self.start is not None:
                outside = [c for c in self.start.filled_cells() if c not in self.pattern]
                if outside:
                    raise ImpossibleRequestError(
                        "the starting grid has clues outside the pattern: "
                        + ", ".join(shape.cell_name(c) for c in outside[:5])
                    )

    @property
    def kind(self) -> str:
        """``pattern``, ``clues`` or ``plain``: which retry rule applies."""
        if self.pattern is not None:
            return "pattern"
        return "clues" if self.clues is not None else "plain"

    @property
    def tries(self) -> int:
        return self.max_tries if self.max_tries is not None else DEFAULT_MAX_TRIES[self.kind]

    @property
    def graded_tries(self) -> int:
        """Puzzles made and graded per kept puzzle (0 without ``level``)."""
        if self.level is None:
            return 0
        if self.level_tries is not None:
            return self.level_tries
        return min(DEFAULT_LEVEL_TRIES[name] for name in self.level)


@dataclass(frozen=True)
class GeneratedPuzzle:
    """One generated puzzle with its solution and what is known about it.

    ``minimal`` is True when every clue is necessary (removing any one makes the puzzle
    non-unique), False when some clue could go, None when a budget stopped a test.
    ``group_minimal`` is the same question for the orbits of the symmetry (equal to
    ``minimal`` without symmetry); clues of a ``start`` grid are not counted as removable.
    ``tries`` counts the full grids used (1 when the first one worked).

    With a ``level`` request, ``level``, ``score`` and ``hardest`` are the grade's (see
    :class:`sudoku_model.logic.Grade`), ``levels_seen`` the level of each puzzle made and
    graded for this one, in order (the last is the one kept), and ``seed`` the seed of the
    try that made it (``generate_one`` without ``level`` remakes it from that seed).
    """

    index: int
    seed: int
    puzzle: Puzzle
    solution: Grid
    minimal: bool | None
    group_minimal: bool | None
    tries: int
    seconds: float
    backend: str
    symmetry: str = "none"
    level: str | None = None
    score: float | None = None
    hardest: str | None = None
    levels_seen: tuple[str, ...] = ()
    #: Killer puzzles: the number of cages (None for other puzzles).
    cages: int | None = None

    @property
    def clues(self) -> int:
        return self.puzzle.clues

    @property
    def level_tries(self) -> int:
        """Puzzles made and graded to get this one (0 without a level request)."""
        return len(self.levels_seen)

    def describe(self) -> str:
        """``"24 clues, minimal"``-style summary."""
        if self.minimal is None:
            status = "minimality unknown (budget)"
        elif self.minimal:
            status = "minimal"
        elif self.group_minimal and self.symmetry != "none":
            status = f"{self.symmetry}-minimal, not minimal"
        else:
            status = "not minimal"
        text = f"{self.clues} clues, {status}"
        if self.cages is not None:
            text = f"{self.cages} cages, {self.clues} givens, givens {status}"
        if self.level is not None:
            text += f", {self.level} (score {self.score:.1f}, hardest {self.hardest})"
        return text

    def to_json(self, *, solution: bool = True, alphabet: Any = None) -> dict[str, Any]:
        """The record of this puzzle (schema: :mod:`sudoku_model.records`): first the
        puzzle-file fields (``box``, ``variants``, ``regions``, ``puzzle`` and, with
        ``solution``, ``solution``) so that the output reads back as a puzzle file, then
        what is known about it (a generated puzzle is unique by construction)."""
        from .formats import puzzle_to_json
        from .records import head

        d = head("generate")
        shown = self.solution if solution else None
        if alphabet is None:
            d.update(puzzle_to_json(self.puzzle, solution=shown))
        else:
            d.update(puzzle_to_json(self.puzzle, solution=shown, alphabet=alphabet))
        d.update(
            clues=self.clues,
            verdict="unique",
            index=self.index,
            seed=self.seed,
            minimal=self.minimal,
        )
        if self.cages is not None:
            d["cages"] = self.cages
        if self.symmetry != "none":
            d["symmetry"] = self.symmetry
            d["group_minimal"] = self.group_minimal
        if self.level is not None:
            d.update(
                level=self.level,
                score=round(self.score or 0.0, 2),
                hardest=self.hardest,
                level_tries=self.level_tries,
            )
        d["backend"] = self.backend
        d["seconds"] = round(self.seconds, 6)
        return d


# -- the engine: the two questions a generator asks a backend ------------------------------
class GenerationEngine:
    """What the generator asks a backend, through two primitives of the backend contract
    (:mod:`sudoku_model.solving`), so any backend generates and the fast paths (native's C
    search with its SAT fallback, PySAT's assumptions) are the backends' own overrides:

    * :meth:`random_full_grid` - :meth:`~sudoku_model.solving.Backend.random_solution`;
    * :meth:`still_unique` - the :meth:`~sudoku_model.solving.Backend.removal_oracle` of the
      current full grid (one oracle per grid, closed when the grid changes).

    ``stats`` adds up what the oracles counted (native: ``fallback_calls``, the calls its
    SAT fallback answered).
    """

    def __init__(
        self, backend: Backend, budget: Budget | None = None, *, bulk_removal: bool = True
    ) -> None:
        self.backend = backend
        self.name = backend.engine_name()  # records name the engine (auto: native)
        self.budget = DEFAULT_BUDGET if budget is None else budget
        #: False: every removal pass runs as the Python loop of the contract's default
        #: (:meth:`RemovalOracle.remove_groups`), even where the oracle has a bulk pass of
        #: its own (native: C); the output is the same (a test compares), only slower.
        self.bulk_removal = bulk_removal
        self.stats: Counter[str] = Counter()
        self._oracle: RemovalOracle | None = None

    @property
    def fallback_calls(self) -> int:
        """Uniqueness calls answered by a backend's fallback solver (native from 16x16)."""
        self._collect()
        return self.stats["fallback_calls"]

    def random_full_grid(
        self, rules: RuleSet, rng: random.Random, *, start: Grid | None = None
    ) -> Grid | None:
        """A random solution of ``rules`` extending ``start``, drawn from ``rng`` only
        (the same ``rng`` state gives the same grid), or None when none was found."""
        return self.backend.random_solution(rules, rng, start=start, budget=self.budget)

    def oracle(self, rules: RuleSet, solution: Grid) -> RemovalOracle:
        """The removal oracle of this full grid (made on first use, kept until the grid
        changes)."""
        oracle = self._oracle
        if oracle is not None and oracle.solution is solution and oracle.rules is rules:
            return oracle  # the common case, without comparing grids
        if oracle is None or oracle.solution != solution or oracle.rules != rules:
            self.close()
            oracle = self._oracle = self.backend.removal_oracle(rules, solution, budget=self.budget)
        return oracle

    def still_unique(
        self, rules: RuleSet, givens: Sequence[int], removed: Sequence[int], solution: Grid
    ) -> bool | None:
        """Whether ``givens`` (``solution`` minus some clues) is still unique, knowing the
        puzzle was unique before the ``removed`` cells were emptied: no other solution may
        differ from ``solution`` in a removed cell. None when a budget ran out."""
        return self.oracle(rules, solution).still_unique(givens, removed)

    def remove_groups(
        self,
        rules: RuleSet,
        solution: Grid,
        givens: Sequence[int],
        groups: Sequence[Sequence[int]],
        *,
        target: int | None = None,
    ) -> RemovalPass:
        """The removal pass over ``solution`` (:meth:`RemovalOracle.remove_groups`): the
        oracle's own bulk pass (native: one C call), or the contract's Python loop with
        this module's logic shortcuts when it has none or :attr:`bulk_removal` is off."""
        oracle = self.oracle(rules, solution)
        if self.bulk_removal and oracle.bulk_removal:
            return oracle.remove_groups(givens, groups, target=target)
        shortcut = _removal_shortcut(rules, solution, oracle)
        return RemovalOracle.remove_groups(oracle, givens, groups, target=target, shortcut=shortcut)

    def all_necessary(
        self,
        rules: RuleSet,
        solution: Grid,
        givens: Sequence[int],
        groups: Sequence[Sequence[int]],
    ) -> bool | None:
        """The minimality test over ``groups`` (:meth:`RemovalOracle.all_necessary`),
        in bulk where the oracle can."""
        oracle = self.oracle(rules, solution)
        if self.bulk_removal and oracle.bulk_removal:
            return oracle.all_necessary(givens, groups)
        return RemovalOracle.all_necessary(oracle, givens, groups)

    def _collect(self) -> None:
        oracle = self._oracle
        if oracle is not None and oracle.stats:
            self.stats.update(oracle.stats)
            oracle.stats.clear()

    def close(self) -> None:
        """Close the current oracle (its counters go to ``stats``)."""
        if self._oracle is not None:
            self._collect()
            self._oracle.close()
            self._oracle = None


def engine_for(
    backend: Backend | str, *, budget: Budget | None = None, bulk_removal: bool = True
) -> GenerationEngine:
    """The generation engine of a backend (object or registered name); ``bulk_removal``
    as :class:`GenerationEngine`.

    Raises:
        BackendNotFoundError, BackendUnavailableError: for a backend name that cannot load.
    """
    if isinstance(backend, str):
        from .solving import get_backend

        backend = get_backend(backend)
    return GenerationEngine(backend, budget, bulk_removal=bulk_removal)


# -- the workflow --------------------------------------------------------------------------
def random_full_grid(
    rules: RuleSet,
    *,
    seed: int,
    backend: Backend | str = DEFAULT_BACKEND,
    start: Grid | None = None,
) -> Grid | None:
    """A random complete grid of ``rules`` (extending ``start`` when given) from ``seed``,
    or None when ``start`` has no solution. Not uniform: see the module notes.

    Raises:
        BackendNotFoundError, BackendUnavailableError: for a backend that cannot load.
    """
    engine = engine_for(backend)
    rng = random.Random(seed)
    for _ in range(DEFAULT_MAX_TRIES["plain"]):
        grid = engine.random_full_grid(rules, rng, start=start)
        if grid is not None:
            return grid
    return None


def _draws_like_cpython() -> bool:
    """True when ``random.Random.shuffle`` draws through ``_randbelow_with_getrandbits``
    (as in CPython 3.11; a test compares): then :func:`_shuffle` repeats its draws inline."""
    try:
        method = random.Random._randbelow  # type: ignore[attr-defined]
        return method is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]
    except AttributeError:
        return False


_INLINE_SHUFFLE = _draws_like_cpython()


def _shuffle(items: list[Any], rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same draws in the same order, so the same result and the
    same state of ``rng`` after it, without a Python call per element (a sixth of a
    minimal 9x9 puzzle's time). Falls back on ``rng.shuffle`` for a subclass of Random or
    a Python whose shuffle draws otherwise (a test compares the two)."""
    if type(rng) is not random.Random or not _INLINE_SHUFFLE:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i, n, k in _shuffle_steps(len(items)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


@lru_cache(maxsize=64)
def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The steps of a shuffle of ``size`` items: (i, a draw below i + 1, its bit length)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


_PEER_GETTERS: dict[RuleSet, tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]] = {}


def _peer_getters(rules: RuleSet) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
    """Per cell, a function returning the values of its peers (0 included)."""
    getters = _PEER_GETTERS.get(rules)
    if getters is None:
        getters = tuple(itemgetter(*sorted(p)) for p in rules.peers)
        _PEER_GETTERS[rules] = getters
    return getters


_UNITS_OF_CELL: dict[RuleSet, tuple[tuple[tuple[int, ...], ...], ...]] = {}


def _full_units_of_cell(rules: RuleSet) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per cell, the units of n cells holding it (each without the cell itself)."""
    table = _UNITS_OF_CELL.get(rules)
    if table is None:
        n = rules.shape.size
        units = rules.units
        table = tuple(
            tuple(tuple(u for u in units[k] if u != cell) for k in ks if len(units[k]) == n)
            for cell, ks in enumerate(rules.units_of_cell)
        )
        _UNITS_OF_CELL[rules] = table
    return table


def _hidden_single(
    cell: int,
    digit: int,
    values: bytearray,
    units: tuple[tuple[tuple[int, ...], ...], ...],
    peer_values: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...],
) -> bool:
    """True when some full unit of ``cell`` has no other place for ``digit``: every other
    cell of it is filled or sees ``digit`` among its peers' givens."""
    for unit in units[cell]:
        for u in unit:
            if not values[u] and digit not in peer_values[u](values):
                break
        else:
            return True
    return False


def _first_necessary_failure(
    engine: GenerationEngine,
    rules: RuleSet,
    values: bytearray | list[int],
    groups: Sequence[Sequence[int]],
    solution: Grid,
) -> bool | None:
    """Minimality over ``groups``: False when some group can be removed keeping the puzzle
    unique, None when a budget stopped a test, True when every group is necessary."""
    if not groups:
        return True
    return engine.all_necessary(rules, solution, values, groups)


def _removal_shortcut(rules: RuleSet, solution: Grid, oracle: RemovalOracle) -> RemovalShortcut:
    """The Python loop's answers without a solver call (only yes answers, so minimality
    is unaffected): the emptied cells are naked singles (their peers show every other
    digit) or, for engines whose calls are slow, hidden singles; from 16x16 up, full
    singles propagation is tried first while it keeps succeeding."""
    peer_values = _peer_getters(rules)
    wanted = rules.shape.size  # {0} plus the n - 1 other digits
    known = solution.values
    # Hidden singles cost a few microseconds: worth it only before slow solver calls.
    slow_calls = not oracle.cheap_calls
    hidden = _full_units_of_cell(rules) if slow_calls else None
    # From 16x16 up a solver call costs milliseconds to seconds: a full propagation of
    # singles in Python first (milliseconds) saves most of them while the grid is
    # dense. It stops paying once it keeps failing, so it is dropped after a run of
    # failures (a rule that depends only on the answers: still reproducible).
    propagate = [Singles.of(rules) if slow_calls and rules.shape.size >= 16 else None]
    failures = [0]

    def shortcut(values: bytearray, group: Sequence[int]) -> bool:
        if all(len({0, *peer_values[c](values)}) == wanted for c in group) or (
            hidden and all(_hidden_single(c, known[c], values, hidden, peer_values) for c in group)
        ):
            return True
        singles = propagate[0]
        if singles is not None:
            if singles.solves(values):
                failures[0] = 0
                return True
            failures[0] += 1
            if failures[0] >= 8:
                propagate[0] = None
        return False

    return shortcut


def generate_one(
    spec: GenerationSpec, engine: GenerationEngine, *, seed: int, index: int = 0
) -> GeneratedPuzzle:
    """Make one puzzle from ``seed`` (see the module notes for the method).

    With ``spec.level``, puzzles are made from :func:`level_seed` (``seed``, t) for
    t = 0, 1, ... and graded until one has a wanted level.

    Raises:
        GenerationError: when no puzzle met the request within ``spec.tries`` full grids
            (the message says what was tried), or none had a wanted level within
            ``spec.graded_tries`` (the message counts the levels reached).
        ImpossibleRequestError: when the starting grid has no solution.
    """
    if spec.level is not None:
        return _generate_at_level(spec, engine, seed=seed, index=index)
    if spec.killer is not None:
        return generate_killer_one(spec, engine, seed=seed, index=index)
    began = time.perf_counter()
    rules = spec.rules
    shape = rules.shape
    rng = random.Random(seed)
    fixed = frozenset(spec.start.filled_cells()) if spec.start is not None else frozenset()
    orbits = symmetry_orbits(shape, spec.symmetry)
    removable = [o for o in orbits if not fixed.intersection(o)] if fixed else list(orbits)
    best_seen: int | None = None
    no_grid = 0
    for attempt in range(1, spec.tries + 1):
        solution = engine.random_full_grid(rules, rng, start=spec.start)
        if solution is None:
            no_grid += 1
            if spec.start is not None and no_grid >= 3:
                raise ImpossibleRequestError(
                    "the starting grid has no solution (or none was found within the budget)"
                )
            continue
        if spec.pattern is not None:
            values = bytearray(v if c in spec.pattern else 0 for c, v in enumerate(solution.values))
            emptied = [c for c in range(shape.cell_count) if c not in spec.pattern]
            if engine.still_unique(rules, values, emptied, solution) is not True:
                continue
            strict = _first_necessary_failure(
                engine, rules, values, [(c,) for c in sorted(spec.pattern)], solution
            )
            return _result(
                spec, engine, index, seed, values, solution, strict, strict, attempt, began
            )
        order = removable[:]
        _shuffle(order, rng)
        done = engine.remove_groups(rules, solution, solution.values, order, target=spec.clues)
        values = bytearray(done.givens)
        clues = done.clues
        answers = done.answers
        visited = len(answers)
        unvisited = order[visited:]
        unknown = None in answers
        if spec.clues is not None and clues > spec.clues:
            best_seen = clues if best_seen is None else min(best_seen, clues)
            continue
        # Group-minimal: every visited orbit was necessary; test the unvisited ones.
        group_minimal: bool | None = None if unknown else True
        necessary_unvisited = False
        if unvisited:
            tested = _first_necessary_failure(engine, rules, values, unvisited, solution)
            if tested is False:
                group_minimal = False
            elif tested is None:
                group_minimal = None
            else:
                necessary_unvisited = True
        if group_minimal is False:
            minimal: bool | None = False  # a removable orbit: each of its clues can go
        elif spec.symmetry == "none" and not fixed:
            minimal = group_minimal
        else:
            # Clues shown necessary on their own need no second test.
            necessary = {o[0] for o, a in zip(order, answers) if a is False and len(o) == 1}
            if necessary_unvisited:
                necessary.update(o[0] for o in unvisited if len(o) == 1)
            singles = [(c,) for c in range(shape.cell_count) if values[c] and c not in necessary]
            minimal = _first_necessary_failure(engine, rules, values, singles, solution)
            if minimal is True and group_minimal is None:
                group_minimal = True
        return _result(
            spec, engine, index, seed, values, solution, minimal, group_minimal, attempt, began
        )
    if spec.pattern is not None:
        raise GenerationError(
            f"no grid out of {spec.tries} made the pattern "
            f"({len(spec.pattern)} clues) unique; try --max-tries or "
            "another pattern"
        )
    if spec.clues is not None:
        raise GenerationError(
            f"no puzzle with at most {spec.clues} clues in {spec.tries} "
            f"tries (fewest reached: {best_seen}); try a larger --clues "
            "or --max-tries"
        )
    raise GenerationError(f"no full grid found in {spec.tries} tries (budget too small?)")


def _generate_at_level(
    spec: GenerationSpec, engine: GenerationEngine, *, seed: int, index: int
) -> GeneratedPuzzle:
    """Make and grade puzzles from the derived seeds until one has a wanted level."""
    from .logic import grade  # loaded only when grading

    plain = replace(spec, level=None, level_tries=None)
    wanted = spec.level or ()
    seen: list[str] = []
    seconds = 0.0
    for attempt in range(spec.graded_tries):
        made = generate_one(plain, engine, seed=level_seed(seed, attempt), index=index)
        graded = grade(made.puzzle, keep_steps=False)
        seconds += made.seconds + graded.seconds
        if graded.verdict is VerdictKind.UNIQUE and graded.level is not None:
            level = graded.level
        elif graded.verdict is VerdictKind.UNKNOWN:
            level = "unknown"
        else:  # the generator and the grader disagree: one of them has a bug
            raise AssertionError(
                f"the grader says {graded.verdict.value} for the generated "
                f"puzzle {made.puzzle.givens.to_line()}"
            )
        seen.append(level)
        if level in wanted:
            return replace(
                made,
                seconds=seconds,
                level=level,
                score=graded.score,
                hardest=graded.hardest,
                levels_seen=tuple(seen),
            )
    reached = Counter(seen)
    counts = ", ".join(
        f"{name} {reached[name]}" for name in (*LEVEL_NAMES, "unknown") if reached[name]
    )
    wanted_text = " or ".join(wanted)
    tries = f"{len(seen)} tries" if len(seen) != 1 else "1 try"
    error = GenerationError(
        f"no puzzle of level {wanted_text} in {tries} (levels "
        f"reached: {counts}); levels are calibrated on 9x9 puzzles; try "
        "a larger --max-tries or another --level"
    )
    error.levels_seen = {name: reached[name] for name in (*LEVEL_NAMES, "unknown") if reached[name]}
    raise error


def _result(
    spec: GenerationSpec,
    engine: GenerationEngine,
    index: int,
    seed: int,
    values: bytearray,
    solution: Grid,
    minimal: bool | None,
    group_minimal: bool | None,
    tries: int,
    began: float,
) -> GeneratedPuzzle:
    puzzle = Puzzle(Grid._trusted(spec.rules.shape, tuple(values)), spec.rules)
    # The frozen dataclass's __init__ sets its 15 fields one object.__setattr__ at a time
    # (a few us, 2-4% of a minimal 9x9 puzzle); the instance dict takes the same values in
    # one call, and the fields left out read their class defaults. The same object as the
    # constructor's (equal, same hash and pickle: a test compares).
    made: GeneratedPuzzle = object.__new__(GeneratedPuzzle)
    made.__dict__.update(
        index=index,
        seed=seed,
        puzzle=puzzle,
        solution=solution,
        minimal=minimal,
        group_minimal=group_minimal,
        tries=tries,
        seconds=time.perf_counter() - began,
        backend=engine.name,
        symmetry=spec.symmetry,
    )
    return made


# -- killer puzzles (sudoku generate --variant killer) ---------------------------------------
@dataclass(frozen=True)
class KillerOptions:
    """How killer puzzles are made (``GenerationSpec(rules, killer=KillerOptions())``).

    Args:
        max_cage: the most cells a cage may have (cages hold distinct digits, so at most
            n); drawn cages have 2..max_cage cells where the grid lets them grow. None:
            5, or n on a grid of fewer digits (4 on a 4x4).

    Raises:
        ImpossibleRequestError: for a cage size outside 2..n (checked against the rules by
            :class:`GenerationSpec`).
    """

    max_cage: int | None = None

    def largest(self, n: int) -> int:
        """The largest cage on a grid of ``n`` digits (see ``max_cage``)."""
        return min(5, n) if self.max_cage is None else self.max_cage


def _check_killer_spec(spec: GenerationSpec) -> None:
    options = spec.killer
    assert options is not None
    n = spec.rules.shape.size
    size = options.largest(n)
    if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= n:
        raise ImpossibleRequestError(f"the largest cage must have 2..{n} cells, got {size!r}")
    if spec.symmetry != "none" or spec.pattern is not None or spec.clues is not None:
        raise ImpossibleRequestError(
            "killer puzzles are made without givens where the cages suffice: "
            "--symmetry, --pattern and --clues do not apply"
        )
    if spec.start is not None:
        raise ImpossibleRequestError(
            "killer puzzles start from a random grid: --from does not apply"
        )


def _cage_neighbours(shape: Shape, cell: int) -> list[int]:
    n = shape.size
    r, c = divmod(cell, n)
    return [
        (r + dr) * n + c + dc
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 0 <= r + dr < n and 0 <= c + dc < n
    ]


def _draw_cages(
    shape: Shape, solution: Sequence[int], rng: random.Random, max_cage: int
) -> list[list[int]]:
    """Cover the grid with connected cages of distinct digits of ``solution``: each
    grows from a random free cell, one random free neighbour at a time, toward a size
    drawn from 2..max_cage (a cell boxed in by other cages stays a cage of one)."""
    owner = [-1] * shape.cell_count
    order = list(range(shape.cell_count))
    rng.shuffle(order)
    cages: list[list[int]] = []
    for seed_cell in order:
        if owner[seed_cell] >= 0:
            continue
        target = rng.randint(2, max_cage)
        cage = [seed_cell]
        owner[seed_cell] = len(cages)
        digits = {solution[seed_cell]}
        while len(cage) < target:
            options = sorted(
                {
                    x
                    for c in cage
                    for x in _cage_neighbours(shape, c)
                    if owner[x] < 0 and solution[x] not in digits
                }
            )
            if not options:
                break
            pick = rng.choice(options)
            cage.append(pick)
            owner[pick] = len(cages)
            digits.add(solution[pick])
        cages.append(cage)
    return cages


def _killer_rules(
    base: RuleSet, cages: Sequence[Sequence[int]], solution: Sequence[int]
) -> RuleSet:
    from .rules import killer_rule

    shape = base.shape
    totals = [(tuple(sorted(c)), sum(solution[x] for x in c)) for c in cages]
    return base.with_rules([killer_rule(shape, sorted(totals))])


def _split_cage(shape: Shape, cage: list[int], at: int) -> list[list[int]]:
    """Split ``cage`` into connected pieces: the half of it nearest to ``at`` (breadth
    first), then the connected parts of the rest."""
    members = set(cage)
    seen = [at]
    for c in seen:
        seen.extend(x for x in _cage_neighbours(shape, c) if x in members and x not in seen)
    near = seen[: (len(cage) + 1) // 2]
    rest = members - set(near)
    pieces = [near]
    while rest:
        part = [min(rest)]
        rest.discard(part[0])
        for c in part:
            more = [x for x in _cage_neighbours(shape, c) if x in rest]
            rest.difference_update(more)
            part.extend(more)
        pieces.append(part)
    return pieces


#: Search nodes (native, logic) or conflicts (SAT) one uniqueness check of a cage layout
#: may take before it counts as "not known unique". Layouts near the edge of uniqueness
#: can cost a backtracker 10^5 nodes and more (seconds); a merge that needs that much is
#: not made, so generation stays fast (native 9x9: mostly under 20 ms a check) and the
#: puzzles stay within reach of a solver without learning.
KILLER_CHECK_NODES = 20_000


def _killer_verdict(
    engine: GenerationEngine, base: RuleSet, cages: list[list[int]], solution: Grid
) -> Any:
    rules = _killer_rules(base, cages, solution.values)
    puzzle = Puzzle.empty(base.shape, rules)
    limit = engine.budget
    budget = replace(
        limit,
        nodes=min(limit.nodes or KILLER_CHECK_NODES, KILLER_CHECK_NODES),
        conflicts=min(limit.conflicts or KILLER_CHECK_NODES, KILLER_CHECK_NODES),
    )
    return engine.backend.check_unique(puzzle, solution=solution, budget=budget)


def generate_killer_one(
    spec: GenerationSpec, engine: GenerationEngine, *, seed: int, index: int = 0
) -> GeneratedPuzzle:
    """Make one unique killer puzzle from ``seed``.

    1. A random full grid S of ``spec.rules`` (the base rules: classic or variants).
    2. Cages drawn on S (:func:`_draw_cages`), totals from S.
    3. **Split** while not unique: a cell where a second solution differs from S is taken
       from its cage (the cage is split in two connected halves around it), until the
       cages alone give a unique puzzle (cages of one cell always do in the end).
    4. **Merge** while unique: adjacent cages (together at most ``max_cage`` cells, with
       distinct digits) are joined, in random order, when the puzzle stays unique (as
       shown within :data:`KILLER_CHECK_NODES`).
    5. **Givens**: cages of one cell left over become givens, then givens are removed in
       random order while the puzzle stays unique (a removed given leaves its cell without
       a cage); ``minimal`` says whether every given left is necessary.

    Reports the cage count (``cages``) and the givens (``clues``).

    Raises:
        GenerationError: when no full grid was found within ``spec.tries``.
    """
    options = spec.killer
    assert options is not None
    began = time.perf_counter()
    base = spec.rules
    shape = base.shape
    largest = options.largest(shape.size)
    rng = random.Random(seed)
    for attempt in range(1, spec.tries + 1):
        solution = engine.random_full_grid(base, rng)
        if solution is None:
            continue
        s = solution.values
        cages = _draw_cages(shape, s, rng, largest)
        # 3. split while not unique
        for _ in range(shape.cell_count):
            verdict = _killer_verdict(engine, base, cages, solution)
            if verdict.kind is VerdictKind.UNIQUE:
                break
            splittable = [k for k, cage in enumerate(cages) if len(cage) > 1]
            if not splittable:
                break
            other = next((w for w in verdict.witnesses if w != solution), None)
            if other is not None:
                owner = {c: k for k, cage in enumerate(cages) for c in cage}
                differ = [c for c in range(shape.cell_count) if other.values[c] != s[c]]
                choices = [c for c in differ if len(cages[owner[c]]) > 1]
            else:  # budget spent: split somewhere
                choices = [c for k in splittable for c in cages[k]]
                owner = {c: k for k, cage in enumerate(cages) for c in cage}
            if not choices:
                break
            at = rng.choice(choices)
            k = owner[at]
            cages[k : k + 1] = _split_cage(shape, cages[k], at)
        else:
            continue
        if _killer_verdict(engine, base, cages, solution).kind is not VerdictKind.UNIQUE:
            continue  # budget spent on every split: try another grid
        # 4. merge while unique
        pairs = sorted(
            {
                (min(a, b), max(a, b))
                for a in range(shape.cell_count)
                for b in _cage_neighbours(shape, a)
            }
        )
        rng.shuffle(pairs)
        for a, b in pairs:
            owner = {c: k for k, cage in enumerate(cages) for c in cage}
            ka, kb = owner[a], owner[b]
            if ka == kb or len(cages[ka]) + len(cages[kb]) > largest:
                continue
            if {s[c] for c in cages[ka]} & {s[c] for c in cages[kb]}:
                continue
            trial = [cage for k, cage in enumerate(cages) if k not in (ka, kb)]
            trial.append(cages[ka] + cages[kb])
            if _killer_verdict(engine, base, trial, solution).kind is VerdictKind.UNIQUE:
                cages = trial
        # 5. single cells become givens, removed while unique
        values = bytearray(shape.cell_count)
        for cage in cages:
            if len(cage) == 1:
                values[cage[0]] = s[cage[0]]
        cages = [cage for cage in cages if len(cage) > 1]
        rules = _killer_rules(base, cages, s)
        givens = [c for c in range(shape.cell_count) if values[c]]
        rng.shuffle(givens)
        done = engine.remove_groups(rules, solution, values, [(c,) for c in givens])
        minimal: bool | None = None if None in done.answers else True
        puzzle = Puzzle(Grid._trusted(shape, tuple(done.givens)), rules)
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
            cages=len(cages),
        )
    raise GenerationError(f"no killer puzzle made in {spec.tries} tries (budget too small?)")


# -- batches -------------------------------------------------------------------------------
@dataclass
class _WorkerState:
    spec: GenerationSpec | None = None
    engine: GenerationEngine | None = None
    seed: int = 0


_WORKER = _WorkerState()


def _worker_init(spec: GenerationSpec, backend_name: str, budget: Budget | None, seed: int) -> None:
    _WORKER.spec = spec
    _WORKER.engine = engine_for(backend_name, budget=budget)
    _WORKER.seed = seed


def _worker_make(indices: list[int]) -> list[GeneratedPuzzle]:
    assert _WORKER.spec is not None and _WORKER.engine is not None
    return _make(_WORKER.spec, _WORKER.engine, _WORKER.seed, indices)


def _make(
    spec: GenerationSpec, engine: GenerationEngine, seed: int, indices: list[int]
) -> list[GeneratedPuzzle]:
    return [generate_one(spec, engine, seed=puzzle_seed(seed, i), index=i) for i in indices]


def generate(
    spec: GenerationSpec,
    *,
    count: int = 1,
    seed: int | None = None,
    backend: Backend | str = DEFAULT_BACKEND,
    jobs: int = 1,
    budget: Budget | None = None,
    level: str | Iterable[str] | None = None,
    level_tries: int | None = None,
) -> Iterator[GeneratedPuzzle]:
    """Make ``count`` puzzles, yielded in index order as they are ready.

    Puzzle i uses the seed :func:`puzzle_seed` (seed, i), so the output is the same for
    any ``jobs``. ``seed=None`` draws one from the operating system. With ``jobs`` > 1 the
    puzzles are made in that many worker processes (``backend`` must then be a name).
    ``budget`` limits each solver call; a call that runs out keeps its clue (the puzzle
    stays unique; its minimality is reported unknown). ``level`` and ``level_tries``, when
    given, replace the spec's (see :class:`GenerationSpec`): only puzzles graded at one of
    those levels are kept, each carrying its level and score.

    >>> from sudoku_model import RuleSet, Shape
    >>> spec = GenerationSpec(RuleSet.classic(Shape(2, 2)))
    >>> [p.puzzle.is_classic for p in generate(spec, count=2, seed=7)]  # doctest: +SKIP
    [True, True]

    Raises:
        GenerationError: when a puzzle could not be made within its tries.
        ValueError: for count < 0 or jobs < 1, or jobs > 1 with a backend object, or an
            unknown level.
    """
    if level is not None or level_tries is not None:
        spec = replace(
            spec,
            level=spec.level if level is None else parse_levels(level),
            level_tries=spec.level_tries if level_tries is None else level_tries,
        )
    if count < 0:
        raise ValueError(f"count must be non-negative, got {count}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big") >> 1
    from .executor import chunks, executor_for

    # Small chunks keep the order-preserving stream flowing and the workers balanced.
    size = max(1, min(64, count // (jobs * 8)))
    if jobs == 1 or count <= 1:
        # One puzzle at a time in a worker thread (the main thread stays free to notice a
        # signal while a search runs): the same stream as with processes.
        work: Callable[[list[int]], list[GeneratedPuzzle]] = partial(
            _make, spec, engine_for(backend, budget=budget), seed
        )
        executor = executor_for()
        on_stop = [backend.interrupt] if isinstance(backend, Backend) else []
    else:
        if not isinstance(backend, str):
            raise ValueError("with jobs > 1 pass the backend by name (each worker loads its own)")
        # The removal loop is Python work (threads would queue on the GIL): processes.
        executor = executor_for(
            jobs=jobs,
            python_work=True,
            initializer=_worker_init,
            initargs=(spec, backend, budget, seed),
        )
        work, on_stop = _worker_make, []
    for _, made in executor.map(work, chunks(range(count), size, first=1), on_stop=on_stop):
        yield from made


def clue_histogram(puzzles: Iterable[GeneratedPuzzle]) -> dict[int, int]:
    """Clue count -> number of puzzles, sorted by clue count."""
    counts = Counter(p.clues for p in puzzles)
    return dict(sorted(counts.items()))


def level_histogram(
    puzzles: Iterable[GeneratedPuzzle], *, every_try: bool = False
) -> dict[str, int]:
    """Level -> number of puzzles (kept ones; with ``every_try``, every puzzle graded on
    the way), easiest first; puzzles made without a level request are not counted."""
    counts: Counter[str] = Counter()
    for p in puzzles:
        if every_try:
            counts.update(p.levels_seen)
        elif p.level is not None:
            counts[p.level] += 1
    return {name: counts[name] for name in (*LEVEL_NAMES, "unknown") if counts[name]}


def bias_note(rules: RuleSet) -> str:
    """The caveat on the clue distribution of top-down removal (for batch reports)."""
    note = (
        "top-down removal is biased toward few clues: minimal 9x9 puzzles made this way "
        "average about 24.4 clues, against about 26.6 for the real distribution of "
        "minimal puzzles"
    )
    if not (rules.is_classic and rules.shape.size == 9):
        note += " (figures for classic 9x9)"
    return note
