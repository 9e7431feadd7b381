"""The randomised classic 9x9 search (``Model.search(seed=...)``, the generator's random
full grids) runs nb_fill9 (removal.c) for its first solution: the same grids, node and
guess counts, budget stops and later solutions as generic.c's search, which a search with
``avoid`` set still runs (an all-zero ``avoid`` is never a solution, so it skips nothing)."""

from __future__ import annotations

import random

from sudoku_model import native_backtrack as nb
from sudoku_model.geometry import Shape
from sudoku_model.rules import RuleSet

EMPTY = bytes(81)


def _model() -> nb.Model:
    rules = RuleSet.classic(Shape(3, 3))
    return nb.Model(rules.shape.size, rules.units, rules.pairs)


def _same(a: nb.Search, b: nb.Search, want: int, nodes: int = -1) -> None:
    assert a.run(want, nodes=nodes) == b.run(want, nodes=nodes)
    assert (a.nodes, a.guesses) == (b.nodes, b.guesses)


def test_random_full_grids_are_the_generic_searchs() -> None:
    m = _model()
    for seed in range(3000):
        _same(m.search(EMPTY, seed=seed), m.search(EMPTY, seed=seed, avoid=EMPTY), 1)


def test_givens_forbidden_budgets_and_later_runs_match() -> None:
    m = _model()
    rng = random.Random(5)
    stops = 0
    for _ in range(3000):
        full = m.search(EMPTY, seed=rng.getrandbits(63)).run(1)[1][0]
        givens = bytearray(81)
        for c in rng.sample(range(81), rng.choice([0, 3, 8, 15, 25])):
            givens[c] = full[c]
        if rng.random() < 0.3:  # some without a solution
            givens[rng.randrange(81)] = rng.randrange(1, 10)
        forbidden = [(rng.randrange(81), rng.randrange(1, 10)) for _ in range(rng.choice([0, 5]))]
        seed = rng.getrandbits(64)
        fast = m.search(bytes(givens), seed=seed, forbidden=forbidden)
        slow = m.search(bytes(givens), seed=seed, forbidden=forbidden, avoid=EMPTY)
        nodes = rng.choice([-1, 1, 2, 5, 30])
        # the first run is nb_fill9's; later ones replay generic.c's search up to there
        for want in [1, *rng.choice([[], [1], [3, 1]])]:
            _same(fast, slow, want, nodes)
            stops += fast.nodes > 0 and nodes > 0
    assert stops  # budget stops were among the cases
