"""The generator: every puzzle is checked unique by a *different* backend than the one that
made it, and minimal where promised (each clue removed -> not unique, again by the other
backend); seeds reproduce across worker counts; symmetry and patterns hold cell by cell.
Generation by difficulty: every kept puzzle grades at the level asked for when graded again
on its own and is remade from its recorded seed; requests that cannot be met fail with the
levels reached."""

from __future__ import annotations

import dataclasses
import random

import pytest

from sudoku_model import Grid, ParseError, Puzzle, RuleSet, Shape, VerdictKind, get_backend
from sudoku_model.fill import random_fill as _random_fill
from sudoku_model.generate import (
    DEFAULT_LEVEL_TRIES,
    LEVEL_NAMES,
    SYMMETRIES,
    GenerationError,
    GenerationSpec,
    ImpossibleRequestError,
    engine_for,
    generate,
    generate_one,
    is_symmetric,
    level_histogram,
    level_seed,
    minimum_clues,
    parse_levels,
    parse_pattern,
    puzzle_seed,
    random_full_grid,
    symmetry_orbits,
)
from sudoku_model.logic import LEVELS, grade
from sudoku_model.solving import PRIMITIVES, Backend

MAKER_CHECKER = [("native", "pysat"), ("pysat", "native")]
CLASSIC9 = RuleSet.classic(Shape(3, 3))


@pytest.fixture(scope="module")
def backends():
    return {name: get_backend(name) for name in ("native", "pysat")}


def _other(name: str) -> str:
    return "pysat" if name == "native" else "native"


def assert_unique(puzzle: Puzzle, solution: Grid, checker) -> None:
    result = checker.count(puzzle, limit=2)
    assert result.complete and result.count == 1, f"{puzzle} is not unique ({checker.name})"
    assert result.solutions[0] == solution


def removable_clues(puzzle: Puzzle, checker) -> list[int]:
    """Clues whose removal leaves the puzzle unique, as the checker sees it."""
    out = []
    for cell in puzzle.givens.filled_cells():
        smaller = puzzle.with_givens(puzzle.givens.without([cell]))
        result = checker.count(smaller, limit=2)
        assert result.complete or result.count == 2
        if result.count == 1:
            out.append(cell)
    return out


# -- pieces --------------------------------------------------------------------------------
def _images(shape: Shape, symmetry: str, cell: int) -> list[int]:
    """Images of a cell under the generators of a symmetry, computed independently."""
    n = shape.size
    r, c = divmod(cell, n)
    m = n - 1
    maps = {
        "rot90": (c, m - r),
        "rot180": (m - r, m - c),
        "mirror": (r, m - c),
        "flip": (m - r, c),
        "diagonal": (c, r),
        "antidiagonal": (m - c, m - r),
    }
    gens = {
        "none": [],
        "rot180": ["rot180"],
        "rot90": ["rot90"],
        "mirror": ["mirror"],
        "flip": ["flip"],
        "diagonal": ["diagonal"],
        "antidiagonal": ["antidiagonal"],
        "biaxial": ["mirror", "flip"],
        "bidiagonal": ["diagonal", "antidiagonal"],
        "dihedral": ["rot90", "mirror"],
    }[symmetry]
    return [maps[g][0] * n + maps[g][1] for g in gens]


@pytest.mark.parametrize("symmetry", SYMMETRIES)
@pytest.mark.parametrize("shape", [Shape(3, 3), Shape(2, 2), Shape(2, 3)])
def test_orbits_partition_the_grid_and_are_closed(shape, symmetry):
    orbits = symmetry_orbits(shape, symmetry)
    cells = [c for o in orbits for c in o]
    assert sorted(cells) == list(range(shape.cell_count))
    where = {c: k for k, o in enumerate(orbits) for c in o}
    for cell in range(shape.cell_count):
        assert all(where[i] == where[cell] for i in _images(shape, symmetry, cell))


def test_orbit_counts_of_the_9x9_grid():
    counts = {s: len(symmetry_orbits(Shape(3, 3), s)) for s in SYMMETRIES}
    # Burnside: rot180 fixes 1 cell -> (81+1)/2; rot90 -> (81+1+1+1)/4; diagonal fixes 9.
    assert counts["none"] == 81 and counts["rot180"] == 41 and counts["rot90"] == 21
    assert counts["diagonal"] == 45 and counts["mirror"] == 45 and counts["dihedral"] == 15


