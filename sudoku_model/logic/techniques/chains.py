"""Chains: simple colouring and X-chains (one digit), XY-chains (bivalue cells).

A *strong link* on digit d joins the only two cells of a unit of n cells that can hold d:
one of them is d. A *weak link* joins two peers that can both hold d: at most one is d.
"Peer" includes Different pairs (anti-knight, anti-king), so all three work for every
unit-based variant.

* Simple colouring: colour each group of cells joined by strong links with two colours;
  one colour is all d. If two cells of one colour see each other, that colour is false
  (*colour wrap*); a cell seeing both colours is not d (*colour trap*).
* X-chain: strong - weak - strong ... - strong from s to e (at least three links): if s is
  not d then e is, so a cell seeing both s and e is not d.
* XY-chain: bivalue cells, each sharing a digit with the next: if the first cell is not z
  the last one is z, so a cell seeing both ends is not z.
"""

from __future__ import annotations

from collections import deque

from ..engine import CandidateGrid
from ..steps import Step, elimination_text
from ..tables import BIT_DIGIT

__all__ = ["simple_colouring", "x_chain", "xy_chain"]


def _strong_links(grid: CandidateGrid, bit: int) -> dict[int, list[int]]:
    t = grid.tables
    cands = grid.cands
    links: dict[int, list[int]] = {}
    for u, unit in enumerate(t.units):
        if not t.unit_full[u]:
            continue
        first = second = -1
        count = 0
        for c in unit:
            if cands[c] & bit:
                count += 1
                if count == 1:
                    first = c
                elif count == 2:
                    second = c
                else:
                    break
        if count == 2:
            links.setdefault(first, []).append(second)
            links.setdefault(second, []).append(first)
    return links


def simple_colouring(grid: CandidateGrid) -> Step | None:
    """Colour wrap or colour trap on one digit's strong links."""
    t = grid.tables
    cands = grid.cands
    peer_sets = t.peer_sets
    names = t.cell_names
    for d in range(1, t.n + 1):
        bit = 1 << (d - 1)
        links = _strong_links(grid, bit)
        seen: set[int] = set()
        for root in sorted(links):
            if root in seen:
                continue
            colour = {root: 0}
            todo = [root]
            while todo:
                c = todo.pop()
                for o in links[c]:
                    if o not in colour:
                        colour[o] = 1 - colour[c]
                        todo.append(o)
            seen.update(colour)
            if len(colour) < 3:
                continue  # a lone conjugate pair is locked candidates, not colouring
            groups = ([c for c in colour if colour[c] == 0], [c for c in colour if colour[c] == 1])
            groups[0].sort()
            groups[1].sort()
            described = f"{{{t.cells_text(groups[0])}}} against {{{t.cells_text(groups[1])}}}"
            for k in (0, 1):
                group = groups[k]
                clash = next(
                    (
                        (a, b)
                        for i, a in enumerate(group)
                        for b in group[i + 1 :]
                        if b in peer_sets[a]
                    ),
                    None,
                )
                if clash:
                    elims = [(c, d) for c in group]
                    text = (
                        f"simple colouring on {d}: colours {described}; "
                        f"{names[clash[0]]} and {names[clash[1]]} share a colour and see "
                        f"each other, so that colour is not {d}: "
                        f"{elimination_text(t, elims)}"
                    )
                    return Step(
                        "simple_colouring", (), tuple(elims), tuple(sorted(colour)), (), (d,), text
                    )
            elims = []
            for c in range(t.cell_count):
                if cands[c] & bit and c not in colour:
                    ps = peer_sets[c]
                    if any(a in ps for a in groups[0]) and any(b in ps for b in groups[1]):
                        elims.append((c, d))
            if elims:
                text = (
                    f"simple colouring on {d}: colours {described}; one colour is {d}, "
                    f"and these cells see both: {elimination_text(t, elims)}"
                )
                return Step(
                    "simple_colouring", (), tuple(elims), tuple(sorted(colour)), (), (d,), text
                )
    return None


