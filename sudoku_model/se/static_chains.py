"""Sudoku Explainer's first chaining producer, on the static grid: bidirectional X-, Y-
and XY-cycles and forcing X- and XY-chains. :func:`cycles_and_forcing_chains` finds the
best hint only (iterative deepening, pruned by the best so far). The product runs its C
twin (:func:`sudoku_model.se.native.cycles_and_forcing_chains`), and this search where
the C one outgrows its node pool."""

from __future__ import annotations

import time
from collections.abc import Iterator

from .potentials import (
    NO_CAUSE,
    ChainBudgetExceeded,
    Node,
    _ancestors,
    _Hint,
    _key_cell_digit,
    _off_to_on,
    _on_target,
    _on_to_off,
    length_addition,
)
from .state import BIT, DIGITS, PEERS, POPCOUNT, State
from .steps import SEStep


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