def test_unknown_symmetry_is_refused():
    with pytest.raises(ValueError, match="known: none"):
        symmetry_orbits(Shape(3, 3), "spiral")


def test_puzzle_seeds_are_stable_and_distinct():
    seeds = [puzzle_seed(42, i) for i in range(1000)]
    assert len(set(seeds)) == 1000
    assert seeds == [puzzle_seed(42, i) for i in range(1000)]
    assert puzzle_seed(43, 0) != seeds[0]


def test_minimum_clues():
    assert minimum_clues(RuleSet.classic(Shape(3, 3)))[0] == 17
    assert minimum_clues(RuleSet.classic(Shape(2, 2)))[0] == 4
    assert minimum_clues(RuleSet.classic(Shape(4, 4)))[0] == 15
    assert minimum_clues(RuleSet.build(Shape(3, 3), ["diagonal"]))[0] == 8


def test_sixteen_clues_for_9x9_is_refused_with_the_reason():
    with pytest.raises(
        ImpossibleRequestError,
        match=r"no 16-clue 9x9 puzzle is unique "
        r"\(McGuire et al\. 2012\)",
    ):
        GenerationSpec(RuleSet.classic(Shape(3, 3)), clues=16)
    GenerationSpec(RuleSet.classic(Shape(3, 3)), clues=17)  # possible in principle


def test_other_impossible_requests_are_refused():
    classic9 = RuleSet.classic(Shape(3, 3))
    with pytest.raises(ImpossibleRequestError, match="4x4"):
        GenerationSpec(RuleSet.classic(Shape(2, 2)), clues=3)
    with pytest.raises(ImpossibleRequestError, match="does not combine"):
        GenerationSpec(classic9, symmetry="rot180", pattern=frozenset(range(30)))
    with pytest.raises(ImpossibleRequestError, match="16 cells"):
        GenerationSpec(classic9, pattern=frozenset(range(16)))
    solution = random_full_grid(classic9, seed=1, backend="native")
    start = solution.restricted_to(range(18))
    with pytest.raises(ImpossibleRequestError, match="already has 18 clues"):
        GenerationSpec(classic9, clues=17, start=start)
    with pytest.raises(ImpossibleRequestError, match="outside the pattern"):
        GenerationSpec(classic9, start=start, pattern=frozenset(range(1, 40)))


def test_parse_pattern_reads_blocks_and_lines():
    shape, cells = parse_pattern("x . | . x\n. . | . .\n----+----\n. . | . .\nx . | . x\n")
    assert shape == Shape(2, 2) and sorted(cells) == [0, 3, 12, 15]
    shape, cells = parse_pattern("#" + "\n" + "1" + "." * 80)
    assert shape == Shape(3, 3) and cells == frozenset({0})
    with pytest.raises(ParseError, match="80 cells is not a grid") as info:
        parse_pattern("x" * 80, source="mask.txt")
    assert (info.value.source, info.value.line, info.value.column) == ("mask.txt", 1, 81)
    with pytest.raises(ParseError, match="ragged grid") as info:
        parse_pattern("x..x\n....\n...\nx..x")
    assert (info.value.line, info.value.column) == (3, 4)


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet.classic(Shape(2, 2)),
        RuleSet.classic(Shape(2, 3)),
        RuleSet.classic(Shape(3, 3)),
        RuleSet.classic(Shape(3, 4)),
        RuleSet.classic(Shape(4, 4)),
        RuleSet.build(Shape(3, 3), ["windoku"]),
        RuleSet.build(Shape(3, 3), ["anti-knight"]),
        RuleSet.build(Shape(3, 3), ["diagonal", "anti-king"]),
    ],
    ids=repr,
)
def test_python_random_fill_gives_valid_grids(rules):
    rng = random.Random(5)
    grids = [g for g in (_random_fill(rules, rng) for _ in range(3)) if g is not None]
    assert grids
    for g in grids:
        assert g.is_complete and Puzzle(g, rules).conflicts() == []
    start = grids[0].restricted_to(range(0, rules.shape.cell_count, 7))
    completed = _random_fill(rules, random.Random(1), start)
    assert completed is not None and Puzzle(start, rules).is_solution(completed)


