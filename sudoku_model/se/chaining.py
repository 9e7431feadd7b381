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

from . import basic
from .state import BIT, CELL_REGIONS, DIGITS, PEERS, POPCOUNT, REGIONS, State
from .steps import SEStep

__all__ = [
    "length_addition",
    "cycles_and_forcing_chains",
    "multiple_chains",
    "ChainBudgetExceeded",
]

Node = tuple[int, tuple["Node", ...]]


class ChainBudgetExceeded(Exception):
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
            out.append((on_key, parents))
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
                out.append((on_key, parents))
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


def _key_cell_digit(key: int) -> tuple[int, int]:
    cell, d0 = divmod(key >> 1, 9)
    return cell, d0 + 1


# -- hints ------------------------------------------------------------------------------


class _Hint:
    __slots__ = ("name", "difficulty", "complexity", "sort_key", "elims", "placement", "cells")

    def __init__(
        self,
        name: str,
        base: float,
        complexity: int,
        sort_key: int,
        elims: tuple[tuple[int, int], ...],
        placement: tuple[int, int] | None,
        cells: tuple[int, ...],
    ) -> None:
        self.name = name
        self.difficulty = base + length_addition(complexity)
        self.complexity = complexity
        self.sort_key = sort_key
        self.elims = elims
        self.placement = placement
        self.cells = cells

    def rank(self) -> tuple[float, int, int]:
        return (self.difficulty, self.complexity, self.sort_key)

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
        self.off_on: dict[int, list[int]] = {}

    def on(self, key: int) -> list[int]:
        """The off keys that the on potential ``key`` implies, in SE's order."""
        got = self.on_off.get(key)
        if got is None:
            got = self.on_off[key] = _on_to_off(self.cands, key, self.y)
        return got

    def off(self, key: int) -> list[int]:
        """The on keys that the off potential ``key`` implies, in SE's order."""
        got = self.off_on.get(key)
        if got is None:
            made = _off_to_on(self.cands, None, key, self.y, self.x, {}, (key, ()))
            got = self.off_on[key] = [n[0] for n in made]
        return got


def _cycles(
    links: _StaticLinks, src_key: int, best: _Best, base: float, sort_key: int, cap: int
) -> bool:
    """Search the bidirectional cycles through ``src_key``; True when the search was cut
    at ``cap`` (and not by the best hint so far), so that a deeper one may find more."""
    cands = links.cands
    src: Node = (src_key, ())
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
                    new_off.append(((off_key, (p,)), path | 1 << off_key))
        pending_off = new_off
        length += 1
        if length > limit:
            return cap < bound
        new_on: list[tuple[Node, int]] = []
        found = False
        for p, path in pending_off:
            for on_key in links.off(p[0]):
                node = (on_key, (p,))
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
    src: Node = (src_key, ())
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
                        _offer_forcing(cands, (off_key, (p,)), best, base, sort_key, name)
                        return False
                    if off_key not in to_off:
                        node = (off_key, (p,))
                        to_off[off_key] = node
                        new_off.append(node)
            pending_off.extend(new_off)
            pending_on = []
        if depth + 3 > limit:
            return cap < bound
        new_on: list[Node] = []
        for p in pending_off:
            for on_key in links.off(p[0]):
                node = (on_key, (p,))
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
                    return to_on[conj], (off_key, (p,))
                if off_key not in to_off:
                    node = (off_key, (p,))
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


def _plus_rules(state: State) -> Iterator[Iterator[SEStep]]:
    """The rules a dynamic chain "+" also applies, in SE's order: pointing and
    claiming, hidden pairs, naked pairs, X-wings."""
    yield basic.locking(state)
    yield basic.hidden_sets(state, 2)
    yield basic.naked_sets(state, 2)
    yield basic.fish(state, 2)


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


