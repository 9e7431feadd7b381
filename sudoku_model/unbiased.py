"""Unbiased statistics of minimal puzzles: an importance sampler with exact weights.

The problem
-----------
The top-down generator (:mod:`sudoku_model.generate`) makes minimal puzzles, but not
uniformly: a puzzle reached by many removal orders is more likely than one reached by few,
so minimal 9x9 puzzles come out with about 24.4 clues on average, while the real
distribution (every minimal puzzle of every grid counted once) has mean 26.58 and SD 1.12
(Berthier's controlled-bias estimate, :data:`PUBLISHED`).

Berthier's controlled-bias generator
------------------------------------
Remove the clues of a full grid S (N cells) in a uniformly random order *without
backtracking*: stop at the first removal that breaks uniqueness, put that clue back, and
keep the result P (n clues) only when it is minimal. P comes out exactly when its n cells
are the last n of the order (every superset of P is unique, every proper subset is not),
an event of probability ``1 / C(N, n)``: the bias depends on n alone and is corrected by
the weight ``C(N, n)``. Exact, but measured here it made no minimal puzzle in 10,000
tries: its success rate is ``E[#minimal puzzles of S] / ...`` about 4e-6 per try (roughly
12 s of native search per minimal puzzle), far from usable.

The sampler here: a random head, then top-down with Knuth weights
-----------------------------------------------------------------
One *try* on a grid S:

1. **Head** (Berthier's step, no backtracking): empty a uniformly random set H of T cells
   (:func:`default_head`: 45 of 81). If S minus H is not unique the try yields nothing.
2. **Top-down**: while some clue is removable (the puzzle stays unique without it), let
   A_i be the set of removable clues *counted exactly* (one oracle call per candidate;
   a clue found necessary stays necessary, so only the last A_i is re-tested), remove one
   chosen uniformly from A_i. The result P (n clues) is minimal.

The weight of the try is::

    W = C(N, T) * prod_i |A_i| / ( C(N - n, T) * (N - n - T)! )

Why it is unbiased: fix a minimal puzzle P of S with n <= N - T clues. The tries that end
in P are exactly the pairs (H, order) with H a T-subset of the N - n cells outside P and
"order" an ordering of the other N - n - T outside cells: every set between P and S is
unique, so every such cell is removable when its turn comes, and the process stops at P
because P is minimal. There are ``C(N - n, T) * (N - n - T)!`` such pairs and each has
probability ``(1 / C(N, T)) * prod_i 1 / |A_i|``, so ``E[W * 1{try ends in P}] = 1`` for
every minimal P (Knuth's 1975 estimator of a search tree, with each minimal puzzle a leaf
reached by that many paths). Summed over the tries on grids drawn at random,
``E[sum W * 1{n clues}]`` per try is the mean number of minimal n-clue puzzles of a grid,
and the ratio ``sum W 1{n} / sum W`` (:func:`estimate`) is a consistent estimate of the
share of n-clue puzzles among all minimal puzzles. ``E[W]`` itself estimates the number
of minimal puzzles of a grid (about 4.65e15 for 9x9: 3.10e37 minimal puzzles over
6.67e21 grids).

Each grid gets a fixed number of head tries (:data:`TRIES_PER_GRID`): retrying a grid
until a head is unique would weight grids by 1 instead of by their chance of a unique
head, a bias; a fixed number keeps every try's law exact. Tries on one grid are
correlated, so the confidence intervals treat a grid as one cluster.

Limits, said plainly: puzzles with more than N - T clues (37 or more for 9x9) cannot be
reached (their published share is below 1e-6). Full grids come from the backend's
seeded search, which is not uniform over grids (:mod:`sudoku_model.generate`); the
estimate is over the grids that search makes, as Berthier's was over suexg's. The weights
are heavy-tailed (a log-weight SD of about 2 within a clue count, and the rare 28- and
29-clue puzzles weigh thousands of times the median), so the effective sample size is small
and grows slowly: 47 of 3,329 puzzles, 65 of 26,858 in two runs (seeds 1 and 2);
:attr:`ClueEstimate.effective_size` reports it, and the intervals are only as good as it.

Weighted, not resampled: ``sudoku generate --unbiased`` writes every minimal puzzle with
its log weight, and statistics over them must be weighted (:func:`estimate`): the puzzles
themselves, counted once each, are the top-down bias again (mean about 24.3 clues).

Exact unweighted samples: rejection with a proven bound
-------------------------------------------------------
Rejection turns the tries into unweighted puzzles exactly only with a bound B proven above
every weight: keep a try with probability W / B. Write W as a product over the removal
steps (``(N - n)! = T! * prod_i (T + i)``)::

    W = C(N, T) * prod_{i=1..k} |A_i| / (T + i)        (k = N - T - n removals)

and |A_i| is at most the r_i = N - T - i + 1 clues left, so each factor is at most 1
whenever ``T + 1 >= N - T``: then B = C(N, T) is a bound, reached only by a grid whose
head leaves a minimal puzzle. No smaller bound holds for every grid, and it costs
everything: the rejection keeps a try with probability ``E[W] / C(N, T)``, the mean
number of minimal puzzles of a grid over C(N, T).

:func:`exact_tries` runs that rejection without counting A_i at all: at step i it draws
one of T + i slots, the first r_i of them the clues left; a slot on a removable clue
removes it (probability 1 / (T + i) for each removable clue), any other slot ends the try,
kept exactly when no clue left is removable (the puzzle is minimal). Every minimal puzzle P
of S with n <= N - T clues comes out of one try with probability exactly::

    C(N - n, T) * k! * prod_{i=1..k} 1 / (T + i) / C(N, T)  =  1 / C(N, T)

(the C(N - n, T) heads outside P, the k! orders of the other cells outside P, each step
1 / (T + i)): the same for every minimal puzzle of every grid, so the kept puzzles are a
uniform sample of the minimal puzzles with at most N - T clues (every one counted once,
grids in the law of the backend's grid search). Exact and unweighted, and for 9x9
hopeless: with T = 50 (puzzles of up to 31 clues, all but a share below 1e-5 of the
published distribution) a try keeps a puzzle with probability about
4.65e15 / C(81, 50) = 2e-7, and a try costs a uniqueness check (see
``tests/benchmarks/bench_unbiased.py --exact``). For 4x4 grids it is fast, and its tests
check it against an exhaustive count.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from .grid import Grid
from .puzzle import Puzzle
from .rules import RuleSet
from .solving import Backend, Budget, get_backend

__all__ = [
    "PUBLISHED",
    "PUBLISHED_MEAN",
    "PUBLISHED_SD",
    "TRIES_PER_GRID",
    "WeightedPuzzle",
    "exact_bound_holds",
    "exact_tries",
    "exact_puzzles",
    "ClueEstimate",
    "default_head",
    "grid_seed",
    "weighted_tries",
    "weighted_puzzles",
    "estimate",
    "chi_square",
    "chi_square_sf",
]

#: Berthier's estimate of the clue counts of all minimal 9x9 puzzles (shares; his
#: controlled-bias generator with the C(81, n) correction). The counts below 24 and above
#: 31 share the remaining 0.17%.
PUBLISHED: dict[int, float] = {
    24: 0.0228,
    25: 0.1342,
    26: 0.3191,
    27: 0.3271,
    28: 0.1548,
    29: 0.03598,
    30: 0.0041,
    31: 0.000241,
}
PUBLISHED_MEAN = 26.58
PUBLISHED_SD = 1.12

#: Head tries per full grid (fixed, so that every try is an unbiased draw; see the notes).
TRIES_PER_GRID = 8


def default_head(rules: RuleSet) -> int:
    """Cells emptied at random before the top-down phase: 45 for 9x9 (measured the
    cheapest per try: 1.0 ms, against 1.6 ms with 50 and 4.0 ms with 30), a third of the
    cells for other shapes (so that puzzles of up to two thirds of the cells are reached).
    """
    n = rules.shape.cell_count
    return 45 if n == 81 else n // 3


def grid_seed(seed: int, index: int) -> int:
    """The seed of grid ``index`` of a run with seed ``seed`` (63 bits, a hash)."""
    digest = hashlib.blake2b(f"sudoku-unbiased:{seed}:{index}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1


@dataclass(frozen=True)
class WeightedPuzzle:
    """A minimal puzzle from one try, with the log of its importance weight W (see the
    module notes); ``grid`` is the index of its full grid in the run (the cluster)."""

    puzzle: Puzzle
    solution: Grid
    log_weight: float
    grid: int
    head: int

    @property
    def clues(self) -> int:
        return self.puzzle.givens.clues


def _log_weight(cells: int, head: int, clues: int, log_prod: float) -> float:
    free = cells - clues
    return (
        math.log(math.comb(cells, head))
        - math.log(math.comb(free, head))
        + log_prod
        - math.lgamma(free - head + 1)
    )


def weighted_tries(
    rules: RuleSet,
    solution: Grid,
    rng: random.Random,
    *,
    backend: Backend,
    tries: int = TRIES_PER_GRID,
    head: int | None = None,
    budget: Budget | None = None,
    grid: int = 0,
) -> list[WeightedPuzzle]:
    """The minimal puzzles of ``tries`` head tries on one full grid, with their weights
    (a try whose head leaves the grid non-unique yields nothing).

    Raises:
        ValueError: when ``head`` is outside 0..cells or ``solution`` is not a full grid.
        SearchInterrupted: after ``backend.interrupt()``.
    """
    cells = rules.shape.cell_count
    head = default_head(rules) if head is None else head
    if not 0 <= head <= cells:
        raise ValueError(f"head must be in 0..{cells}, got {head}")
    out: list[WeightedPuzzle] = []
    known = solution.values
    order = list(range(cells))
    with backend.removal_oracle(rules, solution, budget=budget) as oracle:
        for _ in range(tries):
            emptied = rng.sample(order, head)
            values = bytearray(known)
            for c in emptied:
                values[c] = 0
            if head and oracle.still_unique(values, emptied) is not True:
                continue  # not unique (or undecided within the budget): no puzzle
            candidates = [c for c in order if values[c]]
            log_prod = 0.0
            undecided = False
            while True:
                removable = []
                for c in candidates:
                    values[c] = 0
                    answer = oracle.still_unique(values, (c,))
                    values[c] = known[c]
                    if answer is None:
                        undecided = True
                        break
                    if answer:
                        removable.append(c)
                if undecided or not removable:
                    break
                log_prod += math.log(len(removable))
                k = rng.randrange(len(removable))
                values[removable[k]] = 0
                removable[k] = removable[-1]
                removable.pop()
                candidates = removable  # a necessary clue stays necessary
            if undecided:
                continue  # a budget ran out: the weight is unknown, so the try is dropped
            clues = cells - values.count(0)
            puzzle = Puzzle(Grid._trusted(rules.shape, tuple(values)), rules)
            out.append(
                WeightedPuzzle(
                    puzzle, solution, _log_weight(cells, head, clues, log_prod), grid, head
                )
            )
    return out


def weighted_puzzles(
    rules: RuleSet,
    *,
    seed: int,
    grids: int | None = None,
    first_grid: int = 0,
    backend: Backend | str = "native",
    tries: int = TRIES_PER_GRID,
    head: int | None = None,
    budget: Budget | None = None,
) -> Iterator[WeightedPuzzle]:
    """Weighted minimal puzzles, grid after grid (grid i from :func:`grid_seed` (seed,
    i)), for ``grids`` grids (None: without end).

    Raises:
        BackendNotFoundError, BackendUnavailableError: for a backend name that cannot load.
        SearchInterrupted: after the backend was interrupted.
    """
    engine = get_backend(backend) if isinstance(backend, str) else backend
    index = first_grid
    while grids is None or index < first_grid + grids:
        rng = random.Random(grid_seed(seed, index))
        solution = None
        while solution is None:  # None only when a budget ran out: draw again
            solution = engine.random_solution(rules, rng, budget=budget)
        yield from weighted_tries(
            rules, solution, rng, backend=engine, tries=tries, head=head, budget=budget, grid=index
        )
        index += 1


# -- exact rejection -----------------------------------------------------------------------
def exact_bound_holds(cells: int, head: int) -> bool:
    """Whether every step factor ``|A_i| / (head + i)`` is at most 1 (the rejection of
    :func:`exact_tries` is exact): ``head + 1 >= cells - head``."""
    return 0 <= head <= cells and head + 1 >= cells - head


def exact_tries(
    rules: RuleSet,
    solution: Grid,
    rng: random.Random,
    *,
    backend: Backend,
    tries: int,
    head: int,
    budget: Budget | None = None,
) -> Iterator[Puzzle]:
    """The puzzles kept by ``tries`` rejection tries on one full grid (module notes): each
    minimal puzzle of ``solution`` with at most ``cells - head`` clues comes out of a try
    with probability exactly ``1 / C(cells, head)``, so the kept puzzles are uniform over
    those minimal puzzles. A try the budget leaves undecided keeps nothing.

    Raises:
        ValueError: when ``head`` does not make the bound hold (:func:`exact_bound_holds`)
            or ``solution`` is not a full grid.
        SearchInterrupted: after ``backend.interrupt()``.
    """
    cells = rules.shape.cell_count
    if not exact_bound_holds(cells, head):
        raise ValueError(f"head must be in {cells // 2}..{cells} for {cells} cells, got {head}")
    known = solution.values
    order = list(range(cells))
    with backend.removal_oracle(rules, solution, budget=budget) as oracle:
        for _ in range(tries):
            emptied = rng.sample(order, head)
            values = bytearray(known)
            for c in emptied:
                values[c] = 0
            if head and oracle.still_unique(values, emptied) is not True:
                continue
            left = [c for c in order if values[c]]  # the r_i clues left, in slot order
            necessary: set[int] = set()
            step = 1
            while True:
                slot = rng.randrange(head + step)
                if slot < len(left) and left[slot] not in necessary:
                    c = left[slot]
                    values[c] = 0
                    answer = oracle.still_unique(values, (c,))
                    if answer is True:
                        left[slot] = left[-1]
                        left.pop()
                        step += 1
                        continue
                    values[c] = known[c]
                    if answer is None:
                        break
                    necessary.add(c)  # a necessary clue stays necessary
                # a miss: keep the puzzle exactly when no clue left is removable
                minimal = True
                for c in left:
                    if c in necessary:
                        continue
                    values[c] = 0
                    answer = oracle.still_unique(values, (c,))
                    values[c] = known[c]
                    if answer is not False:
                        minimal = False  # removable (or undecided): the try ends empty
                        break
                if minimal:
                    yield Puzzle(Grid._trusted(rules.shape, tuple(values)), rules)
                break


def exact_puzzles(
    rules: RuleSet,
    *,
    seed: int,
    head: int,
    grids: int | None = None,
    first_grid: int = 0,
    backend: Backend | str = "native",
    tries: int = TRIES_PER_GRID,
    budget: Budget | None = None,
) -> Iterator[tuple[Puzzle, Grid, int]]:
    """Uniform minimal puzzles with at most ``cells - head`` clues, unweighted, with their
    solution and grid index: :func:`exact_tries` on grid after grid (grid i from
    :func:`grid_seed` (seed, i)), ``tries`` tries a grid, for ``grids`` grids (None: without
    end).

    Raises:
        ValueError: when ``head`` does not make the bound hold.
        BackendNotFoundError, BackendUnavailableError: for a backend name that cannot load.
        SearchInterrupted: after the backend was interrupted.
    """
    engine = get_backend(backend) if isinstance(backend, str) else backend
    if not exact_bound_holds(rules.shape.cell_count, head):
        raise ValueError(f"head {head} does not bound the weights for {rules.shape}")
    index = first_grid
    while grids is None or index < first_grid + grids:
        rng = random.Random(grid_seed(seed, index))
        solution = None
        while solution is None:
            solution = engine.random_solution(rules, rng, budget=budget)
        for puzzle in exact_tries(
            rules, solution, rng, backend=engine, tries=tries, head=head, budget=budget
        ):
            yield puzzle, solution, index
        index += 1


# -- estimation ----------------------------------------------------------------------------
@dataclass(frozen=True)
class ClueEstimate:
    """The weighted estimate of the clue-count distribution of all minimal puzzles.

    ``shares[n]`` is the estimated share of n-clue puzzles and ``intervals[n]`` its 95%
    confidence interval (ratio estimator, delta method, grids as clusters); ``mean`` and
    ``mean_interval`` likewise for the mean clue count; ``sd`` the weighted SD.
    ``effective_size`` is Kish's effective sample size ``(sum W)^2 / sum W^2``;
    ``per_grid`` estimates the number of minimal puzzles of one grid (mean of W per try)
    when the number of tries is known.
    """

    samples: int
    grids: int
    shares: dict[int, float]
    intervals: dict[int, tuple[float, float]]
    mean: float
    mean_interval: tuple[float, float]
    sd: float
    effective_size: float
    raw: dict[int, int] = field(default_factory=dict)
    log_per_grid: float | None = None

    def table(self, published: dict[int, float] | None = PUBLISHED) -> str:
        """A text table: clues, puzzles drawn, estimated share with its 95% interval,
        and the published share."""
        lines = ["clues  drawn   estimate  95% interval        published"]
        for n in sorted(set(self.shares) | set(published or {})):
            lo, hi = self.intervals.get(n, (0.0, 0.0))
            pub = "" if not published or n not in published else f"{100 * published[n]:8.3f}%"
            lines.append(
                f"{n:5d}  {self.raw.get(n, 0):5d}  {100 * self.shares.get(n, 0.0):8.3f}%  "
                f"[{100 * lo:7.3f}%, {100 * hi:7.3f}%]  {pub}"
            )
        lo, hi = self.mean_interval
        lines.append(
            f"mean {self.mean:.3f} [{lo:.3f}, {hi:.3f}], SD {self.sd:.3f}; "
            f"{self.samples} puzzles from {self.grids} grids, effective size "
            f"{self.effective_size:.0f}"
        )
        if self.log_per_grid is not None:
            lines.append(f"minimal puzzles per grid: about {math.exp(self.log_per_grid):.3g}")
        return "\n".join(lines)


def _normalised(samples: Sequence[WeightedPuzzle]) -> tuple[list[float], float]:
    top = max(s.log_weight for s in samples)
    return [math.exp(s.log_weight - top) for s in samples], top


def estimate(samples: Iterable[WeightedPuzzle], *, tries: int | None = None) -> ClueEstimate:
    """The weighted clue-count estimate of a run (see :class:`ClueEstimate`); ``tries``,
    the number of head tries made (grids times tries per grid), adds the per-grid count.

    Raises:
        ValueError: for no samples.
    """
    items = list(samples)
    if not items:
        raise ValueError("no weighted puzzles to estimate from")
    weights, top = _normalised(items)
    total = sum(weights)
    clues = [s.clues for s in items]
    shares: dict[int, float] = {}
    for n, w in zip(clues, weights):
        shares[n] = shares.get(n, 0.0) + w / total
    mean = sum(w * n for n, w in zip(clues, weights)) / total
    sd = math.sqrt(sum(w * (n - mean) ** 2 for n, w in zip(clues, weights)) / total)
    clusters = _clusters(items, weights)
    intervals = {}
    for n, p in shares.items():
        half = 1.96 * _ratio_se([(sum(w * ((c == n) - p) for c, w in g)) for g in clusters], total)
        intervals[n] = (max(0.0, p - half), min(1.0, p + half))
    half = 1.96 * _ratio_se([sum(w * (c - mean) for c, w in g) for g in clusters], total)
    raw: dict[int, int] = {}
    for n in clues:
        raw[n] = raw.get(n, 0) + 1
    return ClueEstimate(
        len(items),
        len(clusters),
        dict(sorted(shares.items())),
        dict(sorted(intervals.items())),
        mean,
        (mean - half, mean + half),
        sd,
        total**2 / sum(w * w for w in weights),
        dict(sorted(raw.items())),
        None if tries is None else top + math.log(total / tries),
    )


def _clusters(
    items: Sequence[WeightedPuzzle], weights: Sequence[float]
) -> list[list[tuple[int, float]]]:
    groups: dict[int, list[tuple[int, float]]] = {}
    for s, w in zip(items, weights):
        groups.setdefault(s.grid, []).append((s.clues, w))
    return list(groups.values())


def _ratio_se(cluster_sums: Sequence[float], total: float) -> float:
    """Standard error of a ratio estimator from its linearised cluster sums."""
    g = len(cluster_sums)
    if g < 2:
        return math.inf
    return math.sqrt(g / (g - 1) * sum(z * z for z in cluster_sums)) / total


def chi_square(
    samples: Sequence[WeightedPuzzle],
    expected: dict[int, float],
    *,
    bins: Sequence[tuple[int, int]],
    weighted: bool = True,
) -> tuple[float, int, float]:
    """A Wald chi-square test of the clue-count shares against ``expected`` over ``bins``
    (inclusive clue ranges covering every count, e.g. ``[(0, 24), (25, 25), ..., (28,
    99)]``): the statistic, its degrees of freedom (bins - 1) and the p-value.

    With ``weighted`` the shares are the weighted estimate and the covariance is the
    delta-method one with grids as clusters; without, every puzzle counts once (the test of
    an unweighted sample, such as the plain generator's).

    Raises:
        ValueError: for fewer than two bins, bins that miss a sampled clue count, or a
            singular covariance (too few samples in a bin).
    """
    if len(bins) < 2:
        raise ValueError("a chi-square test needs at least two bins")
    items = list(samples)

    def bin_of(n: int) -> int:
        for k, (lo, hi) in enumerate(bins):
            if lo <= n <= hi:
                return k
        raise ValueError(f"no bin holds {n} clues")

    weights = _normalised(items)[0] if weighted else [1.0] * len(items)
    total = sum(weights)
    kinds = [bin_of(s.clues) for s in items]
    p_hat = [0.0] * len(bins)
    for k, w in zip(kinds, weights):
        p_hat[k] += w / total
    p0 = [sum(v for n, v in expected.items() if lo <= n <= hi) for lo, hi in bins]
    scale = sum(p0)
    p0 = [v / scale for v in p0]
    m = len(bins) - 1  # the last share is fixed by the others
    groups: dict[int, list[tuple[int, float]]] = {}
    for s, k, w in zip(items, kinds, weights):
        groups.setdefault(s.grid if weighted else id(s), []).append((k, w))
    g = len(groups)
    z = [
        [sum(w * ((k == j) - p_hat[j]) for k, w in grp) for j in range(m)]
        for grp in groups.values()
    ]
    cov = [
        [g / max(1, g - 1) * sum(row[a] * row[b] for row in z) / total**2 for b in range(m)]
        for a in range(m)
    ]
    diff = [p_hat[j] - p0[j] for j in range(m)]
    statistic = sum(d * x for d, x in zip(diff, _solve(cov, diff)))
    return statistic, m, chi_square_sf(statistic, m)


def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (small systems only)."""
    n = len(rhs)
    a = [row[:] + [b] for row, b in zip(matrix, rhs)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ValueError("singular covariance: merge bins or draw more puzzles")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            for c in range(col, n + 1):
                a[r][c] -= f * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom (the regularised
    upper incomplete gamma function, by its series or continued fraction).

    >>> round(chi_square_sf(3.841, 1), 3), round(chi_square_sf(13.277, 4), 3)
    (0.05, 0.01)
    """
    if x <= 0:
        return 1.0
    s, t = df / 2.0, x / 2.0
    if t < s + 1:  # series of the lower function
        term = total = 1.0 / s
        k = s
        while term > total * 1e-15:
            k += 1
            term *= t / k
            total += term
        return max(0.0, 1.0 - total * math.exp(-t + s * math.log(t) - math.lgamma(s)))
    # Lentz's continued fraction of the upper function
    b = t + 1.0 - s
    c = 1.0 / 1e-300
    d = 1.0 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - s)
        b += 2.0
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return math.exp(-t + s * math.log(t) - math.lgamma(s)) * h
