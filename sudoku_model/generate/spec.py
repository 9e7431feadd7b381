"""What to make and what was made: the request of a batch (:class:`GenerationSpec`,
:class:`KillerOptions`) with the limits and seeds it implies, the errors of a request, and
the record of one made puzzle (:class:`GeneratedPuzzle`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import SudokuError
from ..formats import read_char_grid
from ..geometry import Shape
from ..grid import Grid
from ..puzzle import Puzzle
from ..rules import RuleSet
from .symmetry import symmetry_orbits


# -- errors --------------------------------------------------------------------------------
class GenerationError(SudokuError):
    """The request is possible in principle but no puzzle was found within the tries.

    ``levels_seen``: for a level request, level -> puzzles graded at it (else None).
    """

    levels_seen: dict[str, int] | None = None


class ImpossibleRequestError(SudokuError, ValueError):
    """The request can never be met (too few clues, clashing options): says why."""


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
#: package does not load the logic solver until it grades; a test keeps them equal).
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
        drawn: make renban, whisper, palindrome or negative kropki puzzles
            (:class:`DrawnOptions`): lines or dots drawn on each full grid and added to
            ``rules`` (see :func:`generate_drawn_one`).
        max_seconds: a wall-clock deadline per puzzle (None: none). Every search made for
            the puzzle (full grids, the removal pass, minimality tests, grading, killer
            checks) gets at most the time left, and searches still running when it passes
            are stopped (the engine's backend is interrupted, then cleared). Clues whose
            test was cut stay, so the puzzle is still unique and its minimality is
            reported unknown; a puzzle without a full grid or a finished killer by then
            raises :class:`GenerationError`.

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
    max_seconds: float | None = None
    drawn: DrawnOptions | None = None

    def __post_init__(self) -> None:
        symmetry_orbits(self.rules.shape, self.symmetry)  # validates the name
        seconds = self.max_seconds
        if seconds is not None and (
            isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds >= 0
        ):
            raise ImpossibleRequestError(
                f"max_seconds must be a non-negative number, got {seconds!r}"
            )
        if self.killer is not None:
            _check_killer_spec(self)
        if self.drawn is not None:
            _check_drawn_spec(self)
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
    #: Renban, whisper and palindrome puzzles: the number of lines (None for others; the
    #: record's ``constraints`` hold the lines themselves).
    lines: int | None = None
    #: Negative kropki puzzles: the number of dots (None for others).
    dots: int | None = None

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
        elif self.lines is not None:
            text = f"{self.lines} lines, {self.clues} givens, givens {status}"
        elif self.dots is not None:
            text = f"{self.dots} dots, {self.clues} givens, givens {status}"
        if self.level is not None:
            text += f", {self.level} (score {self.score:.1f}, hardest {self.hardest})"
        return text

    def to_json(self, *, solution: bool = True, alphabet: Any = None) -> dict[str, Any]:
        """The record of this puzzle (schema: :mod:`sudoku_model.records`): first the
        puzzle-file fields (``box``, ``variants``, ``regions``, ``puzzle`` and, with
        ``solution``, ``solution``) so that the output reads back as a puzzle file, then
        what is known about it (a generated puzzle is unique by construction)."""
        from ..formats import puzzle_to_json
        from ..records import head

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


def _deadline_error(spec: GenerationSpec) -> GenerationError:
    return GenerationError(
        f"no puzzle made within the deadline of {spec.max_seconds:g} s per puzzle "
        "(--budget-seconds): give it more time"
    )


# -- the options of killer puzzles (sudoku generate --variant killer) ----------------------
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


# -- the options of drawn variants (sudoku generate --variant renban...) -------------------
#: The kinds of :class:`DrawnOptions`.
DRAWN_KINDS = ("renban", "whisper", "palindrome", "kropki-negative")


@dataclass(frozen=True)
class DrawnOptions:
    """Which marks are drawn on each full grid (``GenerationSpec(rules,
    drawn=DrawnOptions("renban"))``): ``renban``, ``whisper`` (German whispers),
    ``palindrome`` lines, or ``kropki-negative`` (every kropki dot given, with the negative
    constraint). See :func:`sudoku_model.generate.generate_drawn_one`.

    Raises:
        ImpossibleRequestError: for another kind (checked by :class:`GenerationSpec`).
    """

    kind: str


def _check_drawn_spec(spec: GenerationSpec) -> None:
    options = spec.drawn
    assert options is not None
    if options.kind not in DRAWN_KINDS:
        raise ImpossibleRequestError(
            f"unknown drawn variant {options.kind!r}: one of {', '.join(DRAWN_KINDS)}"
        )
    if spec.killer is not None:
        raise ImpossibleRequestError(f"{options.kind} puzzles do not combine with killer cages")
    if spec.symmetry != "none" or spec.pattern is not None or spec.clues is not None:
        raise ImpossibleRequestError(
            f"{options.kind} puzzles keep givens only where their marks need them: "
            "--symmetry, --pattern and --clues do not apply"
        )
    if spec.start is not None:
        raise ImpossibleRequestError(
            f"{options.kind} puzzles start from a random grid: --from does not apply"
        )