def test_random_full_grids_vary_and_reproduce(backends):
    rules = RuleSet.classic(Shape(3, 3))
    for name in ("native", "pysat"):
        grids = [random_full_grid(rules, seed=s, backend=backends[name]) for s in range(20)]
        assert all(g.is_complete and not Puzzle(g, rules).conflicts() for g in grids)
        assert len(set(grids)) == 20
        assert grids[3] == random_full_grid(rules, seed=3, backend=backends[name])
    # digits are exchangeable: over many grids, each digit appears in the corner
    corner = {random_full_grid(rules, seed=s, backend=backends["native"])[0] for s in range(200)}
    assert corner == set(range(1, 10))


# -- generation cross-checked by the other backend ------------------------------------------
@pytest.mark.parametrize("maker,checker", MAKER_CHECKER)
@pytest.mark.parametrize("shape,count", [(Shape(2, 2), 12), (Shape(2, 3), 8), (Shape(3, 3), 6)])
def test_minimal_puzzles_are_unique_and_minimal(backends, maker, checker, shape, count):
    spec = GenerationSpec(RuleSet.classic(shape))
    made = list(generate(spec, count=count, seed=11, backend=backends[maker]))
    assert [m.index for m in made] == list(range(count))
    for m in made:
        assert m.minimal is True and m.group_minimal is True and m.backend.startswith(maker)
        assert m.clues >= minimum_clues(spec.rules)[0]
        assert Puzzle(m.puzzle.givens, spec.rules).is_solution(m.solution)
        assert_unique(m.puzzle, m.solution, backends[checker])
        assert removable_clues(m.puzzle, backends[checker]) == []


@pytest.mark.parametrize(
    "variant,maker",
    [
        ("diagonal", "native"),
        ("windoku", "pysat"),
        ("anti-knight", "native"),
        ("anti-king", "pysat"),
    ],
)
def test_variants_generate(backends, variant, maker):
    rules = RuleSet.build(Shape(3, 3), [variant])
    made = generate_one(GenerationSpec(rules), engine_for(backends[maker]), seed=3)
    assert made.puzzle.rules == rules and made.minimal is True
    assert_unique(made.puzzle, made.solution, backends[_other(maker)])
    assert removable_clues(made.puzzle, backends[_other(maker)]) == []


def test_jigsaw_generates(backends):
    # Regions: the 3x2 boxes of a 6x6 grid, which are not the 2x3 boxes of its shape.
    shape = Shape(2, 3)
    labels = [0] * 36
    for k, box in enumerate(Shape(3, 2).boxes):
        for c in box:
            labels[c] = k
    rules = RuleSet.build(shape, regions=labels)
    for maker in ("native", "pysat"):
        made = generate_one(GenerationSpec(rules), engine_for(backends[maker]), seed=9)
        assert made.minimal is True
        assert_unique(made.puzzle, made.solution, backends[_other(maker)])
        assert removable_clues(made.puzzle, backends[_other(maker)]) == []


@pytest.mark.slow
def test_16x16_generates(backends):
    spec = GenerationSpec(RuleSet.classic(Shape(4, 4)))
    made = generate_one(spec, engine_for(backends["pysat"]), seed=1)
    assert made.minimal is True
    assert_unique(made.puzzle, made.solution, backends["native"])


# -- options ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "symmetry", ["rot180", "rot90", "mirror", "diagonal", "antidiagonal", "dihedral"]
)
def test_symmetry_holds_cell_by_cell(backends, symmetry):
    rules = RuleSet.classic(Shape(3, 3))
    spec = GenerationSpec(rules, symmetry=symmetry)
    for m in generate(spec, count=2, seed=5, backend=backends["native"]):
        filled = m.puzzle.givens.values
        for cell in range(81):
            for image in _images(rules.shape, symmetry, cell):
                assert bool(filled[cell]) == bool(filled[image])
        assert is_symmetric(m.puzzle.givens, symmetry)
        checker = backends["pysat"]
        assert_unique(m.puzzle, m.solution, checker)
        # group-minimal: no orbit can go; minimal exactly when no single clue can go
        for orbit in symmetry_orbits(rules.shape, symmetry):
            if filled[orbit[0]]:
                smaller = m.puzzle.with_givens(m.puzzle.givens.without(orbit))
                assert checker.count(smaller, limit=2).count == 2
        assert m.group_minimal is True
        assert m.minimal is (removable_clues(m.puzzle, checker) == [])


