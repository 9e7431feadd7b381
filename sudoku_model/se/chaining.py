"""Chains as Sudoku Explainer searches and rates them.

A *potential* is a candidate assumed true ("on") or false ("off"), encoded as an int:
``((cell * 9 + digit - 1) << 1) | on``. A derived potential is a node ``(key, parents)``
whose parents are the nodes it follows from; SE's rating of a chain grows with the number
of distinct potentials among a conclusion's ancestors (its *complexity*), so the nodes
keep exactly the parents SE would record, in SE's search order.

Families (SE's producers, in SE's order):

- :func:`cycles_and_forcing_chains`: bidirectional X-, Y- and XY-cycles (6.5 / 7.0) and
  forcing X- and XY-chains (6.6 / 7.0), on the static grid;
- :func:`multiple_chains` with ``nishio``, ``multiple``, ``dynamic`` and ``level``:
  Nishio forcing chains (7.5), multiple (cell and region) forcing chains (8.0), dynamic
  forcing chains (8.5) and dynamic forcing chains "+" (level 1, 9.0), which also use the
  intersections, pairs and X-wings that a dynamic chain's removals reveal.

Every rating gets SE's length addition: 0.1 for each step of the sequence
4, 6, 8, 12, 16, 24, ... that ``complexity - 2`` exceeds.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator

from ..errors import SudokuError
from . import basic
from .state import BIT, CELL_REGIONS, DIGITS, PEERS, POPCOUNT, REGIONS, State
from .steps import SEStep

__all__ = [
    "length_addition",
    "cycles_and_forcing_chains",
    "multiple_chains",
    "ChainBudgetExceeded",
    "nested_suffix",
    "chain_step",
    "PLUS_RULES",
]

#: A node: its key, its parents, and its *tag*: for an "on" node the unit whose single it
#: is (a region index 0-26 for a hidden single, :data:`NAKED` for a naked single,
#: :data:`NO_CAUSE` for an assumption); for an "off" node made by a nested chain, that
#: chain's hint (SE's ``nestedChain``, which adds its complexity to the outer chain's),
#: else :data:`NO_CAUSE`.
Node = tuple[int, tuple["Node", ...], "int | _Hint"]

NAKED = 27
NO_CAUSE = -1


class ChainBudgetExceeded(SudokuError):
    """The per-puzzle time budget ran out inside a chain search."""


def length_addition(complexity: int) -> float:
    """SE's rating addition for a chain of the given complexity."""
    added = 0.0
    ceil = 4
    length = complexity - 2
    is_odd = False
    while length > ceil:
        added += 0.1
        ceil = (ceil * 3) // 2 if not is_odd else (ceil * 4) // 3
        is_odd = not is_odd
    return added


# -- geometry in SE's scan order ------------------------------------------------------

#: For each cell: the other cells of its box (box order), then of its row outside the
#: box, then of its column outside the box: the order in which SE switches peers off.
_PEER_SCAN: tuple[tuple[int, ...], ...] = tuple(
    tuple(x for x in REGIONS[CELL_REGIONS[c][0]] if x != c)
    + tuple(x for x in REGIONS[CELL_REGIONS[c][1]] if CELL_REGIONS[x][0] != CELL_REGIONS[c][0])
    + tuple(x for x in REGIONS[CELL_REGIONS[c][2]] if CELL_REGIONS[x][0] != CELL_REGIONS[c][0])
    for c in range(81)
)
_REGION_OTHERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(x for x in REGIONS[r] if x != c) for r in CELL_REGIONS[c]) for c in range(81)
)


def _on_to_off(cands: list[int], key: int, y: bool) -> list[int]:
    """Off keys that follow from the on potential ``key``."""
    cd = key >> 1
    cell, d0 = divmod(cd, 9)
    bit = 1 << d0
    out = []
    if y:
        m = cands[cell] & ~bit
        base = cell * 18
        while m:
            low = m & -m
            out.append(base + ((low.bit_length() - 1) << 1))
            m ^= low
    for c in _PEER_SCAN[cell]:
        if cands[c] & bit:
            out.append((c * 9 + d0) << 1)
    return out


