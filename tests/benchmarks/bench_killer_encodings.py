"""Killer cage encodings and SAT solvers for the pysat backend, raced on killer-200.

    python tests/benchmarks/bench_killer_encodings.py                  # every config
    python tests/benchmarks/bench_killer_encodings.py --configs cadical,glucose4
    python tests/benchmarks/bench_killer_encodings.py --rebuild-every 20
    python tests/benchmarks/bench_killer_encodings.py --pb bdd,totalizer   # needs pindakaas

What it measures: the uniqueness check of ``backends.sat`` reduced to its parts, so that
encodings and solvers can be swapped: each config has a solver of its own loaded with the
classic rules (extended encoding); per puzzle the cages are encoded
(:func:`backends.cnf.encode_constraint_rules`), added under a guard literal, solved once,
blocked and solved again (unsat), and the guards retired. Thread CPU time per puzzle,
split into encode / add / solve. For each puzzle every config runs in turn, the order
rotating, so that a busy machine slows all of them alike.

``--rebuild-every K`` rebuilds each solver after K puzzles (the rebuild counted in that
puzzle's time): a solver that keeps the base rules keeps every retired overlay's
variables, and each later call pays for them.

Configs: ``cadical`` (CaDiCaL 1.9.5 with the backend's tuning and positive phases),
``cadical-default`` (its own options and phases), ``glucose4``, ``minisat22``,
``implied-2`` / ``implied-3`` (cadical plus the 45 rule's innies/outies of at most 2 or 3
cells as extra distinct cages, ``backends.native._implied_sums``), ``layered`` (cages as
layered sums, no combinations), and with ``--pb`` each named :mod:`pysat.pb` encoding of
the cage sums (``sum d * x(c, d) = total``, distinctness pairwise); ``pysat.pb`` needs the
``pindakaas`` package, not a dependency of this project.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sudoku_model import Puzzle, RuleSet, Shape, formats
from sudoku_model.backends import cnf
from sudoku_model.backends.native import _implied_sums
from sudoku_model.backends.sat import CADICAL_TUNING
from sudoku_model.rules import Sum, SumGroup

KILLER_200 = Path("/work/shared/data/killer-200.csv")
Encoder = Callable[[RuleSet, int], tuple[list[list[int]], int]]


def plain(rules: RuleSet, top: int) -> tuple[list[list[int]], int]:
    return cnf.encode_constraint_rules(rules, top=top)


def implied(max_cells: int) -> Encoder:
    """The cages plus the distinct innies/outies groups of at most ``max_cells`` cells."""

    def encode(rules: RuleSet, top: int) -> tuple[list[list[int]], int]:
        n = rules.shape.size
        out = cnf._Clauses([], top, constants=False)
        cnf._add_constraint_rules(out, rules, lambda c, d: c * n + d)
        sums = [
            (g.cells, g.weights, g.total, g.distinct)
            for r in rules.constraint_rules
            if isinstance(r, Sum)
            for g in r.groups
        ]
        for cells, weights, total, distinct in _implied_sums(rules, sums):
            if distinct and len(cells) <= max_cells:
                group = SumGroup(cells, weights, total, distinct)
                peers, candidates = rules.base.peers, rules.candidate_digits
                cnf._add_sum_group(out, group, n, lambda c, d: c * n + d, peers, candidates)
        return out.clauses, out.top

    return encode


def layered(rules: RuleSet, top: int) -> tuple[list[list[int]], int]:
    saved, cnf.MAX_COMBINATIONS = cnf.MAX_COMBINATIONS, 0
    try:
        return cnf.encode_constraint_rules(rules, top=top)
    finally:
        cnf.MAX_COMBINATIONS = saved


def pseudo_boolean(name: str) -> Encoder:
    """Cage sums through a :mod:`pysat.pb` encoding (distinctness pairwise)."""

    def encode(rules: RuleSet, top: int) -> tuple[list[list[int]], int]:
        from pysat.pb import EncType, PBEnc

        n = rules.shape.size
        clauses: list[list[int]] = []
        peers = rules.base.peers
        for rule in rules.constraint_rules:
            assert isinstance(rule, Sum)
            for g in rule.groups:
                cells = g.cells
                for i, a in enumerate(cells):
                    for b in cells[i + 1 :]:
                        if b not in peers[a]:
                            clauses.extend([-(a * n + d), -(b * n + d)] for d in range(1, n + 1))
                lits = [c * n + d for c in cells for d in range(1, n + 1)]
                weights = [d for _ in cells for d in range(1, n + 1)]
                enc = PBEnc.equals(
                    lits=lits,
                    weights=weights,
                    bound=g.total,
                    top_id=top,
                    encoding=getattr(EncType, name),
                )
                clauses.extend(enc.clauses)
                top = max(top, enc.nv)
        return clauses, top

    return encode


TUNED = dict(CADICAL_TUNING)
CONFIGS: dict[str, tuple[str, dict[str, int] | None, bool, Encoder]] = {
    "cadical": ("cadical195", TUNED, True, plain),
    "cadical-default": ("cadical195", {}, False, plain),
    "glucose4": ("glucose4", None, False, plain),
    "minisat22": ("minisat22", None, False, plain),
    "implied-2": ("cadical195", TUNED, True, implied(2)),
    "implied-3": ("cadical195", TUNED, True, implied(3)),
    "layered": ("cadical195", TUNED, True, layered),
}


class Racer:
    """One config: its solver, its variable counter and its times."""

    def __init__(
        self,
        base: cnf.CNF,
        solver: str,
        options: dict[str, int] | None,
        phases: bool,
        encode: Encoder,
        rebuild_every: int,
    ) -> None:
        self.base, self.solver_name, self.options = base, solver, options
        self.phases, self.encode, self.rebuild_every = phases, encode, rebuild_every
        self.times: dict[str, list[float]] = {"encode": [], "add": [], "solve": [], "total": []}
        self.conflicts: list[int] = []
        self._new_solver()

    def _new_solver(self) -> None:
        from pysat.solvers import Solver

        self.solver: Any = Solver(name=self.solver_name)
        if self.options:
            self.solver.solver.configure(self.options)
        self.solver.append_formula(self.base.clauses)
        if self.phases:
            self.solver.set_phases(range(1, self.base.variables.cell_var_count + 1))
        self.next_var = self.base.num_vars + 1
        self.since_rebuild = 0

    def check(self, puzzle: Puzzle) -> None:
        start = time.thread_time()
        if self.rebuild_every and self.since_rebuild == self.rebuild_every:
            self.solver.delete()
            self._new_solver()
        self.since_rebuild += 1
        clauses, top = self.encode(puzzle.rules, self.next_var - 1)
        guard, block = top + 1, top + 2
        self.next_var = top + 3
        for clause in clauses:
            clause.append(-guard)
        encoded = time.thread_time()
        s = self.solver
        s.append_formula(clauses)
        added = time.thread_time()
        before = s.accum_stats().get("conflicts", 0)
        if not s.solve(assumptions=[guard]):
            raise AssertionError("a killer-200 puzzle has no solution")
        cells = self.base.variables.cell_var_count
        free = [lit for lit in s.get_model()[:cells] if lit > 0]
        s.add_clause([-lit for lit in free] + [-block])
        if self.phases:
            s.set_phases([-lit for lit in free])
        if s.solve(assumptions=[guard, block]) is not False:
            raise AssertionError("a killer-200 puzzle has a second solution")
        s.add_clause([-block])
        s.add_clause([-guard])
        if self.phases:
            s.set_phases(free)
        end = time.thread_time()
        for key, value in (
            ("encode", encoded - start),
            ("add", added - encoded),
            ("solve", end - added),
            ("total", end - start),
        ):
            self.times[key].append(value)
        self.conflicts.append(s.accum_stats().get("conflicts", 0) - before)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", default=",".join(CONFIGS))
    parser.add_argument("--pb", default="", help="comma list of pysat.pb encodings to add")
    parser.add_argument("--rebuild-every", type=int, default=0)
    parser.add_argument("--killer", type=Path, default=KILLER_200)
    args = parser.parse_args(argv)
    if not args.killer.exists():
        print(f"{args.killer} not found", file=sys.stderr)
        return 2
    configs = {name: CONFIGS[name] for name in args.configs.split(",") if name}
    for name in filter(None, args.pb.split(",")):
        configs[f"pb-{name}"] = ("cadical195", TUNED, True, pseudo_boolean(name))
    puzzles = [r.puzzle for r in formats.iter_records(args.killer) if r.puzzle is not None]
    base = cnf.encode_rules(RuleSet.classic(Shape(3, 3)))
    racers = [Racer(base, *config, args.rebuild_every) for config in configs.values()]
    for i, puzzle in enumerate(puzzles):
        k = i % len(racers)
        for racer in racers[k:] + racers[:k]:
            racer.check(puzzle)
    print(f"{len(puzzles)} puzzles, thread CPU ms per puzzle (medians unless 'mean')")
    print(
        f"{'config':<16} {'total':>6} {'mean':>6} {'encode':>7} {'add':>6} {'solve':>6}  conflicts"
    )
    for name, racer in zip(configs, racers):
        t = {k: statistics.median(v) * 1e3 for k, v in racer.times.items()}
        mean = statistics.mean(racer.times["total"]) * 1e3
        print(
            f"{name:<16} {t['total']:6.2f} {mean:6.2f} {t['encode']:7.2f} {t['add']:6.2f} "
            f"{t['solve']:6.2f}  median {statistics.median(racer.conflicts):.0f}, "
            f"mean {statistics.mean(racer.conflicts):.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