def test_clue_target_stops_at_k(backends):
    rules = RuleSet.classic(Shape(3, 3))
    made = list(
        generate(GenerationSpec(rules, clues=30), count=4, seed=2, backend=backends["pysat"])
    )
    for m in made:
        assert m.clues == 30
        assert_unique(m.puzzle, m.solution, backends["native"])
        assert m.minimal is (removable_clues(m.puzzle, backends["native"]) == [])
    assert any(m.minimal is False for m in made)  # stopping early leaves spare clues


def test_unreachable_clue_target_gives_up_with_a_clear_message(backends):
    spec = GenerationSpec(RuleSet.classic(Shape(3, 3)), clues=18, max_tries=5)
    with pytest.raises(GenerationError, match=r"at most 18 clues in 5 tries"):
        generate_one(spec, engine_for(backends["native"]), seed=1)


def test_pattern_is_respected(backends):
    shape = Shape(3, 3)
    # A rot180-symmetric mask of 30 cells, as setters draw them.
    mask = frozenset(c for o in symmetry_orbits(shape, "rot180")[::3] for c in o) | {40}
    spec = GenerationSpec(RuleSet.classic(shape), pattern=mask)
    for maker in ("native", "pysat"):
        made = generate_one(spec, engine_for(backends[maker]), seed=7)
        assert frozenset(made.puzzle.givens.filled_cells()) == mask
        assert_unique(made.puzzle, made.solution, backends[_other(maker)])
        assert made.minimal is (removable_clues(made.puzzle, backends[_other(maker)]) == [])


def test_impossible_pattern_gives_up(backends):
    # Givens only in the first two rows can never fix the rest of the grid.
    spec = GenerationSpec(RuleSet.classic(Shape(3, 3)), pattern=frozenset(range(18)), max_tries=3)
    with pytest.raises(GenerationError, match="no grid out of 3 made the pattern"):
        generate_one(spec, engine_for(backends["native"]), seed=1)


@pytest.mark.parametrize("maker,checker", MAKER_CHECKER)
def test_from_keeps_the_users_clues(backends, maker, checker):
    rules = RuleSet.classic(Shape(3, 3))
    start = Grid.parse("1" + "." * 9 + "2" + "." * 9 + "3" + "." * 40 + "4" + "." * 19)
    spec = GenerationSpec(rules, start=start)
    made = generate_one(spec, engine_for(backends[maker]), seed=4)
    assert all(made.puzzle.givens[c] == start[c] for c in start.filled_cells())
    assert Puzzle(start, rules).is_solution(made.solution)
    assert_unique(made.puzzle, made.solution, backends[checker])
    added = removable_clues(made.puzzle, backends[checker])
    assert set(added) <= set(start.filled_cells())  # every added clue is necessary
    assert made.minimal is (added == [])
    # symmetric completion keeps whole orbits around the user's clues
    sym = generate_one(
        GenerationSpec(rules, start=start, symmetry="rot180"), engine_for(backends[maker]), seed=4
    )
    assert is_symmetric(sym.puzzle.givens, "rot180")
    assert_unique(sym.puzzle, sym.solution, backends[checker])


def test_from_an_unsolvable_start_is_refused(backends):
    # Row 1 needs a 1 somewhere, but every free cell of it sees a 1.
    start = Grid.parse(".23456789" + "........1" + "." * 63)
    start = start.with_value(9 * 3 + 0, 1)  # column 1 has a 1 too: r1c1 cannot be 1
    spec = GenerationSpec(RuleSet.classic(Shape(3, 3)), start=start)
    assert backends["native"].solve(Puzzle(start)).status.value == "unsolvable"
    with pytest.raises(ImpossibleRequestError, match="no solution"):
        generate_one(spec, engine_for(backends["native"]), seed=1)


