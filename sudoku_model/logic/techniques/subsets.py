"""Naked and hidden subsets (pairs, triples, quads) inside one unit.

* Naked: k cells of a unit whose candidates together are only k digits hold those digits,
  so the other cells of the unit lose them. Valid in every all-different unit.
* Hidden: k digits that, within a unit of n cells, fit only in the same k cells fill
  those cells, so the cells lose every other candidate. Needs a unit of n cells (one
  where every digit must appear).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..engine import CandidateGrid
from ..steps import Step, elimination_text
from ..tables import digits_of

__all__ = [
    "naked_subset",
    "hidden_subset",
    "naked_pair",
    "naked_triple",
    "naked_quad",
    "hidden_pair",
    "hidden_triple",
    "hidden_quad",
]

_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def subset_combinations(items: list[tuple[int, int]], k: int) -> Iterator[tuple[list[int], int]]:
    """Each choice of k items (key, mask) whose masks together have exactly k bits,
    generated depth-first, pruning as soon as the union grows past k bits."""
    if k == 2:
        return _pairs(items)
    chosen: list[int] = []

    def walk(start: int, union: int) -> Iterator[tuple[list[int], int]]:
        if len(chosen) == k:
            if union.bit_count() == k:
                yield chosen[:], union
            return
        for i in range(start, len(items) - (k - len(chosen)) + 1):
            key, mask = items[i]
            grown = union | mask
            if grown.bit_count() > k:
                continue
            chosen.append(key)
            yield from walk(i + 1, grown)
            chosen.pop()

    return walk(0, 0)


def _pairs(items: list[tuple[int, int]]) -> Iterator[tuple[list[int], int]]:
    # Two items form a pair exactly when their masks are the same two bits: one dict pass
    # instead of the recursive walk (pairs are tried far more often than larger sets).
    first: dict[int, int] = {}
    for key, mask in items:
        if mask.bit_count() != 2:
            continue
        if mask in first:
            yield [first[mask], key], mask
        else:
            first[mask] = key


def naked_subset(grid: CandidateGrid, k: int) -> Step | None:
    """The first naked subset of size ``k`` that removes a candidate, or None."""
    t = grid.tables
    cands = grid.cands
    for u, unit in enumerate(t.units):
        open_cells = [c for c in unit if cands[c]]
        if len(open_cells) <= k:
            continue
        small = [(c, cands[c]) for c in open_cells if 2 <= cands[c].bit_count() <= k]
        if len(small) < k:
            continue
        for cells, union in subset_combinations(small, k):
            elims = [
                (c, d)
                for c in open_cells
                if c not in cells and cands[c] & union
                for d in digits_of(cands[c] & union)
            ]
            if elims:
                digits = digits_of(union)
                name = _NAMES[k]
                text = (
                    f"naked {name} {'/'.join(map(str, digits))} in "
                    f"{t.cells_text(cells)} ({t.unit_names[u]}): "
                    f"{elimination_text(t, elims)}"
                )
                return Step(
                    f"naked_{name}", (), tuple(elims), tuple(cells), (u,), tuple(digits), text
                )
    return None


def hidden_subset(grid: CandidateGrid, k: int) -> Step | None:
    """The first hidden subset of size ``k`` that removes a candidate, or None."""
    t = grid.tables
    cands = grid.cands
    n = t.n
    for u, unit in enumerate(t.units):
        if not t.unit_full[u]:
            continue
        open_cells = [c for c in unit if cands[c]]
        if len(open_cells) <= k:
            continue
        # Positions of each digit as a mask over open_cells.
        positions = [0] * n
        for i, c in enumerate(open_cells):
            m = cands[c]
            d = 0
            while m:
                if m & 1:
                    positions[d] |= 1 << i
                m >>= 1
                d += 1
        small = [(d, positions[d]) for d in range(n) if 2 <= positions[d].bit_count() <= k]
        if len(small) < k:
            continue
        for digit_indices, where in subset_combinations(small, k):
            keep = 0
            for d in digit_indices:
                keep |= 1 << d
            cells = [open_cells[i] for i in range(len(open_cells)) if where >> i & 1]
            elims = [(c, d) for c in cells if cands[c] & ~keep for d in digits_of(cands[c] & ~keep)]
            if elims:
                digits = [d + 1 for d in digit_indices]
                name = _NAMES[k]
                text = (
                    f"hidden {name} {'/'.join(map(str, digits))}: in "
                    f"{t.unit_names[u]} they fit only in {t.cells_text(cells)}: "
                    f"{elimination_text(t, elims)}"
                )
                return Step(
                    f"hidden_{name}", (), tuple(elims), tuple(cells), (u,), tuple(digits), text
                )
    return None


def _fixed(
    func: Callable[[CandidateGrid, int], Step | None], k: int, doc: str
) -> Callable[[CandidateGrid], Step | None]:
    def technique(grid: CandidateGrid) -> Step | None:
        return func(grid, k)

    technique.__name__ = f"{func.__name__.split('_')[0]}_{_NAMES[k]}"
    technique.__doc__ = doc
    return technique


naked_pair = _fixed(naked_subset, 2, "Two cells of a unit with the same two candidates.")
naked_triple = _fixed(naked_subset, 3, "Three cells of a unit with three candidates in all.")
naked_quad = _fixed(naked_subset, 4, "Four cells of a unit with four candidates in all.")
hidden_pair = _fixed(hidden_subset, 2, "Two digits confined to the same two cells of a unit.")
hidden_triple = _fixed(hidden_subset, 3, "Three digits confined to three cells of a unit.")
hidden_quad = _fixed(hidden_subset, 4, "Four digits confined to four cells of a unit.")
