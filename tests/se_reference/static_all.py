"""Every hint of Sudoku Explainer's first chaining producer (cycles, forcing X- and
XY-chains) on a grid, in SE's order, with the chains that a nesting chain reads: the
reference of the C search that the nested dynamic forcing chains run
(sudoku_model/se/se_nested.c)."""

from __future__ import annotations

import time

from sudoku_model.se.potentials import (
    NAKED,
    NO_CAUSE,
    ChainBudgetExceeded,
    Node,
    _ancestors,
    _Hint,
    _off_to_on,
    _on_target,
    _on_to_off,
)
from sudoku_model.se.state import CELL_REGIONS, DIGITS, POPCOUNT
from sudoku_model.se.static_chains import _cycle_hint


def _off_cause(node: Node) -> int:
    """The unit of an "off" node's link from its "on" parent (SE's cause): the cell
    (:data:`NAKED`), else the first of box, row, column that both cells share."""
    if not node[1]:
        return NO_CAUSE
    cell = (node[0] >> 1) // 9
    parent = (node[1][0][0] >> 1) // 9
    if cell == parent:
        return NAKED
    for t in range(3):
        if CELL_REGIONS[cell][t] == CELL_REGIONS[parent][t]:
            return CELL_REGIONS[cell][t]
    return NO_CAUSE


def _reversed_cycle(dst_on: Node) -> Node:
    """SE's ``getReversedCycle``: the same cycle walked backwards, every potential
    negated and keeping its own cause (the second chain of a cycle hint)."""
    rev: Node | None = None
    p: Node | None = dst_on
    while p is not None:
        tag = p[2]
        cause = tag if p[0] & 1 and isinstance(tag, int) else _off_cause(p)
        rev = (p[0] ^ 1, (rev,) if rev is not None else (), cause)
        p = p[1][0] if p[1] else None
    assert rev is not None
    return rev


#: The static implications of one grid, by key: the off keys an on key implies, and the
#: (on key, cause) pairs an off key implies.
_Tables = tuple[list[list[int]], list[list[tuple[int, int]]]]


def _static_tables(cands: list[int], y: bool, x: bool) -> _Tables:
    """Every static implication of ``cands`` at once, in lists indexed by key (the
    searches of :func:`_static_all` walk them hundreds of times)."""
    none: list[int] = []
    on_off: list[list[int]] = [none] * 1458
    off_on: list[list[tuple[int, int]]] = [[]] * 1458
    for cell in range(81):
        for d in DIGITS[cands[cell]]:
            key = (cell * 9 + d - 1) << 1
            on_off[key | 1] = _on_to_off(cands, key | 1, y)
            made = _off_to_on(cands, None, key, y, x, {}, (key, (), NO_CAUSE))
            off_on[key] = [(n[0], n[2] if isinstance(n[2], int) else NO_CAUSE) for n in made]
    return on_off, off_on


def _all_cycles(tables: _Tables, src_key: int) -> list[Node]:
    """Every end of a bidirectional cycle through ``src_key`` that SE's ``doCycles``
    meets (its search does not stop at the first)."""
    on_off, off_on = tables
    src: Node = (src_key, (), NO_CAUSE)
    to_on = {src_key}
    pending_on: list[tuple[Node, int]] = [(src, 1 << src_key)]
    found: list[Node] = []
    length = 0
    while pending_on:
        length += 2
        new_off: list[tuple[Node, int]] = []
        for p, path in pending_on:
            for off_key in on_off[p[0]]:
                if not path >> off_key & 1:
                    new_off.append(((off_key, (p,), NO_CAUSE), path | 1 << off_key))
        new_on: list[tuple[Node, int]] = []
        for p, path in new_off:
            for on_key, cause in off_on[p[0]]:
                if length >= 4 and on_key == src_key:
                    found.append((on_key, (p,), cause))
                if on_key not in to_on:
                    to_on.add(on_key)
                    new_on.append(((on_key, (p,), cause), path | 1 << on_key))
        pending_on = new_on
    return found