# -- reproducibility -------------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["native", "pysat"])
def test_seeds_reproduce_across_jobs(backend):
    spec = GenerationSpec(RuleSet.classic(Shape(3, 3)), symmetry="rot180")
    one = [
        (m.puzzle, m.solution, m.minimal)
        for m in generate(spec, count=6, seed=99, backend=backend, jobs=1)
    ]
    again = [
        (m.puzzle, m.solution, m.minimal)
        for m in generate(spec, count=6, seed=99, backend=backend, jobs=1)
    ]
    two = [
        (m.puzzle, m.solution, m.minimal)
        for m in generate(spec, count=6, seed=99, backend=backend, jobs=2)
    ]
    assert one == again == two
    other = [m.puzzle for m in generate(spec, count=6, seed=100, backend=backend)]
    assert not set(other) & {p for p, _, _ in one}


def test_engines_agree_given_the_same_seed(backends):
    # The SAT engine and the generic engine draw the same full grid from the same seed and
    # get the same yes/no answers, whichever backend gives them: the same puzzle results.
    spec = GenerationSpec(RuleSet.classic(Shape(3, 3)))
    sat = generate_one(spec, engine_for(backends["pysat"]), seed=31)
    generic = generate_one(spec, engine_for(_defaults_only(backends["native"])), seed=31)
    assert sat.puzzle == generic.puzzle and sat.solution == generic.solution


def _defaults_only(backend: Backend) -> Backend:
    """The backend with every primitive back to the base class's generic default."""

    class Plain(type(backend)):
        capabilities = dataclasses.replace(type(backend).capabilities, fast_paths=frozenset())
        check_unique_batch = Backend.check_unique_batch
        removal_oracle = Backend.removal_oracle
        random_solution = Backend.random_solution
        restore_candidates = Backend.restore_candidates

    plain = Plain()
    assert set(PRIMITIVES) == {
        "check_unique_batch",
        "removal_oracle",
        "random_solution",
        "restore_candidates",
    }
    return plain


def test_generic_engine_works_with_any_backend(backends):
    cpsat = get_backend("cpsat")
    spec = GenerationSpec(RuleSet.classic(Shape(2, 2)), symmetry="rot180")
    assert not cpsat.capabilities.fast_paths  # every primitive is the generic default
    for m in generate(spec, count=3, seed=8, backend=cpsat):
        assert_unique(m.puzzle, m.solution, backends["native"])
        assert m.minimal is (removable_clues(m.puzzle, backends["native"]) == [])


def test_minimal_4x4_puzzles_have_at_least_four_clues(backends):
    spec = GenerationSpec(RuleSet.classic(Shape(2, 2)))
    made = list(generate(spec, count=200, seed=0, backend=backends["native"]))
    assert min(m.clues for m in made) == 4
    verdicts = backends["pysat"]
    for m in made[:40]:
        assert verdicts.check_unique(m.puzzle).kind is VerdictKind.UNIQUE


# -- generation by difficulty (--level) --------------------------------------------------
def assert_graded_as_made(made, wanted: tuple[str, ...], checker) -> None:
    """The puzzle's own grade (computed again) agrees with what generation reported."""
    again = grade(made.puzzle, keep_steps=False)
    assert again.verdict.value == "unique" and again.solution == made.solution
    assert again.level in wanted and again.level == made.level
    assert again.score == pytest.approx(made.score) and again.hardest == made.hardest
    assert made.levels_seen[-1] == made.level
    assert not set(made.levels_seen[:-1]) & set(wanted)  # earlier tries were rejected
    assert_unique(made.puzzle, made.solution, checker)


# -- names, seeds ----------------------------------------------------------------------------
def test_level_names_match_the_grader():
    from sudoku_model.cli.generate import LEVEL_NAMES as CLI_NAMES

    assert LEVEL_NAMES == LEVELS == CLI_NAMES
    assert tuple(DEFAULT_LEVEL_TRIES) == LEVEL_NAMES


