"""Sudoku Explainer's rating procedure: apply the first hint of the first producer that
has one, in SE's order, until the grid is solved; ER is the highest rating met, EP the
highest up to the first placed value, ED the rating of the first step.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import SudokuError
from . import chaining, native
from .state import State
from .steps import SEStep, apply_step

__all__ = [
    "RATER_NAME",
    "RATER_VERSION",
    "SERating",
    "Producer",
    "PRODUCERS",
    "make_producers",
    "rate_se",
    "rate_se_pencilmark",
    "next_step",
    "next_step_pencilmark",
    "SEBudgetExceeded",
]

RATER_NAME = "sudoku-model-se"
#: Bumped whenever a change can alter a rating: a rating is reproducible only together
#: with the version that computed it.
RATER_VERSION = "0.7"

Generate = Callable[[State, "float | None"], Iterator[SEStep]]


@dataclass(frozen=True)
class Producer:
    """One of SE's hint producers: its name, the lowest rating it can give, and the
    generator of its hints in SE's order."""

    name: str
    floor: float
    generate: Generate


def _p(name: str, floor: float, fn: Callable[[State], Iterator[SEStep]]) -> Producer:
    return Producer(name, floor, lambda s, _deadline: fn(s))


def _nested(level: int, ch: Any) -> Producer:
    """SE's dynamic forcing chains of nesting ``level`` >= 2 (``ch``: :mod:`.native`, or
    the Python reference of tests/se_reference)."""

    def generate(state: State, deadline: float | None) -> Iterator[SEStep]:
        return ch.multiple_chains(
            state, multiple=True, dynamic=True, level=level, deadline=deadline
        )

    return Producer(
        f"Dynamic Forcing Chains{chaining.nested_suffix(level)}", 8.5 + 0.5 * level, generate
    )


def make_producers(t: Any, sl: Any, wg: Any, al: Any, uq: Any, ch: Any) -> tuple[Producer, ...]:
    """SE's producers in SE's order over the searches of the given modules: ``t`` the
    singles, intersections, subsets, fish and XY-wings, ``sl`` the strong links, ``wg``
    the ALS-wings, ``al`` aligned exclusion, ``uq`` unique loops and the BUG, ``ch`` the
    chains.
    The product passes :mod:`.native` (the C searches) for all six; tests pass the
    Python reference of tests/se_reference to compare hint for hint."""
    return (
        _p("Hidden Single", 1.0, t.hidden_singles),
        _p("Direct Pointing", 1.7, t.direct_pointing),
        _p("Direct Hidden Pair", 2.0, lambda s: t.direct_hidden_sets(s, 2)),
        _p("Naked Single", 2.3, t.naked_singles),
        _p("Direct Hidden Triplet", 2.5, lambda s: t.direct_hidden_sets(s, 3)),
        _p("Pointing", 2.6, t.locking),
        _p("Naked Pair", 3.0, lambda s: t.naked_sets(s, 2)),
        _p("X-Wing", 3.2, lambda s: t.fish(s, 2)),
        _p("Hidden Pair", 3.4, lambda s: t.hidden_sets(s, 2)),
        _p("Naked Triplet", 3.6, lambda s: t.naked_sets(s, 3)),
        _p("Swordfish", 3.8, lambda s: t.fish(s, 3)),
        _p("Hidden Triplet", 4.0, lambda s: t.hidden_sets(s, 3)),
        _p("Turbot Fish", 4.0, sl.turbot_fish),
        _p("XY-Wing", 4.2, lambda s: t.xy_wings(s, False)),
        _p("XYZ-Wing", 4.4, lambda s: t.xy_wings(s, True)),
        _p("Unique Rectangle", 4.5, uq.unique_loops),
        _p("Naked Quad", 5.0, lambda s: t.naked_sets(s, 4)),
        _p("Jellyfish", 5.2, lambda s: t.fish(s, 4)),
        _p("Hidden Quad", 5.4, lambda s: t.hidden_sets(s, 4)),
        _p("Three Strong Links", 5.4, sl.three_strong_links),
        _p("WXYZ-Wing", 5.5, lambda s: wg.als_wing(s, 3)),
        _p("BUG", 5.6, uq.bug),
        _p("VWXYZ-Wing", 6.2, lambda s: wg.als_wing(s, 4)),
        _p("Aligned Pair Exclusion", 6.2, lambda s: al.aligned_exclusion(s, 2)),
        Producer(
            "Forcing Chains & Cycles",
            6.5,
            lambda s, dl: ch.cycles_and_forcing_chains(s, dl),
        ),
        _p("Aligned Triplet Exclusion", 7.5, lambda s: al.aligned_exclusion(s, 3)),
        Producer(
            "Nishio Forcing Chains",
            7.5,
            lambda s, dl: ch.multiple_chains(s, nishio=True, dynamic=True, deadline=dl),
        ),
        Producer(
            "Multiple Forcing Chains",
            8.0,
            lambda s, dl: ch.multiple_chains(s, multiple=True, deadline=dl),
        ),
        Producer(
            "Dynamic Forcing Chains",
            8.5,
            lambda s, dl: ch.multiple_chains(s, multiple=True, dynamic=True, deadline=dl),
        ),
        Producer(
            "Dynamic Forcing Chains (+)",
            9.0,
            lambda s, dl: ch.multiple_chains(s, multiple=True, dynamic=True, level=1, deadline=dl),
        ),
        # SE's "advanced" and "experimental" producers: nested forcing chains, rated
        # 8.5 + 0.5 * level (+ length), tried only when every producer above has none.
        *(_nested(level, ch) for level in (2, 3, 4, 5)),
    )