def x_chain(grid: CandidateGrid) -> Step | None:
    """The shortest single-digit alternating chain that removes a candidate."""
    t = grid.tables
    cands = grid.cands
    peer_sets = t.peer_sets
    peers = t.peers
    names = t.cell_names
    for d in range(1, t.n + 1):
        bit = 1 << (d - 1)
        links = _strong_links(grid, bit)
        if len(links) < 4:
            continue
        holders = [c for c in range(t.cell_count) if cands[c] & bit]
        for start in sorted(links):
            # Node (cell, on): on means "cell is d", reached assuming start is not d.
            parent: dict[tuple[int, bool], tuple[int, bool] | None] = {(start, False): None}
            depth = {(start, False): 0}
            todo = deque([(start, False)])
            while todo:
                node = todo.popleft()
                cell, on = node
                if on:
                    nxt = [(p, False) for p in peers[cell] if cands[p] & bit]
                else:
                    nxt = [(o, True) for o in links.get(cell, ())]
                for child in nxt:
                    if child in parent or child[0] == start:
                        continue
                    parent[child] = node
                    depth[child] = depth[node] + 1
                    if child[1] and depth[child] >= 3:
                        end = child[0]
                        both = peer_sets[start] & peer_sets[end]
                        elims = [(c, d) for c in holders if c in both and c != start and c != end]
                        if elims:
                            chain = []
                            walk: tuple[int, bool] | None = child
                            while walk is not None:
                                chain.append(walk[0])
                                walk = parent[walk]
                            chain.reverse()
                            text = (
                                f"X-chain on {d}: {_chain_text(names, chain)}; "
                                f"{names[start]} or {names[end]} is {d}: "
                                f"{elimination_text(t, elims)}"
                            )
                            return Step("x_chain", (), tuple(elims), tuple(chain), (), (d,), text)
                    todo.append(child)
    return None


def _chain_text(names: tuple[str, ...], chain: list[int]) -> str:
    # Links alternate strong (=) and weak (-), starting and ending strong.
    parts = [names[chain[0]]]
    for i, c in enumerate(chain[1:]):
        parts.append("=" if i % 2 == 0 else "-")
        parts.append(names[c])
    return " ".join(parts)


def xy_chain(grid: CandidateGrid) -> Step | None:
    """The shortest chain of bivalue cells that removes a candidate."""
    t = grid.tables
    cands = grid.cands
    peer_sets = t.peer_sets
    names = t.cell_names
    bivalue = [c for c in range(t.cell_count) if cands[c].bit_count() == 2]
    if len(bivalue) < 3:
        return None
    bivalue_peers = {c: [p for p in bivalue if p in peer_sets[c]] for c in bivalue}
    for start in bivalue:
        sm = cands[start]
        for zbit in (sm & -sm, sm & (sm - 1)):
            z = BIT_DIGIT[zbit]
            holders = [c for c in range(t.cell_count) if cands[c] & zbit]
            # Node (cell, bit): the cell holds that digit when start is not z.
            first = (start, sm & ~zbit)
            parent: dict[tuple[int, int], tuple[int, int] | None] = {first: None}
            depth = {first: 0}
            todo = deque([first])
            while todo:
                node = todo.popleft()
                cell, value = node
                for p in bivalue_peers[cell]:
                    pm = cands[p]
                    if not pm & value or p == start:
                        continue
                    child = (p, pm & ~value)
                    if child in parent:
                        continue
                    parent[child] = node
                    depth[child] = depth[node] + 1
                    if child[1] == zbit and depth[child] >= 2:
                        both = peer_sets[start] & peer_sets[p]
                        elims = [(c, z) for c in holders if c in both]
                        if elims:
                            chain = []
                            walk: tuple[int, int] | None = child
                            while walk is not None:
                                chain.append(walk[0])
                                walk = parent[walk]
                            chain.reverse()
                            cells_text = " - ".join(
                                f"{names[c]} {{{_digits_text(cands[c])}}}" for c in chain
                            )
                            text = (
                                f"XY-chain: {cells_text}; {names[start]} or {names[p]} "
                                f"is {z}: {elimination_text(t, elims)}"
                            )
                            return Step("xy_chain", (), tuple(elims), tuple(chain), (), (z,), text)
                    todo.append(child)
    return None


def _digits_text(mask: int) -> str:
    return ",".join(str(BIT_DIGIT[b]) for b in _bits(mask))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out
