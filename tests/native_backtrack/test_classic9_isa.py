"""The classic 9x9 search compiled per instruction set (classic9.c: c, sse2, popcnt, avx2, avx512)
gives the same answers whichever one runs: counts, statuses, solutions, nodes and guesses
are identical to the plain C variant on a few hundred puzzles (unique, multi-solution,
unsolvable, contradictory), and the choice can be forced lower, never higher.

The switch is a hook of the test build (native_backtrack._testing: the same sources, so the
same classic9.c, with the hooks); the product chooses once, as the test build does at load
(the environment variable SUDOKU_NATIVE_ISA), and runs the same code."""

from __future__ import annotations

import gzip
import os
import random
import subprocess
import sys
from collections.abc import Iterator

import pytest

import sudoku_model.native_backtrack._testing as core
from sudoku_model import native_backtrack as nb
from sudoku_model.data import bundled_path
from sudoku_model.geometry import Shape
from sudoku_model.rules import RuleSet

VARIANTS = ("c", "sse2", "popcnt", "avx2", "avx512")


def read_puzzles(name: str) -> list[bytes]:
    path = bundled_path(name)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        lines = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    return [bytes(0 if ch in ".0" else int(ch) for ch in ln[:81]) for ln in lines]


def usable() -> list[str]:
    """The variants this CPU runs (restores the current one)."""
    current = core.c9_isa()
    out = []
    for name in VARIANTS:
        try:
            core.c9_isa(name)
        except ValueError:
            continue
        out.append(name)
    core.c9_isa(current)
    return out


@pytest.fixture
def restore_isa() -> Iterator[None]:
    current = core.c9_isa()
    yield
    core.c9_isa(current)


@pytest.fixture(scope="module")
def puzzles() -> bytes:
    rng = random.Random(918)
    hard = read_puzzles("forum-hardest-1106")[:120] + read_puzzles("top95")
    seventeen = rng.sample(read_puzzles("17-clue"), 150)
    more = []
    for g in seventeen[:100]:
        clues = [c for c in range(81) if g[c]]
        cells = bytearray(g)
        for c in rng.sample(clues, rng.choice((1, 2))):  # 2 or more solutions
            cells[c] = 0
        more.append(bytes(cells))
    for g in hard[:40]:  # a wrong extra clue: usually no solution
        c = rng.choice([c for c in range(81) if not g[c]])
        more.append(g[:c] + bytes([rng.randint(1, 9)]) + g[c + 1 :])
    clash = bytearray(seventeen[0])  # a given repeated in its row: contradictory
    given = next(c for c in range(81) if clash[c])
    row = range(given - given % 9, given - given % 9 + 9)
    clash[next(c for c in row if not clash[c])] = clash[given]
    more.append(bytes(clash))
    return b"".join(hard + seventeen + more)


def test_every_variant_gives_identical_answers(puzzles: bytes, restore_isa: None) -> None:
    m9 = core.Model(9, RuleSet.classic(Shape(3, 3)).units, RuleSet.classic(Shape(3, 3)).pairs)
    assert m9.classic9
    names = usable()
    assert names[:2] == (["c", "sse2"] if "sse2" in names else ["c"])
    results = {}
    for name in names:
        assert core.c9_isa(name) == name
        results[name] = m9.batch(puzzles, limit=3, keep=3)
    reference = results["c"]
    counts, statuses = reference[0], reference[1]
    assert {0, 1, 3} <= set(counts)  # unsolvable, unique, several
    assert nb.CONTRADICTORY in statuses
    for name, got in results.items():
        assert got == reference, f"variant {name} differs from plain C"


def test_unknown_variant_is_refused(restore_isa: None) -> None:
    before = core.c9_isa()
    with pytest.raises(ValueError, match="unknown"):
        core.c9_isa("avx9000")
    assert core.c9_isa() == before


def run_with(env_value: str) -> str:
    env = dict(os.environ, SUDOKU_NATIVE_ISA=env_value)
    code = "import sudoku_model.native_backtrack._testing as c; print(c.c9_isa())"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_environment_chooses_a_lower_variant_only() -> None:
    best = usable()[-1]
    assert run_with("c") == "c"
    assert run_with("nonsense") == best
    assert run_with("") == best


def test_forbidden_given_answers_like_the_generic_path(restore_isa: None) -> None:
    """The classic path places the givens with whole-mask operations: a given whose own
    digit is forbidden at its cell leaves no solution, and forbidding another digit there
    changes nothing, on every variant and as the generic path says."""
    m9 = core.Model(9, RuleSet.classic(Shape(3, 3)).units, RuleSet.classic(Shape(3, 3)).pairs)
    rng = random.Random(5)
    cases = []
    for g in rng.sample(read_puzzles("17-clue"), 20):
        clue = rng.choice([c for c in range(81) if g[c]])
        other = rng.choice([d for d in range(1, 10) if d != g[clue]])
        cases.append((g, [(clue, g[clue])], 0))
        cases.append((g, [(clue, other)], 1))
    for name in usable():
        core.c9_isa(name)
        for g, forbidden, expected in cases:
            fast = m9.solve(g, limit=2, fast=True, forbidden=forbidden)[:2]
            slow = m9.solve(g, limit=2, fast=False, forbidden=forbidden)[:2]
            assert fast == slow == (expected, nb.EXHAUSTED), (name, forbidden)