def test_parse_levels():
    assert parse_levels("hard") == ("hard",)
    assert parse_levels(["extreme", " Easy ,extreme", "medium"]) == ("easy", "medium", "extreme")
    with pytest.raises(ValueError, match="unknown level 'tough'; known: easy, medium"):
        parse_levels("easy,tough")
    with pytest.raises(ValueError, match="no level given"):
        parse_levels(" , ")
    with pytest.raises(ValueError, match="unknown level"):
        GenerationSpec(CLASSIC9, level="fiendish")


def test_level_seeds_start_at_the_puzzle_seed_and_differ():
    seed = puzzle_seed(3, 4)
    seeds = [level_seed(seed, t) for t in range(500)]
    assert seeds[0] == seed and len(set(seeds)) == 500
    assert seeds == [level_seed(seed, t) for t in range(500)]
    assert level_seed(seed + 1, 1) != seeds[1]


def test_default_tries_take_the_most_permissive_level():
    assert GenerationSpec(CLASSIC9).graded_tries == 0
    assert GenerationSpec(CLASSIC9, level="hard").graded_tries == DEFAULT_LEVEL_TRIES["hard"]
    both = GenerationSpec(CLASSIC9, level=("hard", "easy"))
    assert both.level == ("easy", "hard")
    assert both.graded_tries == DEFAULT_LEVEL_TRIES["easy"]
    assert GenerationSpec(CLASSIC9, level="hard", level_tries=3).graded_tries == 3


# -- generation at a level, cross-checked ------------------------------------------------------
@pytest.mark.parametrize("maker", ["native", "pysat"])
@pytest.mark.parametrize("level,count", [("easy", 3), ("medium", 3), ("expert", 3), ("extreme", 2)])
def test_kept_puzzles_grade_at_the_level(backends, maker, level, count):
    spec = GenerationSpec(CLASSIC9, level=level)
    made = list(generate(spec, count=count, seed=21, backend=backends[maker]))
    assert [m.index for m in made] == list(range(count))
    plain = GenerationSpec(CLASSIC9)
    for m in made:
        assert m.minimal is True and m.backend.startswith(maker)
        assert_graded_as_made(m, (level,), backends[_other(maker)])
        # the recorded seed is that of the kept try, and remakes the puzzle without grading
        assert m.seed == level_seed(puzzle_seed(21, m.index), m.level_tries - 1)
        assert generate_one(plain, engine_for(backends[maker]), seed=m.seed).puzzle == m.puzzle


def test_hard_puzzles_are_found(backends):
    # About 11% of minimal 9x9 puzzles grade hard: one puzzle, a handful of tries.
    made = next(
        generate(GenerationSpec(CLASSIC9), level="hard", seed=1, backend=backends["native"])
    )
    assert_graded_as_made(made, ("hard",), backends["pysat"])
    assert made.level_tries <= DEFAULT_LEVEL_TRIES["hard"]


def test_several_levels_are_accepted(backends):
    spec = GenerationSpec(CLASSIC9, level="medium,expert")
    made = list(generate(spec, count=6, seed=4, backend=backends["native"]))
    for m in made:
        assert_graded_as_made(m, ("medium", "expert"), backends["pysat"])
    assert level_histogram(made) == {
        name: sum(m.level == name for m in made)
        for name in ("medium", "expert")
        if any(m.level == name for m in made)
    }
    every = level_histogram(made, every_try=True)
    assert sum(every.values()) == sum(m.level_tries for m in made)


def test_first_try_is_the_puzzle_made_without_a_level(backends):
    # Try 0 uses the puzzle's own seed: a puzzle kept at its first try is the plain one.
    plain = list(generate(GenerationSpec(CLASSIC9), count=8, seed=5, backend="native"))
    graded = list(
        generate(GenerationSpec(CLASSIC9, level="easy"), count=8, seed=5, backend="native")
    )
    for p, g in zip(plain, graded):
        first = grade(p.puzzle, keep_steps=False).level
        assert (g.level_tries == 1) == (first == "easy")
        assert g.levels_seen[0] == first
        if g.level_tries == 1:
            assert g.puzzle == p.puzzle and g.seed == p.seed


