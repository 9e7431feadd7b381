"""Generation by difficulty: every kept puzzle grades at the level asked for when graded
again on its own, is unique by a *different* backend than the one that made it, and is
remade from its recorded seed; seeds reproduce across worker counts; requests that cannot
be met fail with the levels reached."""

from __future__ import annotations

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape, get_backend
from sudoku_model.generate import (
    DEFAULT_LEVEL_TRIES,
    LEVEL_NAMES,
    GenerationError,
    GenerationSpec,
    engine_for,
    generate,
    generate_one,
    is_symmetric,
    level_histogram,
    level_seed,
    parse_levels,
    puzzle_seed,
)
from sudoku_model.logic import LEVELS, grade

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
    assert parse_levels(["extreme", " Easy ,extreme", "medium"]) == ("easy", "medium",
                                                                      "extreme")
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
@pytest.mark.parametrize("level,count", [("easy", 3), ("medium", 3), ("expert", 3),
                                         ("extreme", 2)])
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
        assert generate_one(plain, engine_for(backends[maker]), seed=m.seed).puzzle == \
            m.puzzle


def test_hard_puzzles_are_found(backends):
    # About 11% of minimal 9x9 puzzles grade hard: one puzzle, a handful of tries.
    made = next(generate(GenerationSpec(CLASSIC9), level="hard", seed=1,
                         backend=backends["native"]))
    assert_graded_as_made(made, ("hard",), backends["pysat"])
    assert made.level_tries <= DEFAULT_LEVEL_TRIES["hard"]


def test_several_levels_are_accepted(backends):
    spec = GenerationSpec(CLASSIC9, level="medium,expert")
    made = list(generate(spec, count=6, seed=4, backend=backends["native"]))
    for m in made:
        assert_graded_as_made(m, ("medium", "expert"), backends["pysat"])
    assert level_histogram(made) == {name: sum(m.level == name for m in made)
                                     for name in ("medium", "expert")
                                     if any(m.level == name for m in made)}
    every = level_histogram(made, every_try=True)
    assert sum(every.values()) == sum(m.level_tries for m in made)


def test_first_try_is_the_puzzle_made_without_a_level(backends):
    # Try 0 uses the puzzle's own seed: a puzzle kept at its first try is the plain one.
    plain = list(generate(GenerationSpec(CLASSIC9), count=8, seed=5, backend="native"))
    graded = list(generate(GenerationSpec(CLASSIC9, level="easy"), count=8, seed=5,
                           backend="native"))
    for p, g in zip(plain, graded):
        first = grade(p.puzzle, keep_steps=False).level
        assert (g.level_tries == 1) == (first == "easy")
        assert g.levels_seen[0] == first
        if g.level_tries == 1:
            assert g.puzzle == p.puzzle and g.seed == p.seed


def test_level_combines_with_symmetry_and_other_shapes(backends):
    made = generate_one(GenerationSpec(CLASSIC9, symmetry="rot180", level="medium"),
                        engine_for(backends["pysat"]), seed=2)
    assert is_symmetric(made.puzzle.givens, "rot180")
    assert_graded_as_made(made, ("medium",), backends["native"])
    for rules, level in [(RuleSet.classic(Shape(2, 3)), "easy"),
                         (RuleSet.build(Shape(3, 3), ["diagonal"]), "extreme")]:
        made = generate_one(GenerationSpec(rules, level=level),
                            engine_for(backends["native"]), seed=3)
        assert made.puzzle.rules == rules
        assert_graded_as_made(made, (level,), backends["pysat"])


@pytest.mark.parametrize("backend", ["native", "pysat"])
def test_seeds_reproduce_across_jobs(backend):
    spec = GenerationSpec(CLASSIC9, level="expert")
    one = [(m.puzzle, m.seed, m.levels_seen, m.score) for m in
           generate(spec, count=4, seed=13, backend=backend, jobs=1)]
    two = [(m.puzzle, m.seed, m.levels_seen, m.score) for m in
           generate(spec, count=4, seed=13, backend=backend, jobs=2)]
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
    assert str(info.value).startswith(f"no puzzle of level {wanted} in 1 try (levels "
                                      f"reached: {reached} 1)")
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
    made = generate_one(GenerationSpec(CLASSIC9, level="expert"),
                        engine_for(backends["native"]), seed=6)
    item = made.to_json()
    assert item["level"] == "expert" and item["hardest"] == made.hardest
    assert item["score"] == round(made.score, 2) and item["level_tries"] == made.level_tries
    assert made.describe().endswith(f"expert (score {made.score:.1f}, "
                                    f"hardest {made.hardest})")
    plain = generate_one(GenerationSpec(CLASSIC9), engine_for(backends["native"]), seed=6)
    assert "level" not in plain.to_json() and plain.level_tries == 0