def _off_to_on(
    cands: list[int],
    source: list[int] | None,
    key: int,
    y: bool,
    x: bool,
    to_off: dict[int, Node],
    p: Node,
) -> list[Node]:
    """On nodes that follow from the off node ``p`` (with SE's hidden parents: the
    earlier removals that made the cell or region single, when ``source`` is given)."""
    cd = key >> 1
    cell, d0 = divmod(cd, 9)
    bit = 1 << d0
    out: list[Node] = []
    if y:
        m = cands[cell]
        if POPCOUNT[m] == 2:
            other = m & ~bit
            if other == m:  # the digit itself is gone: SE takes the lower one
                other = m & -m
            else:
                other &= -other
            on_key = ((cell * 9 + other.bit_length() - 1) << 1) | 1
            parents: tuple[Node, ...] = (p,)
            if source is not None:
                hidden = source[cell] & ~m
                while hidden:
                    low = hidden & -hidden
                    parents += (to_off[cell * 18 + ((low.bit_length() - 1) << 1)],)
                    hidden ^= low
            out.append((on_key, parents, NAKED))
    if x:
        seen = 0
        for rtype in range(3):
            found = -1
            for c in _REGION_OTHERS[cell][rtype]:
                if cands[c] & bit:
                    if found >= 0:
                        found = -2
                        break
                    found = c
            if found >= 0:
                on_key = ((found * 9 + d0) << 1) | 1
                if seen and any(n[0] == on_key for n in out):
                    continue
                parents = (p,)
                if source is not None:
                    for c in REGIONS[CELL_REGIONS[cell][rtype]]:
                        if source[c] & bit and not cands[c] & bit:
                            parents += (to_off[(c * 9 + d0) << 1],)
                out.append((on_key, parents, CELL_REGIONS[cell][rtype]))
                seen = 1
    return out


def _ancestors(node: Node) -> int:
    seen: set[int] = set()
    todo = [node]
    while todo:
        nxt: list[Node] = []
        for n in todo:
            if n[0] not in seen:
                seen.add(n[0])
                nxt.extend(n[1])
        todo = nxt
    return len(seen)


def _chain(target: Node) -> list[Node]:
    """SE's ``getChain``: the target and its ancestors, breadth first, one node per
    potential (the first met)."""
    seen: set[int] = set()
    out: list[Node] = []
    todo = [target]
    while todo:
        nxt: list[Node] = []
        for n in todo:
            if n[0] not in seen:
                seen.add(n[0])
                out.append(n)
                nxt.extend(n[1])
        todo = nxt
    return out


def _complexity(targets: tuple[Node, ...]) -> int:
    """SE's complexity of a chain hint: the ancestors of each target, plus the complexity
    of every distinct nested chain (SE's ``FullChain``) among them."""
    total = 0
    nested: dict[tuple[tuple[int, ...], ...], int] = {}
    for target in targets:
        seen: set[int] = set()
        todo = [target]
        while todo:
            nxt: list[Node] = []
            for n in todo:
                if n[0] not in seen:
                    seen.add(n[0])
                    tag = n[2]
                    if type(tag) is not int:
                        assert isinstance(tag, _Hint)
                        nested.setdefault(tag.signature(), tag.complexity)
                    nxt.extend(n[1])
            todo = nxt
        total += len(seen)
    return total + sum(nested.values())


def _key_cell_digit(key: int) -> tuple[int, int]:
    cell, d0 = divmod(key >> 1, 9)
    return cell, d0 + 1


# -- hints ------------------------------------------------------------------------------


class _Hint:
    __slots__ = (
        "name",
        "difficulty",
        "complexity",
        "sort_key",
        "elims",
        "placement",
        "cells",
        "targets",
        "root_cause",
        "_signature",
    )

    def __init__(
        self,
        name: str,
        base: float,
        complexity: int,
        sort_key: int,
        elims: tuple[tuple[int, int], ...],
        placement: tuple[int, int] | None,
        cells: tuple[int, ...],
        targets: tuple[Node, ...] = (),
        root_cause: int = NO_CAUSE,
    ) -> None:
        self.name = name
        self.difficulty = base + length_addition(complexity)
        self.complexity = complexity
        self.sort_key = sort_key
        self.elims = elims
        self.placement = placement
        self.cells = cells
        # What a nested use of the hint needs: the ends of its chains (SE's
        # getChainsTargets) and the unit its assumptions fill (a cell forcing chain's
        # cell: NAKED; a region forcing chain's region).
        self.targets = targets
        self.root_cause = root_cause
        self._signature: tuple[tuple[int, ...], ...] | None = None

    def rank(self) -> tuple[float, int, int]:
        return (self.difficulty, self.complexity, self.sort_key)

    def signature(self) -> tuple[tuple[int, ...], ...]:
        """What SE's ``FullChain`` compares: the potentials of each chain, in order."""
        if self._signature is None:
            self._signature = tuple(tuple(n[0] for n in _chain(t)) for t in self.targets)
        return self._signature

    def step(self) -> SEStep:
        return SEStep(
            self.name,
            self.difficulty,
            self.elims,
            self.placement,
            self.cells,
            self.complexity,
            self.sort_key,
        )


def chain_step(
    name: str,
    base: float,
    complexity: int,
    sort_key: int,
    elims: tuple[tuple[int, int], ...],
    placement: tuple[int, int] | None,
    cells: tuple[int, ...],
) -> SEStep:
    """The step of a chain hint found elsewhere (the C searches of :mod:`.native`),
    rated as this module rates its own: ``base`` plus SE's length addition."""
    return _Hint(name, base, complexity, sort_key, elims, placement, cells).step()


