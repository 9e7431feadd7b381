"""The generator: every puzzle is checked unique by a *different* backend than the one that
made it, and minimal where promised (each clue removed -> not unique, again by the other
backend); seeds reproduce across worker counts; symmetry and patterns hold cell by cell."""

from __future__ import annotations

import random

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape, VerdictKind, get_backend
from sudoku_model.generate import (
    SYMMETRIES,
    GenerationError,
    GenerationSpec,
    ImpossibleRequestError,
    _PublicApiEngine,
    _random_fill,
    engine_for,
    generate,
    generate_one,
    is_symmetric,
    minimum_clues,
    parse_pattern,
    puzzle_seed,
    random_full_grid,
    symmetry_orbits,
)

MAKER_CHECKER = [("native", "pysat"), ("pysat", "native")]


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
    maps = {"rot90": (c, m - r), "rot180": (m - r, m - c), "mirror": (r, m - c),
            "flip": (m - r, c), "diagonal": (c, r), "antidiagonal": (m - c, m - r)}
    gens = {"none": [], "rot180": ["rot180"], "rot90": ["rot90"], "mirror": ["mirror"],
            "flip": ["flip"], "diagonal": ["diagonal"], "antidiagonal": ["antidiagonal"],
            "biaxial": ["mirror", "flip"], "bidiagonal": ["diagonal", "antidiagonal"],
            "dihedral": ["rot90", "mirror"]}[symmetry]
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
    with pytest.raises(ImpossibleRequestError, match=r"no 16-clue 9x9 puzzle is unique "
                                                     r"\(McGuire et al\. 2012\)"):
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
    with pytest.raises(ImpossibleRequestError, match="not a square"):
        parse_pattern("x" * 80)


@pytest.mark.parametrize("rules", [
    RuleSet.classic(Shape(2, 2)), RuleSet.classic(Shape(2, 3)), RuleSet.classic(Shape(3, 3)),
    RuleSet.classic(Shape(3, 4)), RuleSet.classic(Shape(4, 4)),
    RuleSet.build(Shape(3, 3), ["windoku"]), RuleSet.build(Shape(3, 3), ["anti-knight"]),
    RuleSet.build(Shape(3, 3), ["diagonal", "anti-king"]),
], ids=repr)
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
    corner = {random_full_grid(rules, seed=s, backend=backends["native"])[0]
              for s in range(200)}
    assert corner == set(range(1, 10))


# -- generation cross-checked by the other backend ------------------------------------------
@pytest.mark.parametrize("maker,checker", MAKER_CHECKER)
@pytest.mark.parametrize("shape,count", [(Shape(2, 2), 12), (Shape(2, 3), 8),
                                         (Shape(3, 3), 6)])
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


@pytest.mark.parametrize("variant,maker", [("diagonal", "native"), ("windoku", "pysat"),
                                           ("anti-knight", "native"), ("anti-king", "pysat")])
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
@pytest.mark.parametrize("symmetry", ["rot180", "rot90", "mirror", "diagonal",
                                      "antidiagonal", "dihedral"])
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
    made = list(generate(GenerationSpec(rules, clues=30), count=4, seed=2,
                         backend=backends["pysat"]))
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
    spec = GenerationSpec(RuleSet.classic(Shape(3, 3)), pattern=frozenset(range(18)),
                          max_tries=3)
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
    sym = generate_one(GenerationSpec(rules, start=start, symmetry="rot180"),
                       engine_for(backends[maker]), seed=4)
    assert is_symmetric(sym.puzzle.givens, "rot180")
    assert_unique(sym.puzzle, sym.solution, backends[checker])


def test_from_an_unsolvable_start_is_refused(backends):
    # Row 1 needs a 1 somewhere, but every free cell of it sees a 1.
    start = Grid.parse(".23456789" + "........1" + "." * 63)
    start = start.with_value(9 * 3 + 0, 1)     # column 1 has a 1 too: r1c1 cannot be 1
    spec = GenerationSpec(RuleSet.classic(Shape(3, 3)), start=start)
    assert backends["native"].solve(Puzzle(start)).status.value == "unsolvable"
    with pytest.raises(ImpossibleRequestError, match="no solution"):
        generate_one(spec, engine_for(backends["native"]), seed=1)


# -- reproducibility -------------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["native", "pysat"])
def test_seeds_reproduce_across_jobs(backend):
    spec = GenerationSpec(RuleSet.classic(Shape(3, 3)), symmetry="rot180")
    one = [(m.puzzle, m.solution, m.minimal) for m in
           generate(spec, count=6, seed=99, backend=backend, jobs=1)]
    again = [(m.puzzle, m.solution, m.minimal) for m in
             generate(spec, count=6, seed=99, backend=backend, jobs=1)]
    two = [(m.puzzle, m.solution, m.minimal) for m in
           generate(spec, count=6, seed=99, backend=backend, jobs=2)]
    assert one == again == two
    other = [m.puzzle for m in generate(spec, count=6, seed=100, backend=backend)]
    assert not set(other) & {p for p, _, _ in one}


def test_engines_agree_given_the_same_seed(backends):
    # The SAT engine and the generic engine draw the same full grid from the same seed and
    # get the same yes/no answers, whichever backend gives them: the same puzzle results.
    spec = GenerationSpec(RuleSet.classic(Shape(3, 3)))
    sat = generate_one(spec, engine_for(backends["pysat"]), seed=31)
    generic = generate_one(spec, _PublicApiEngine(backends["native"], None), seed=31)
    assert sat.puzzle == generic.puzzle and sat.solution == generic.solution


def test_generic_engine_works_with_any_backend(backends):
    cpsat = get_backend("cpsat")
    spec = GenerationSpec(RuleSet.classic(Shape(2, 2)), symmetry="rot180")
    engine = engine_for(cpsat)
    assert isinstance(engine, _PublicApiEngine)
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
