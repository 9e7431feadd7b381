"""Candidate puzzles (pencilmark puzzles) as the backends see them, and the default of the
contract's :meth:`~sudoku_model.solving.contract.Backend.restore_candidates`.

A candidate puzzle is an ordinary :class:`Puzzle`: its givens are the cells left with one
candidate, and its rule set carries, after the base rules, one ``Domain`` rule named
``"candidates"`` listing every cell with 2..n-1 candidates. Masks are per cell, bit d-1 for
digit d.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..grid import Grid
from ..puzzle import Puzzle
from ..rules import CANDIDATES_RULE, Domain, RuleSet

if TYPE_CHECKING:
    from .contract import Backend
    from .results import Budget

#: Answers of restore_candidates, one byte per (cell, digit) visited.
NECESSARY, RESTORED, UNKNOWN = 0, 1, 2


def mask_digits(mask: int) -> frozenset[int]:
    """The digits of a candidate mask (bit d-1 = digit d)."""
    return frozenset(d + 1 for d in range(mask.bit_length()) if mask >> d & 1)


def with_candidates_rule(rules: RuleSet) -> RuleSet:
    """``rules`` with a small "candidates" Domain rule: what a backend must support to
    answer candidate puzzles of ``rules`` (its capability check)."""
    return rules.with_rules([Domain(CANDIDATES_RULE, ((0, frozenset({1, 2})),))])


def candidate_puzzle(rules: RuleSet, masks: Sequence[int]) -> Puzzle:
    """The puzzle of ``rules`` whose cells hold the candidates ``masks`` (bit d-1 = digit
    d): :meth:`Puzzle.from_candidates` of their digit sets.

    Raises:
        ValueError: for a mask count other than the cell count or an empty mask.
    """
    return Puzzle.from_candidates([mask_digits(m) for m in masks], rules=rules)


def restore_by_search(
    backend: Backend,
    rules: RuleSet,
    solution: Grid,
    masks: Sequence[int],
    order: Sequence[tuple[int, int]],
    *,
    target: int | None,
    budget: Budget,
) -> tuple[tuple[int, ...], bytes]:
    """The contract's default of ``restore_candidates``: one search per pair, through the
    backend's primitive search on a candidate puzzle with the digit placed in the cell.

    Raises:
        ValueError: for a mask without the solution's digit or a pair naming it.
    """
    cur = list(masks)
    n = rules.shape.size
    for c, mask in enumerate(cur):
        if not mask >> (solution[c] - 1) & 1:
            raise ValueError(f"masks[{c}] lacks the solution's digit {solution[c]}")
    elims = sum(n - bin(m).count("1") for m in cur)
    answers = bytearray()
    for c, d in order:
        if d == solution[c]:
            raise ValueError(f"({c}, {d}) names the solution's digit of cell {c}")
        if target is not None and elims <= target:
            break
        bit = 1 << (d - 1)
        if cur[c] & bit:
            answers.append(RESTORED)
            continue
        trial = list(cur)
        trial[c] = bit  # the digit placed: any solution then differs from the known one
        out = backend._search(candidate_puzzle(rules, trial), limit=1, budget=budget)
        if out.solutions:
            answers.append(NECESSARY)
        elif out.stopped_by_budget or not out.complete:
            answers.append(UNKNOWN)
        else:
            cur[c] |= bit
            elims -= 1
            answers.append(RESTORED)
    return tuple(cur), bytes(answers)