def _plus_advanced(values: list[int]) -> Advanced:
    """The extra implications of a dynamic chain "+": the removals of the first of
    :func:`_plus_rules` that has a pattern resting on the chain's own removals, each
    with those removals as its parents."""

    def advanced(grid: list[int], source: list[int], to_off: dict[int, Node]) -> list[Node]:
        state = State(values, grid)
        for hints in _plus_rules(state):
            out: list[Node] = []
            for step in hints:
                keys = _rule_parents(step, grid, source)
                if not keys or any(k not in to_off for k in keys):
                    continue
                parents = tuple(to_off[k] for k in keys)
                for c, d in step.eliminations:
                    out.append((((c * 9 + d - 1) << 1), parents))
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
        if level > 0:
            self.base = 8.5 + 0.5 * level
            self.prefix = "Dynamic "
            self.suffix = " (+)" if level == 1 else f" (+{level})"
        elif nishio:
            self.base, self.prefix, self.suffix = 7.5, "Nishio ", ""
        elif dynamic:
            self.base, self.prefix, self.suffix = 8.5, "Dynamic ", ""
        else:
            self.base, self.prefix, self.suffix = 8.0, "", ""

    def chain(
        self, cands: list[int], to_on: dict[int, Node], to_off: dict[int, Node]
    ) -> tuple[Node, Node] | None:
        return _do_chaining(cands, to_on, to_off, self.dynamic, not self.nishio, self.advanced)

    def hints(self, state: State, deadline: float | None) -> list[_Hint]:
        cands = state.cands
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
        complexity: int,
        sort_key: int,
        key: int,
        cands: list[int],
        cells: tuple[int, ...],
    ) -> _Hint:
        elims, placement = _on_target(cands, key)
        name = f"{self.prefix}{kind}{self.suffix}"
        return _Hint(name, self.base, complexity, sort_key, elims, placement, cells)

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
            on_to_on: dict[int, Node] = {on_key: (on_key, ())}
            on_to_off: dict[int, Node] = {}
            absurd = self.chain(cands, on_to_on, on_to_off)
            if do_contradiction and absurd is not None:
                cx = _ancestors(absurd[0]) + _ancestors(absurd[1])
                h = self._hint("Contradiction Forcing Chain", cx, 7, off_key, cands, (cell,))
                if self.nishio:
                    h.name = f"{self.prefix}Forcing Chain{self.suffix}"
                out.append(h)
            if do_contradiction or do_double:
                off_to_on: dict[int, Node] = {}
                off_to_off: dict[int, Node] = {off_key: (off_key, ())}
                absurd = self.chain(cands, off_to_on, off_to_off)
                if do_contradiction and absurd is not None:
                    cx = _ancestors(absurd[0]) + _ancestors(absurd[1])
                    h = self._hint("Contradiction Forcing Chain", cx, 7, on_key, cands, (cell,))
                    if self.nishio:
                        h.name = f"{self.prefix}Forcing Chain{self.suffix}"
                    out.append(h)
                if do_double:
                    for k, node in on_to_on.items():
                        other = off_to_on.get(k)
                        if other is not None:
                            cx = _ancestors(node) + _ancestors(other)
                            h = self._hint("Double Forcing Chain", cx, 1, k, cands, (cell,))
                            if h.elims:
                                out.append(h)
                    for k, node in on_to_off.items():
                        other = off_to_off.get(k)
                        if other is not None:
                            cx = _ancestors(node) + _ancestors(other)
                            out.append(self._hint("Double Forcing Chain", cx, 1, k, cands, (cell,)))
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
                    cx = sum(_ancestors(outcomes[d][k]) for d in DIGITS[cands[cell]])
                    h = self._hint("Cell Forcing Chain", cx, 5, k, cands, (cell,))
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
                other_on: dict[int, Node] = {key: (key, ())}
                other_off: dict[int, Node] = {}
                self.chain(cands, other_on, other_off)
                pos_on.append(other_on)
                pos_off.append(other_off)
                region_on = {k: v for k, v in region_on.items() if k in other_on}
                region_off = {k: v for k, v in region_off.items() if k in other_off}
            for table, outcomes in ((region_on, pos_on), (region_off, pos_off)):
                for k in table:
                    cx = sum(_ancestors(o[k]) for o in outcomes)
                    h = self._hint("Region Forcing Chain", cx, 6, k, cands, tuple(positions))
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
) -> Iterator[SEStep]:
    """The best hint of one of SE's multiple-chain producers (SE sorts its hints by
    rating, complexity and kind, keeping discovery order among equals)."""
    if level == 1 and advanced is None:
        advanced = _plus_advanced(state.values)
    producer = _Multiple(nishio, multiple, dynamic, level, advanced)
    hints = producer.hints(state, deadline)
    if hints:
        best = min(range(len(hints)), key=lambda i: (hints[i].rank(), i))
        yield hints[best].step()