def test_level_combines_with_symmetry_and_other_shapes(backends):
    made = generate_one(
        GenerationSpec(CLASSIC9, symmetry="rot180", level="medium"),
        engine_for(backends["pysat"]),
        seed=2,
    )
    assert is_symmetric(made.puzzle.givens, "rot180")
    assert_graded_as_made(made, ("medium",), backends["native"])
    for rules, level in [
        (RuleSet.classic(Shape(2, 3)), "easy"),
        (RuleSet.build(Shape(3, 3), ["diagonal"]), "extreme"),
    ]:
        made = generate_one(
            GenerationSpec(rules, level=level), engine_for(backends["native"]), seed=3
        )
        assert made.puzzle.rules == rules
        assert_graded_as_made(made, (level,), backends["pysat"])


@pytest.mark.parametrize("backend", ["native", "pysat"])
def test_level_seeds_reproduce_across_jobs(backend):
    spec = GenerationSpec(CLASSIC9, level="expert")
    one = [
        (m.puzzle, m.seed, m.levels_seen, m.score)
        for m in generate(spec, count=4, seed=13, backend=backend, jobs=1)
    ]
    two = [
        (m.puzzle, m.seed, m.levels_seen, m.score)
        for m in generate(spec, count=4, seed=13, backend=backend, jobs=2)
    ]
    assert one == two
    assert any(len(seen) > 1 for _, _, seen, _ in one)  # retries happened and reproduced


def test_an_impossible_request_fails_with_the_levels_reached(backends):
    rules = RuleSet.classic(Shape(2, 2))
    first = generate_one(GenerationSpec(rules), engine_for(backends["native"]), seed=9)
    reached = grade(first.puzzle, keep_steps=False).level
    wanted = "extreme" if reached != "extreme" else "easy"
    spec = GenerationSpec(rules, level=wanted, level_tries=1)
    with pytest.raises(GenerationError) as info:
        generate_one(spec, engine_for(backends["native"]), seed=9)
    assert str(info.value).startswith(
        f"no puzzle of level {wanted} in 1 try (levels reached: {reached} 1)"
    )
    assert "calibrated on 9x9" in str(info.value)
    assert info.value.levels_seen == {reached: 1}


def test_several_tries_are_counted_in_the_failure(backends):
    spec = GenerationSpec(RuleSet.classic(Shape(2, 2)), level="expert,extreme", level_tries=12)
    try:
        made = generate_one(spec, engine_for(backends["pysat"]), seed=1)
    except GenerationError as exc:
        assert "no puzzle of level expert or extreme in 12 tries" in str(exc)
        assert sum(exc.levels_seen.values()) == 12
        assert not set(exc.levels_seen) & {"expert", "extreme"}
    else:  # a hard 4x4 puzzle would be a finding, but must then grade as such
        assert_graded_as_made(made, ("expert", "extreme"), backends["native"])


def test_json_carries_the_grade(backends):
    made = generate_one(
        GenerationSpec(CLASSIC9, level="expert"), engine_for(backends["native"]), seed=6
    )
    item = made.to_json()
    assert item["level"] == "expert" and item["hardest"] == made.hardest
    assert item["score"] == round(made.score, 2) and item["level_tries"] == made.level_tries
    assert made.describe().endswith(f"expert (score {made.score:.1f}, hardest {made.hardest})")
    plain = generate_one(GenerationSpec(CLASSIC9), engine_for(backends["native"]), seed=6)
    assert "level" not in plain.to_json() and plain.level_tries == 0


def test_bias_note_applies_to_minimal_classic_9x9_only():
    from sudoku_model.generate import KillerOptions, bias_note

    classic9 = RuleSet.classic(Shape(3, 3))
    note = bias_note(classic9)
    assert note is not None and "24.4" in note and "26.6" in note
    assert bias_note(GenerationSpec(classic9)) == note
    assert bias_note(RuleSet.classic(Shape(2, 3))) is None
    assert bias_note(RuleSet.build(Shape(3, 3), ["diagonal"])) is None
    for spec in (
        GenerationSpec(classic9, symmetry="rot180"),
        GenerationSpec(classic9, clues=30),
        GenerationSpec(classic9, level=("hard",)),
        GenerationSpec(classic9, killer=KillerOptions()),
        GenerationSpec(classic9, start=Grid.parse("1" + "." * 80)),
    ):
        assert bias_note(spec) is None, spec