def _on_target(
    cands: list[int], key: int
) -> tuple[tuple[tuple[int, int], ...], tuple[int, int] | None]:
    """Eliminations and placement of a conclusion: an on potential places its digit and
    removes the cell's others; an off potential removes its candidate."""
    cell, d = _key_cell_digit(key)
    if key & 1:
        return tuple((cell, e) for e in DIGITS[cands[cell] & ~BIT[d]]), (cell, d)
    return ((cell, d),), None


# -- cycles and forcing chains (static) -------------------------------------------------


class _Best:
    """The best hint so far; a later one must be strictly better (SE's stable sort keeps
    the first of equals)."""

    __slots__ = ("hint",)

    def __init__(self) -> None:
        self.hint: _Hint | None = None

    def offer(self, hint: _Hint) -> None:
        if hint.elims and (self.hint is None or hint.rank() < self.hint.rank()):
            self.hint = hint

    def max_complexity(self, base: float, sort_key: int) -> int:
        """The largest complexity a hint with this base rating and sort key may have and
        still beat the best so far (a large number when there is none)."""
        if self.hint is None:
            return 1 << 30
        best = self.hint.rank()
        c = 1
        while c < 4096:
            if (base + length_addition(c + 1), c + 1, sort_key) >= best:
                return c
            c += 1
        return c


class _StaticLinks:
    """The implications on the static grid of one pass of :func:`cycles_and_forcing_chains`,
    each computed once: the grid does not change during the pass, and every search of
    the pass (one per candidate, three kinds) walks the same implications again."""

    __slots__ = ("cands", "y", "x", "on_off", "off_on")

    def __init__(self, cands: list[int], y: bool, x: bool) -> None:
        self.cands = cands
        self.y = y
        self.x = x
        self.on_off: dict[int, list[int]] = {}
        self.off_on: dict[int, list[tuple[int, int]]] = {}

    def on(self, key: int) -> list[int]:
        """The off keys that the on potential ``key`` implies, in SE's order."""
        got = self.on_off.get(key)
        if got is None:
            got = self.on_off[key] = _on_to_off(self.cands, key, self.y)
        return got

    def off(self, key: int) -> list[tuple[int, int]]:
        """The on keys that the off potential ``key`` implies, in SE's order, each with
        its cause (see :data:`Node`)."""
        got = self.off_on.get(key)
        if got is None:
            made = _off_to_on(self.cands, None, key, self.y, self.x, {}, (key, (), NO_CAUSE))
            got = self.off_on[key] = [
                (n[0], n[2] if isinstance(n[2], int) else NO_CAUSE) for n in made
            ]
        return got


def _cycles(
    links: _StaticLinks, src_key: int, best: _Best, base: float, sort_key: int, cap: int
) -> bool:
    """Search the bidirectional cycles through ``src_key``; True when the search was cut
    at ``cap`` (and not by the best hint so far), so that a deeper one may find more."""
    cands = links.cands
    src: Node = (src_key, (), NO_CAUSE)
    to_on: dict[int, Node] = {src_key: src}
    # Pending nodes travel with the bitset of the keys on their path (a cycle may not
    # pass a potential twice): one shift and mask instead of a walk up the parents.
    pending_on: list[tuple[Node, int]] = [(src, 1 << src_key)]
    pending_off: list[tuple[Node, int]] = []
    p: Node
    node: Node
    length = 0
    bound = best.max_complexity(base, sort_key)
    limit = min(bound, cap)
    name = {2: "Bidirectional X-Cycle", 3: "Bidirectional Y-Cycle", 4: "Bidirectional Cycle"}[
        sort_key
    ]
    while pending_on or pending_off:
        length += 1
        new_off: list[tuple[Node, int]] = []
        for p, path in pending_on:
            for off_key in links.on(p[0]):
                if not path >> off_key & 1:
                    new_off.append(((off_key, (p,), NO_CAUSE), path | 1 << off_key))
        pending_off = new_off
        length += 1
        if length > limit:
            return cap < bound
        new_on: list[tuple[Node, int]] = []
        found = False
        for p, path in pending_off:
            for on_key, cause in links.off(p[0]):
                node = (on_key, (p,), cause)
                if length >= 4 and on_key == src_key:
                    hint = _cycle_hint(cands, node, name, base, sort_key)
                    if hint.elims:
                        found = True
                        best.offer(hint)
                if on_key not in to_on:
                    to_on[on_key] = node
                    new_on.append((node, path | 1 << on_key))
        if found:
            return False
        pending_on = new_on
        pending_off = []
    return False


