"""Sudoku Explainer's multiple-chain producers in Python: Nishio forcing chains, multiple
(cell and region) forcing chains, dynamic forcing chains, and dynamic forcing chains of
nesting level 1 ("+", which also applies the intersections, pairs and X-wings a chain's
removals reveal) and above (which nest the chaining producers themselves).

The reference and test oracle of the C searches the product runs
(sudoku_model/se/se_dynamic_chains.c and se_nested.c through
sudoku_model.se.native.multiple_chains):
the same best hint, its rating, complexity, kind, eliminations and cells."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator

from sudoku_model.se.potentials import (
    NAKED,
    NO_CAUSE,
    ChainBudgetExceeded,
    Node,
    _Hint,
    _off_to_on,
    _on_target,
    _on_to_off,
    nested_suffix,
)
from sudoku_model.se.state import BIT, CELL_REGIONS, DIGITS, POPCOUNT, REGIONS, State
from sudoku_model.se.steps import SEStep

from .static_all import _sorted_unique, _static_all, _static_tables, _Tables

Advanced = Callable[[list[int], list[int], dict[int, Node]], list[Node]]


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

# The rules a dynamic chain "+" also applies, in SE's order (pointing and claiming,
# hidden pairs, naked pairs, X-wings), come from the caller: the C searches of
# :data:`tests.se_reference.NATIVE_PLUS_RULES` (the C searches), the Python reference of
# tests/se_reference in the tests.


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


def _plus_advanced(values: list[int], rules: tuple[PlusRule, ...]) -> Advanced:
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
    rules: tuple[PlusRule, ...],
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
    plus_rules: tuple[PlusRule, ...] = (),
) -> Iterator[SEStep]:
    """The best hint of one of SE's multiple-chain producers (SE sorts its hints by
    rating, complexity and kind, keeping discovery order among equals). ``plus_rules``
    are the searches that a dynamic chain "+" (``level`` >= 1) applies on its grid
    (:data:`tests.se_reference.PLUS_RULES`).

    Raises :class:`ChainBudgetExceeded` when the CPU clock passes ``deadline``, and
    ValueError for ``level`` >= 1 without ``plus_rules``."""
    if level >= 1 and not plus_rules and advanced is None:
        raise ValueError("a dynamic chain '+' needs its plus_rules")
    if level == 1 and advanced is None:
        advanced = _plus_advanced(state.values, plus_rules)
    elif level >= 2 and advanced is None:
        advanced = _nested_advanced(state.values, level, deadline, plus_rules)
    producer = _Multiple(nishio, multiple, dynamic, level, advanced)
    hints = producer.hints(state.cands, deadline)
    if hints:
        best = min(range(len(hints)), key=lambda i: (hints[i].rank(), i))
        yield hints[best].step()