def _path(parent: dict[int, int], causes: dict[int, int], last: int, key: int, cause: int) -> Node:
    """The node of ``key`` reached from ``last``, with its single-parent path to the root
    recorded in ``parent``."""
    keys = [last]
    while parent[keys[-1]] >= 0:
        keys.append(parent[keys[-1]])
    node: Node | None = None
    for k in reversed(keys):
        node = (k, (node,) if node is not None else (), causes.get(k, NO_CAUSE))
    assert node is not None
    return (key, (node,), cause)


def _first_forcing(tables: _Tables, src_key: int) -> Node | None:
    """The first node of SE's ``doForcingChains`` from ``src_key`` that is its
    negation, or None. Parents are kept as keys and the nodes are made for the answer
    only: most searches find nothing."""
    on_off, off_on = tables
    target_key = src_key ^ 1
    parent = {src_key: -1}
    causes: dict[int, int] = {}
    pending_on: list[int] = [src_key] if src_key & 1 else []
    pending_off: list[int] = [] if src_key & 1 else [src_key]
    while pending_on or pending_off:
        for key in pending_on:
            for off_key in on_off[key]:
                if off_key == target_key:
                    return _path(parent, causes, key, off_key, NO_CAUSE)
                if off_key not in parent:
                    parent[off_key] = key
                    pending_off.append(off_key)
        pending_on = []
        for key in pending_off:
            for on_key, cause in off_on[key]:
                if on_key == target_key:
                    return _path(parent, causes, key, on_key, cause)
                if on_key not in parent:
                    parent[on_key] = key
                    causes[on_key] = cause
                    pending_on.append(on_key)
        pending_off = []
    return None


def _sorted_unique(hints: list[_Hint]) -> list[_Hint]:
    """SE's order of a producer's hints (rating, complexity, kind; discovery order among
    equals), keeping the first of the hints that remove the same candidates."""
    order = sorted(range(len(hints)), key=lambda i: hints[i].rank())
    seen: set[tuple[tuple[int, int], ...]] = set()
    out: list[_Hint] = []
    for i in order:
        h = hints[i]
        key = tuple(sorted(h.elims))
        if key not in seen:
            seen.add(key)
            out.append(h)
    return out


def _static_all(cands: list[int], deadline: float | None) -> list[_Hint]:
    """Every hint of SE's first chaining producer (cycles, forcing X- and XY-chains)
    on ``cands``, in SE's order: what a dynamic chain "+ Forcing Chains" nests."""
    hints: list[_Hint] = []
    for y, x in ((False, True), (True, False), (True, True)):
        if y and x:
            base_cycle, base_chain, sort_key = 7.0, 7.0, 4
            cycle_name, chain_name = "Bidirectional Cycle", "Forcing Chain"
        elif y:
            base_cycle, base_chain, sort_key = 6.5, 0.0, 3
            cycle_name, chain_name = "Bidirectional Y-Cycle", ""
        else:
            base_cycle, base_chain, sort_key = 6.5, 6.6, 2
            cycle_name, chain_name = "Bidirectional X-Cycle", "Forcing X-Chain"
        tables = _static_tables(cands, y, x)
        # A cycle closes on an off-to-on link into its source: no such link, no cycle.
        closing = {k for links in tables[1] for k, _ in links}
        for cell in range(81):
            m = cands[cell]
            n = POPCOUNT[m]
            if n < 2 or (not x and n > 2):
                continue
            if deadline is not None and time.process_time() > deadline:
                raise ChainBudgetExceeded
            for d in DIGITS[m]:
                on_key = ((cell * 9 + d - 1) << 1) | 1
                for dst in _all_cycles(tables, on_key) if on_key in closing else ():
                    h = _cycle_hint(cands, dst, cycle_name, base_cycle, sort_key)
                    if h.elims:
                        h.targets = (dst, _reversed_cycle(dst))
                        hints.append(h)
                if x:
                    for src in (on_key, on_key ^ 1):
                        target = _first_forcing(tables, src)
                        if target is None:
                            continue
                        elims, placement = _on_target(cands, target[0])
                        if elims:
                            hints.append(
                                _Hint(
                                    chain_name,
                                    base_chain,
                                    _ancestors(target),
                                    sort_key,
                                    elims,
                                    placement,
                                    (cell,),
                                    (target,),
                                )
                            )
    return _sorted_unique(hints)