def _cycle_hint(cands: list[int], dst_on: Node, name: str, base: float, sort_key: int) -> _Hint:
    cells: set[int] = set()
    chain: list[Node] = []
    p = dst_on
    while p[1]:
        cells.add((p[0] >> 1) // 9)
        chain.append(p)
        p = p[1][0]
    forw: set[tuple[int, int]] = set()
    back: set[tuple[int, int]] = set()
    for p in chain:
        cell, d = _key_cell_digit(p[0])
        bit = BIT[d]
        target = forw if p[0] & 1 else back
        for c in PEERS[cell]:
            if c not in cells and cands[c] & bit:
                target.add((c, d))
    elims = tuple(sorted(forw & back))
    return _Hint(name, base, _ancestors(dst_on), sort_key, elims, None, tuple(sorted(cells)))


def _forcing_chain(
    links: _StaticLinks,
    src_key: int,
    best: _Best,
    base: float,
    sort_key: int,
    name: str,
    cap: int,
) -> bool:
    """Search from one potential (on or off) until it implies its own negation; True
    when the search was cut at ``cap`` (see :func:`_cycles`)."""
    cands = links.cands
    src: Node = (src_key, (), NO_CAUSE)
    target_key = src_key ^ 1
    to_on: dict[int, Node] = {}
    to_off: dict[int, Node] = {}
    p: Node
    node: Node
    pending_on: list[Node]
    pending_off: list[Node]
    if src_key & 1:
        to_on[src_key] = src
        pending_on, pending_off = [src], []
    else:
        to_off[src_key] = src
        pending_on, pending_off = [], [src]
    depth = 0 if src_key & 1 else -1  # depth of the nodes in pending_on
    bound = best.max_complexity(base, sort_key)
    limit = min(bound, cap)
    while pending_on or pending_off:
        if pending_on:
            if depth + 2 > limit:
                return cap < bound
            new_off: list[Node] = []
            for p in pending_on:
                for off_key in links.on(p[0]):
                    if off_key == target_key:
                        _offer_forcing(cands, (off_key, (p,), NO_CAUSE), best, base, sort_key, name)
                        return False
                    if off_key not in to_off:
                        node = (off_key, (p,), NO_CAUSE)
                        to_off[off_key] = node
                        new_off.append(node)
            pending_off.extend(new_off)
            pending_on = []
        if depth + 3 > limit:
            return cap < bound
        new_on: list[Node] = []
        for p in pending_off:
            for on_key, cause in links.off(p[0]):
                node = (on_key, (p,), cause)
                if on_key == target_key:
                    _offer_forcing(cands, node, best, base, sort_key, name)
                    return False
                if on_key not in to_on:
                    to_on[on_key] = node
                    new_on.append(node)
        pending_off = []
        pending_on = new_on
        depth += 2
    return False


def _offer_forcing(
    cands: list[int], target: Node, best: _Best, base: float, sort_key: int, name: str
) -> None:
    elims, placement = _on_target(cands, target[0])
    cell = (target[0] >> 1) // 9
    best.offer(_Hint(name, base, _ancestors(target), sort_key, elims, placement, (cell,)))


#: The depths at which :func:`cycles_and_forcing_chains` cuts its searches, round after
#: round: most hints are short, and once one is known the others are bounded by it.
_CAPS = (6, 10, 16, 1 << 30)


def cycles_and_forcing_chains(state: State, deadline: float | None = None) -> Iterator[SEStep]:
    """SE's first chaining producer: the best bidirectional cycle or forcing chain.

    SE collects X-cycles and forcing X-chains, then Y-cycles, then XY-cycles and forcing
    XY-chains, and takes the one with the lowest (rating, complexity, kind); only that one
    is computed here, pruning searches that can no longer beat it. The searches run in
    rounds of growing depth (iterative deepening): a search cut at one round's depth
    runs again, deeper, in the next, until the best hint can no longer be beaten. A
    hint found in a later round is longer than every search depth of the earlier ones,
    so the order of discovery among equals is SE's.
    """
    cands = state.cands
    best = _Best()
    # (links, source key, kind (0 cycle, 1 forcing chain), base, sort key, chain name)
    searches: list[tuple[_StaticLinks, int, int, float, int, str]] = []
    for y, x in ((False, True), (True, False), (True, True)):
        if y and x:
            base_cycle, base_chain, sort_key = 7.0, 7.0, 4
        elif y:
            base_cycle, base_chain, sort_key = 6.5, 0.0, 3
        else:
            base_cycle, base_chain, sort_key = 6.5, 6.6, 2
        links = _StaticLinks(cands, y, x)
        chain_name = "Forcing Chain" if y else "Forcing X-Chain"
        for cell in range(81):
            m = cands[cell]
            n = POPCOUNT[m]
            if n < 2 or (not x and n > 2):
                continue
            for d in DIGITS[m]:
                on_key = ((cell * 9 + d - 1) << 1) | 1
                searches.append((links, on_key, 0, base_cycle, sort_key, ""))
                if x:
                    searches.append((links, on_key, 1, base_chain, sort_key, chain_name))
                    searches.append((links, on_key ^ 1, 1, base_chain, sort_key, chain_name))
    for cap in _CAPS:
        again = []
        for i, (links, key, kind, base, sort_key, name) in enumerate(searches):
            if not i & 15 and deadline is not None and time.process_time() > deadline:
                raise ChainBudgetExceeded
            if best.hint is not None and best.hint.rank() < (base, 0, sort_key):
                continue
            if kind == 0:
                cut = _cycles(links, key, best, base, sort_key, cap)
            else:
                cut = _forcing_chain(links, key, best, base, sort_key, name, cap)
            if cut:
                again.append(searches[i])
        if not again:
            break
        searches = again
    if best.hint is not None:
        yield best.hint.step()


# -- every static hint, for nested chains ----------------------------------------------


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


# -- multiple, dynamic and Nishio chains ------------------------------------------------

Advanced = Callable[[list[int], list[int], dict[int, Node]], list[Node]]


def _do_chaining(
    cands: list[int],
    to_on: dict[int, Node],
    to_off: dict[int, Node],
    dynamic: bool,
    y: bool,
    advanced: Advanced | None,
) -> tuple[Node, Node] | None:
    """Complete ``to_on``/``to_off`` with everything they imply; in dynamic mode every
    removal is carried out on a copy of the grid as it is derived, so that later
    singles can use it. Returns the first (on, off) pair of one candidate, if any."""
    grid = list(cands) if dynamic else cands
    source = cands if dynamic else None
    pending_on = deque(to_on.values())
    pending_off = deque(to_off.values())
    p: Node
    node: Node
    while True:
        if pending_on:
            p = pending_on.popleft()
            for off_key in _on_to_off(grid, p[0], y):
                conj = off_key | 1
                if conj in to_on:
                    return to_on[conj], (off_key, (p,), NO_CAUSE)
                if off_key not in to_off:
                    node = (off_key, (p,), NO_CAUSE)
                    to_off[off_key] = node
                    pending_off.append(node)
            continue
        if pending_off:
            p = pending_off.popleft()
            key = p[0]
            made = _off_to_on(grid, source, key, y, True, to_off, p)
            if dynamic:
                cd = key >> 1
                grid[cd // 9] &= ~(1 << (cd % 9))
            for node in made:
                on_key = node[0]
                conj = on_key & ~1
                if conj in to_off:
                    return node, to_off[conj]
                if on_key not in to_on:
                    to_on[on_key] = node
                    pending_on.append(node)
            continue
        if advanced is not None:
            extra = [n for n in advanced(grid, cands, to_off) if n[0] not in to_off]
            if extra:
                for n in extra:
                    if n[0] not in to_off:
                        to_off[n[0]] = n
                        pending_off.append(n)
                continue
        return None


def _static_chaining(
    tables: _Tables, to_on: dict[int, Node], to_off: dict[int, Node]
) -> tuple[Node, Node] | None:
    """:func:`_do_chaining` on a grid that does not change (no dynamic removals, no
    advanced rules), reading the grid's implications from :func:`_static_tables`: the
    same nodes, parents and causes, in the same order."""
    on_off, off_on = tables
    pending_on = deque(to_on.values())
    pending_off = deque(to_off.values())
    p: Node
    node: Node
    while True:
        if pending_on:
            p = pending_on.popleft()
            for off_key in on_off[p[0]]:
                conj = off_key | 1
                if conj in to_on:
                    return to_on[conj], (off_key, (p,), NO_CAUSE)
                if off_key not in to_off:
                    node = (off_key, (p,), NO_CAUSE)
                    to_off[off_key] = node
                    pending_off.append(node)
            continue
        if pending_off:
            p = pending_off.popleft()
            for on_key, cause in off_on[p[0]]:
                node = (on_key, (p,), cause)
                conj = on_key & ~1
                if conj in to_off:
                    return node, to_off[conj]
                if on_key not in to_on:
                    to_on[on_key] = node
                    pending_on.append(node)
            continue
        return None


#: A search of one rule that a dynamic chain "+" applies on the chain's grid.
PlusRule = Callable[[State], Iterator[SEStep]]

#: The rules a dynamic chain "+" also applies, in SE's order: pointing and claiming,
#: hidden pairs, naked pairs, X-wings (the Python searches, the reference;
#: :mod:`.native` passes its C twins, which yield the same hints).
PLUS_RULES: tuple[PlusRule, ...] = (
    basic.locking,
    lambda s: basic.hidden_sets(s, 2),
    lambda s: basic.naked_sets(s, 2),
    lambda s: basic.fish(s, 2),
)


def _rule_parents(step: SEStep, grid: list[int], source: list[int]) -> list[int]:
    """The off keys of the candidates that the chain removed and that ``step`` needs
    gone (SE's "rule parents"): empty when the pattern was there before the chain."""
    out: list[int] = []
    if step.technique in ("Pointing", "Claiming", "X-Wing"):
        d = step.eliminations[0][1]
        bit = BIT[d]
        k = len(step.regions) // 2
        cover: set[int] = set()
        for r in step.regions[k:]:
            cover.update(REGIONS[r])
        for r in step.regions[:k]:
            for c in REGIONS[r]:
                if source[c] & bit and not grid[c] & bit and c not in cover:
                    out.append((c * 9 + d - 1) << 1)
        return out
    cells = step.cells
    values = 0
    for c in cells:
        values |= grid[c]
    if step.technique == "Hidden Pair":
        for _, d in step.eliminations:
            values &= ~BIT[d]
        inside = set(cells)
        for c in REGIONS[step.regions[0]]:
            if c not in inside:
                for d in DIGITS[source[c] & values]:
                    out.append((c * 9 + d - 1) << 1)
    else:  # a naked pair
        for c in cells:
            for d in DIGITS[source[c] & ~values]:
                out.append((c * 9 + d - 1) << 1)
    return out


def _plus_advanced(values: list[int], rules: tuple[PlusRule, ...] = PLUS_RULES) -> Advanced:
    """The extra implications of a dynamic chain "+": the removals of the first of
    ``rules`` (:data:`PLUS_RULES`) that has a pattern resting on the chain's own
    removals, each with those removals as its parents."""

    def advanced(grid: list[int], source: list[int], to_off: dict[int, Node]) -> list[Node]:
        state = State(values, grid)
        for rule in rules:
            out: list[Node] = []
            for step in rule(state):
                keys = _rule_parents(step, grid, source)
                if not keys or any(k not in to_off for k in keys):
                    continue
                parents = tuple(to_off[k] for k in keys)
                for c, d in step.eliminations:
                    out.append((((c * 9 + d - 1) << 1), parents, NO_CAUSE))
            if out:
                return out
        return []

    return advanced


# -- nested chains ----------------------------------------------------------------------


def nested_suffix(level: int) -> str:
    """SE's name suffix of a nesting level."""
    if level == 1:
        return " (+)"
    if level == 2:
        return " (+ Forcing Chains)"
    if level == 3:
        return " (+ Multiple Forcing Chains)"
    if level == 4:
        return " (+ Dynamic Forcing Chains)"
    if level >= 5:
        return f" (+ Dynamic Forcing Chains{nested_suffix(level - 3)})"
    return ""


def _chain_rule_parents(hint: _Hint, source: list[int], grid: list[int]) -> list[int]:
    """SE's ``getRuleParents`` of a chain used inside another: the off keys of the
    candidates that the outer chain removed from a unit (a cell, or a region and digit)
    whose single an inner "on" potential rests on."""
    out: dict[int, None] = {}
    for target in hint.targets:
        seen: set[int] = set()
        todo = [target]
        while todo:
            nxt: list[Node] = []
            for n in todo:
                key = n[0]
                if key in seen:
                    continue
                seen.add(key)
                tag = n[2]
                if key & 1 and isinstance(tag, int):
                    cause = hint.root_cause if tag == NO_CAUSE else tag
                    if cause == NAKED:
                        cell = (key >> 1) // 9
                        base = cell * 18
                        for d in DIGITS[source[cell] & ~grid[cell]]:
                            out[base + ((d - 1) << 1)] = None
                    elif cause >= 0:
                        d0 = (key >> 1) % 9
                        bit = 1 << d0
                        for c in REGIONS[cause]:
                            if source[c] & bit and not grid[c] & bit:
                                out[(c * 9 + d0) << 1] = None
                nxt.extend(n[1])
            todo = nxt
    return list(out)


#: The hints an inner chaining rule found on a grid, with their rule parents, per
#: (rule, puzzle state, chain's grid): the dynamic chains of one step reach the same
#: grid again and again (the two sides of a bivalue cell, the cell and region forcing
#: chains of one candidate, the same chains again one nesting level up). Only the hints
#: with rule parents are kept, the others never count. A dynamic rule's hints hold whole
#: chain graphs, so its table is kept smaller (entries per rule: _INNER_SIZE[rule > 1]).
_InnerKey = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
_INNER: dict[int, dict[_InnerKey, list[tuple[_Hint, list[int]]]]] = {}
_INNER_SIZE = (2048, 256)


def _inner_results(
    rule: int,
    compute: Callable[[list[int]], list[_Hint]],
    values: tuple[int, ...],
    source: list[int],
    grid: list[int],
) -> list[tuple[_Hint, list[int]]]:
    """The hints of nested rule ``rule`` on ``grid`` that rest on removals from
    ``source``, with those removals (cached, see :data:`_INNER`)."""
    table = _INNER.setdefault(rule, {})
    key = (values, tuple(source), tuple(grid))
    got = table.get(key)
    if got is None:
        got = []
        for hint in compute(grid):
            parents = _chain_rule_parents(hint, source, grid)
            if parents:
                got.append((hint, parents))
        if len(table) >= _INNER_SIZE[rule > 1]:
            table.clear()
        table[key] = got
    return got


def _nested_advanced(
    values: list[int],
    level: int,
    deadline: float | None,
    rules: tuple[PlusRule, ...] = PLUS_RULES,
) -> Advanced:
    """The extra implications of a dynamic chain of nesting ``level`` >= 2 (SE's
    ``getAdvancedPotentials``): those of "+", then, if none, the removals of the first
    of the nested chaining rules that has hints resting on the chain's own removals:
    level 2 forcing chains and cycles, 3 also multiple forcing chains, 4 dynamic forcing
    chains, 5 those and dynamic forcing chains of level 2. Each removal has the rule
    parents as its parents and the nested hint as its tag."""
    plus = _plus_advanced(values, rules)
    nested: list[tuple[int, Callable[[list[int]], list[_Hint]]]] = []
    if level < 4:
        nested.append((0, lambda g: _static_all(g, deadline)))
        if level >= 3:
            mfc = _Multiple(False, True, False, 0, None)
            nested.append((1, lambda g: mfc.all_hints(g, deadline)))
    else:
        dfc = _Multiple(False, True, True, 0, None)
        nested.append((2, lambda g: dfc.all_hints(g, deadline)))
        if level >= 5:
            inner = level - 3
            deeper = _Multiple(
                False, True, True, inner, _nested_advanced(values, inner, deadline, rules)
            )
            nested.append((2 + inner, lambda g: deeper.all_hints(g, deadline)))
    vkey = tuple(values)

    def advanced(grid: list[int], source: list[int], to_off: dict[int, Node]) -> list[Node]:
        out = plus(grid, source, to_off)
        if out:
            return out
        for rule, compute in nested:
            found = _inner_results(rule, compute, vkey, source, grid)
            for hint, keys in found:
                if any(k not in to_off for k in keys):
                    continue
                parents = tuple(to_off[k] for k in keys)
                for c, d in hint.elims:
                    out.append((((c * 9 + d - 1) << 1), parents, hint))
            if out:
                return out
        return []

    return advanced


class _Multiple:
    """One of SE's multiple-chain producers (Nishio, multiple, dynamic, dynamic+)."""

    def __init__(
        self, nishio: bool, multiple: bool, dynamic: bool, level: int, advanced: Advanced | None
    ) -> None:
        self.nishio = nishio
        self.multiple = multiple
        self.dynamic = dynamic
        self.level = level
        self.advanced = advanced
        # The implications of the grid of the current :meth:`hints` call when the
        # producer is static: its hundreds of chains walk the same ones.
        self._tables: _Tables | None = None
        if level > 0:
            self.base = 8.5 + 0.5 * level
            self.prefix = "Dynamic "
            self.suffix = nested_suffix(level)
        elif nishio:
            self.base, self.prefix, self.suffix = 7.5, "Nishio ", ""
        elif dynamic:
            self.base, self.prefix, self.suffix = 8.5, "Dynamic ", ""
        else:
            self.base, self.prefix, self.suffix = 8.0, "", ""

    def chain(
        self, cands: list[int], to_on: dict[int, Node], to_off: dict[int, Node]
    ) -> tuple[Node, Node] | None:
        if self._tables is not None:
            return _static_chaining(self._tables, to_on, to_off)
        return _do_chaining(cands, to_on, to_off, self.dynamic, not self.nishio, self.advanced)

    def all_hints(self, cands: list[int], deadline: float | None) -> list[_Hint]:
        """Every hint on ``cands``, in SE's order, one per set of removals (what an
        outer chain nests)."""
        return _sorted_unique(self.hints(cands, deadline))

    def hints(self, cands: list[int], deadline: float | None) -> list[_Hint]:
        static = not self.dynamic and self.advanced is None
        self._tables = _static_tables(cands, not self.nishio, True) if static else None
        try:
            return self._hints(cands, deadline)
        finally:
            self._tables = None

    def _hints(self, cands: list[int], deadline: float | None) -> list[_Hint]:
        out: list[_Hint] = []
        for cell in range(81):
            n = POPCOUNT[cands[cell]]
            if n > 2 or (n > 1 and self.dynamic):
                if deadline is not None and time.process_time() > deadline:
                    raise ChainBudgetExceeded
                self._cell(cands, cell, n, out)
        return out

    def _hint(
        self,
        kind: str,
        targets: tuple[Node, ...],
        sort_key: int,
        key: int,
        cands: list[int],
        cells: tuple[int, ...],
        root_cause: int = NO_CAUSE,
    ) -> _Hint:
        elims, placement = _on_target(cands, key)
        name = f"{self.prefix}{kind}{self.suffix}"
        return _Hint(
            name,
            self.base,
            _complexity(targets),
            sort_key,
            elims,
            placement,
            cells,
            targets,
            root_cause,
        )

    def _cell(self, cands: list[int], cell: int, n: int, out: list[_Hint]) -> None:
        value_on: dict[int, dict[int, Node]] = {}
        value_off: dict[int, dict[int, Node]] = {}
        cell_on: dict[int, Node] | None = None
        cell_off: dict[int, Node] | None = None
        do_double = n >= 3 and not self.nishio and self.dynamic
        do_contradiction = self.dynamic or self.nishio
        for d in DIGITS[cands[cell]]:
            on_key = ((cell * 9 + d - 1) << 1) | 1
            off_key = on_key ^ 1
            on_to_on: dict[int, Node] = {on_key: (on_key, (), NO_CAUSE)}
            on_to_off: dict[int, Node] = {}
            absurd = self.chain(cands, on_to_on, on_to_off)
            if do_contradiction and absurd is not None:
                h = self._hint("Contradiction Forcing Chain", absurd, 7, off_key, cands, (cell,))
                if self.nishio:
                    h.name = f"{self.prefix}Forcing Chain{self.suffix}"
                out.append(h)
            if do_contradiction or do_double:
                off_to_on: dict[int, Node] = {}
                off_to_off: dict[int, Node] = {off_key: (off_key, (), NO_CAUSE)}
                absurd = self.chain(cands, off_to_on, off_to_off)
                if do_contradiction and absurd is not None:
                    h = self._hint("Contradiction Forcing Chain", absurd, 7, on_key, cands, (cell,))
                    if self.nishio:
                        h.name = f"{self.prefix}Forcing Chain{self.suffix}"
                    out.append(h)
                if do_double:
                    for k, node in on_to_on.items():
                        other = off_to_on.get(k)
                        if other is not None:
                            h = self._hint(
                                "Double Forcing Chain", (node, other), 1, k, cands, (cell,)
                            )
                            if h.elims:
                                out.append(h)
                    for k, node in on_to_off.items():
                        other = off_to_off.get(k)
                        if other is not None:
                            out.append(
                                self._hint(
                                    "Double Forcing Chain", (node, other), 1, k, cands, (cell,)
                                )
                            )
            if not self.nishio:
                self._regions(cands, cell, d, on_to_on, on_to_off, out)
            value_on[d] = on_to_on
            value_off[d] = on_to_off
            if cell_on is None:
                cell_on = dict(on_to_on)
                cell_off = dict(on_to_off)
            else:
                cell_on = {k: v for k, v in cell_on.items() if k in on_to_on}
                assert cell_off is not None
                cell_off = {k: v for k, v in cell_off.items() if k in on_to_off}
        if self.nishio or cell_on is None or cell_off is None:
            return
        if n == 2 or (self.multiple and n > 2):
            for table, outcomes in ((cell_on, value_on), (cell_off, value_off)):
                for k in table:
                    ends = tuple(outcomes[d][k] for d in DIGITS[cands[cell]])
                    h = self._hint("Cell Forcing Chain", ends, 5, k, cands, (cell,), NAKED)
                    if h.elims:
                        out.append(h)

    def _regions(
        self,
        cands: list[int],
        cell: int,
        d: int,
        on_to_on: dict[int, Node],
        on_to_off: dict[int, Node],
        out: list[_Hint],
    ) -> None:
        bit = BIT[d]
        for r in CELL_REGIONS[cell]:
            positions = [c for c in REGIONS[r] if cands[c] & bit]
            n = len(positions)
            if not (n == 2 or (self.multiple and n > 2)) or positions[0] != cell:
                continue
            pos_on: list[dict[int, Node]] = []
            pos_off: list[dict[int, Node]] = []
            region_on: dict[int, Node] = dict(on_to_on)
            region_off: dict[int, Node] = dict(on_to_off)
            pos_on.append(on_to_on)
            pos_off.append(on_to_off)
            for other in positions[1:]:
                key = ((other * 9 + d - 1) << 1) | 1
                other_on: dict[int, Node] = {key: (key, (), NO_CAUSE)}
                other_off: dict[int, Node] = {}
                self.chain(cands, other_on, other_off)
                pos_on.append(other_on)
                pos_off.append(other_off)
                region_on = {k: v for k, v in region_on.items() if k in other_on}
                region_off = {k: v for k, v in region_off.items() if k in other_off}
            for table, outcomes in ((region_on, pos_on), (region_off, pos_off)):
                for k in table:
                    ends = tuple(o[k] for o in outcomes)
                    h = self._hint("Region Forcing Chain", ends, 6, k, cands, tuple(positions), r)
                    if h.elims:
                        out.append(h)


def multiple_chains(
    state: State,
    *,
    nishio: bool = False,
    multiple: bool = False,
    dynamic: bool = False,
    level: int = 0,
    advanced: Advanced | None = None,
    deadline: float | None = None,
    plus_rules: tuple[PlusRule, ...] = PLUS_RULES,
) -> Iterator[SEStep]:
    """The best hint of one of SE's multiple-chain producers (SE sorts its hints by
    rating, complexity and kind, keeping discovery order among equals). ``plus_rules``
    are the searches that a dynamic chain "+" (``level`` >= 1) applies on its grid
    (:data:`PLUS_RULES`, or their C twins from :mod:`.native`).

    Raises :class:`ChainBudgetExceeded` when the CPU clock passes ``deadline``."""
    if level == 1 and advanced is None:
        advanced = _plus_advanced(state.values, plus_rules)
    elif level >= 2 and advanced is None:
        advanced = _nested_advanced(state.values, level, deadline, plus_rules)
    producer = _Multiple(nishio, multiple, dynamic, level, advanced)
    hints = producer.hints(state.cands, deadline)
    if hints:
        best = min(range(len(hints)), key=lambda i: (hints[i].rank(), i))
        yield hints[best].step()