#: SE's producers in SE's order: SukakuExplainer's default technique set of late 2019
#: (WXYZ- and VWXYZ-wings on, four strong links off, no UVWXYZ/TUVWXYZ-wings, which came
#: in January 2020), the version whose ratings the reference collection carries (it has no
#: rating in 5.8-6.2 nor 7.5); its 1.10.4 release (November 2019) is the specification of
#: the turbot fish and three strong links. Every search is C (:mod:`.native`), the nested
#: chain levels included.
PRODUCERS: tuple[Producer, ...] = make_producers(native, native, native, native, native, native)


@dataclass(frozen=True)
class SERating:
    """The outcome of rating one puzzle.

    Attributes:
        status: ``rated`` (solved by the techniques), ``budget`` (the time budget ran out:
            ``er_above`` is a lower bound of ER), ``stuck`` (no built technique applies:
            ``er_above`` is a lower bound), ``invalid`` (the grid contradicts itself or
            a step removed the last candidate of a cell: not a proper puzzle).
        er, ep, ed: SE's ratings (None unless ``rated``; ep and ed may be set when the
            first placement came before the budget ran out).
        er_above: when not rated, the rating the puzzle is known to exceed or reach.
        steps: the steps taken, in order.
        seconds: CPU seconds spent.
    """

    status: str
    er: float | None
    ep: float | None
    ed: float | None
    er_above: float | None = None
    steps: tuple[SEStep, ...] = field(default=(), repr=False)
    seconds: float = 0.0

    def to_json(self, *, with_steps: bool = False) -> dict[str, Any]:
        """The record fields of ``sudoku rate --scale se``."""
        out: dict[str, Any] = {
            "se_status": self.status,
            "er": self.er,
            "ep": self.ep,
            "ed": self.ed,
        }
        if self.er_above is not None:
            out["er_above"] = self.er_above
        out["rater"] = RATER_NAME
        out["rater_version"] = RATER_VERSION
        if with_steps:
            out["se_steps"] = [s.to_json() for s in self.steps]
        return out


def _round(x: float) -> float:
    return round(x + 1e-9, 1)


def rate_se(
    values: Sequence[int],
    *,
    seconds: float | None = None,
    producers: Sequence[Producer] = PRODUCERS,
) -> SERating:
    """Rate a 9x9 puzzle the way Sudoku Explainer does.

    Args:
        values: 81 digits, 0 for an empty cell.
        seconds: CPU-time budget; when it runs out the result has status ``budget`` and
            ``er_above`` instead of ER.
        producers: the hint producers, in order (SE's by default).

    Raises:
        ValueError: when ``values`` is not 81 digits 0..9.
    """
    return _rate(State.from_values(values), seconds, producers)


def rate_se_pencilmark(
    candidates: Sequence[int],
    *,
    seconds: float | None = None,
    producers: Sequence[Producer] = PRODUCERS,
) -> SERating:
    """Rate a 9x9 pencilmark puzzle the way SukakuExplainer rates a 729-character line:
    from its candidates alone (:meth:`State.from_candidates`), then as :func:`rate_se`.

    Args:
        candidates: 81 candidate masks, bit ``d - 1`` for digit d (a given is one bit).
        seconds: CPU-time budget, as for :func:`rate_se`.
        producers: the hint producers, in order (SE's by default).

    Raises:
        ValueError: when ``candidates`` is not 81 masks 1..511.
    """
    return _rate(State.from_candidates(candidates), seconds, producers)


#: How many of SE's producers (:data:`PRODUCERS`) the C loop :func:`native.basic_steps`
#: runs in their place: the scanning searches before the chains.
_BASIC = len(native.BASIC_NAMES)


def _basic_count(producers: Sequence[Producer]) -> int:
    """How many leading producers :func:`native.basic_steps` may run in their place: the
    scanning ones of SE's own producers; none of any other list (the tests' reference
    producers take the loop below, step by step)."""
    return _BASIC if producers is PRODUCERS else 0


def _rate(state: State, seconds: float | None, producers: Sequence[Producer]) -> SERating:
    start = time.process_time()
    deadline = None if seconds is None else start + seconds
    steps: list[SEStep] = []
    er = ep = ed = 0.0
    ep_set = ed_set = False

    def result(status: str, above: float | None = None) -> SERating:
        spent = time.process_time() - start
        return SERating(
            status,
            _round(er) if status == "rated" else None,
            _round(ep) if ep_set else None,
            _round(ed) if ed_set else None,
            None if above is None else _round(above),
            tuple(steps),
            spent,
        )

    def record(step: SEStep) -> None:
        nonlocal er, ep, ed, ep_set, ed_set
        steps.append(step)
        er = max(er, step.rating)
        if not ep_set:
            if not ed_set:
                ed, ed_set = er, True
            if step.placement is not None:
                ep, ep_set = er, True

    if native.broken(state):
        return result("invalid")
    basic = _basic_count(producers)
    while not state.is_solved():
        if basic:
            run = native.basic_steps(state, basic, deadline)
            for _, taken in run.steps:
                record(taken)
            if run.stop == "solved":
                break
            if run.stop == "broken":
                return result("invalid")
            if run.stop == "deadline":
                return result("budget", max(er, producers[0].floor))
        step = None
        for producer in producers[basic:]:
            if deadline is not None and time.process_time() > deadline:
                return result("budget", max(er, producer.floor))
            try:
                step = next(iter(producer.generate(state, deadline)), None)
            except chaining.ChainBudgetExceeded:
                return result("budget", max(er, producer.floor))
            if step is not None:
                break
        if step is None:
            return result("stuck", max(er, producers[-1].floor))
        record(step)
        apply_step(state, step)
        if native.broken(state):
            return result("invalid")
    return result("rated")


class SEBudgetExceeded(SudokuError):
    """The CPU budget ran out before :func:`next_step` found a step; ``er_above`` is
    the floor of the producer it was trying."""

    def __init__(self, er_above: float) -> None:
        super().__init__(f"budget spent: ER above {er_above:.1f}")
        self.er_above = er_above


def next_step(
    values: Sequence[int],
    *,
    seconds: float | None = None,
    producers: Sequence[Producer] = PRODUCERS,
) -> SEStep | None:
    """The step Sudoku Explainer applies next to a 9x9 grid (the first hint of the first
    producer that has one), or None when the grid is solved, broken, or beyond every
    built technique.

    Raises:
        ValueError: when ``values`` is not 81 digits 0..9.
        SEBudgetExceeded: when ``seconds`` of CPU time run out first.
    """
    return _next(State.from_values(values), seconds, producers)


def next_step_pencilmark(
    candidates: Sequence[int],
    *,
    seconds: float | None = None,
    producers: Sequence[Producer] = PRODUCERS,
) -> SEStep | None:
    """:func:`next_step` for a pencilmark puzzle, from its 81 candidate masks (as
    :func:`rate_se_pencilmark` starts).

    Raises:
        ValueError: when ``candidates`` is not 81 masks 1..511.
        SEBudgetExceeded: when ``seconds`` of CPU time run out first.
    """
    return _next(State.from_candidates(candidates), seconds, producers)


def _next(state: State, seconds: float | None, producers: Sequence[Producer]) -> SEStep | None:
    deadline = None if seconds is None else time.process_time() + seconds
    if state.is_solved() or native.broken(state):
        return None
    basic = _basic_count(producers)
    if basic:
        run = native.basic_steps(state, basic, deadline, 1)
        if run.steps:
            return run.steps[0][1]
        if run.stop == "deadline":
            raise SEBudgetExceeded(producers[0].floor)
    for producer in producers[basic:]:
        if deadline is not None and time.process_time() > deadline:
            raise SEBudgetExceeded(producer.floor)
        try:
            step = next(iter(producer.generate(state, deadline)), None)
        except chaining.ChainBudgetExceeded:
            raise SEBudgetExceeded(producer.floor) from None
        if step is not None:
            return step
    return None
