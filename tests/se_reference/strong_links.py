"""SukakuExplainer's turbot fish (two strong links) and three strong links.

A strong link on a digit: a region whose candidate positions for the digit fall into two
groups, one of which must hold it. A group is one cell, or (a "grouped" link) the cells of
one line inside one box: a line whose candidates lie in two of its three box segments, or
a box whose candidates lie on the cross of one cell (its "heart") and avoid the other four
cells (an empty rectangle), or, for three links, a box whose candidates lie on two of its
rows (columns). Strong links chain when the end group of one and the start group of the
next lie in one region (a weak link): then the start group of the first link or the end
group of the last holds the digit, and it goes from every cell that sees both groups.

Ratings (SukakuExplainer 1.10, the late-2019 release): turbot fish 4.0 with two rows or
two columns (skyscraper), 4.1 with a row and a column (2-string kite), 4.2 with a box,
4.3 with a grouped link; three strong links 5.4 parallel lines, 5.5 with a box, 5.6 rows
and columns, 5.7 with a grouped link. The hints are sorted as SE sorts them (rating, then
more eliminations first, then its suffix, then discovery order), and SE's discovery order
is kept, because its first hint is the one the rater applies.

Where SE's own search admits a link that is not strong (a box whose cross heart holds the
digit beside two two-cell blades) we leave it out: every elimination here is sound. Its
three strong links also link the two one-cell blades of a box whose heart holds the digit
(a grouped link); that holds where the chain leaves the link through cells that see the
heart too (a blade cell false: the heart or the other blade cell holds the digit), and
only such chains are kept, their victims seeing the heart too.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from sudoku_model.se.state import BIT, CELL_REGIONS, PEER_SETS, REGION_SETS, REGIONS, State
from sudoku_model.se.steps import SEStep

__all__ = ["turbot_fish", "three_strong_links"]

#: Box position e (0-8) of the heart: (positions off its row and column, its column part
#: without it, its row part without it); e 9-14: (the empty line, the two other lines).
_BOX_CONFIGS: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...] = tuple(
    (
        tuple(i for i in range(9) if i // 3 != e // 3 and i % 3 != e % 3),
        tuple(i for i in range(9) if i % 3 == e % 3 and i != e),
        tuple(i for i in range(9) if i // 3 == e // 3 and i != e),
    )
    for e in range(9)
) + (
    ((6, 7, 8), (0, 1, 2), (3, 4, 5)),
    ((3, 4, 5), (0, 1, 2), (6, 7, 8)),
    ((0, 1, 2), (3, 4, 5), (6, 7, 8)),
    ((2, 5, 8), (0, 3, 6), (1, 4, 7)),
    ((1, 4, 7), (0, 3, 6), (2, 5, 8)),
    ((0, 3, 6), (1, 4, 7), (2, 5, 8)),
)
#: Line segment e empty: (its positions, the first other segment, the second).
_LINE_CONFIGS = (
    ((0, 1, 2), (3, 4, 5), (6, 7, 8)),
    ((3, 4, 5), (0, 1, 2), (6, 7, 8)),
    ((6, 7, 8), (0, 1, 2), (3, 4, 5)),
)

Group = tuple[int, ...]
#: (first group, second group, grouped?, heart) of one strong link, cells as positions in
#: the grid; heart: for a three-link box link between two one-cell blades, the heart cell
#: (it holds the digit too), else -1
Link = tuple[Group, Group, bool, int]


def _links(
    state: State, region: int, digit: int, *, three: bool
) -> tuple[list[Link], frozenset[int]]:
    """The strong links of ``digit`` in ``region``, in SE's order, and the candidate cells
    of the region (two links' regions may not share one)."""
    bit = BIT[digit]
    cells = REGIONS[region]
    cands = state.cands
    pos = [i for i in range(9) if cands[cells[i]] & bit]
    n = len(pos)
    box = region < 9
    found = frozenset(cells[i] for i in pos)
    if n < 2 or n > 6 or (box and n > 5 and not three):
        return [], found
    if n == 2:
        a, b = cells[pos[0]], cells[pos[1]]
        if three and box and (a // 9 == b // 9 or a % 9 == b % 9):
            return [], found
        return [((a,), (b,), False, -1)], found
    pset = set(pos)
    if box:
        configs = _BOX_CONFIGS[: 15 if three and n >= 4 else 9]
    else:
        configs = _LINE_CONFIGS
    for config, (empty, part1, part2) in enumerate(configs):
        if pset.isdisjoint(empty):
            e = config
            blade1 = [i for i in part1 if i in pset]
            blade2 = [i for i in part2 if i in pset]
            break
    else:
        return [], found
    if not blade1 or not blade2:
        return [], found
    heart_ok = box and e < 9
    links: list[Link] = []
    if len(blade1) == 1 or len(blade2) == 1:
        if three and len(blade1) == 1 and len(blade2) == 1:
            # both blades one cell, the heart holding the digit too: SE links the blades
            return [((cells[blade1[0]],), (cells[blade2[0]],), True, cells[e])], found
        for single, other in ((blade1, blade2), (blade2, blade1)):
            if len(single) != 1:
                continue
            # The other group is the line through the heart (in a box) or the other
            # segment: SE keeps the heart's position in it even when it has no candidate.
            group = tuple(sorted(cells[i] for i in other + ([e] if heart_ok else [])))
            links.append(((cells[single[0]],), group, True, -1))
        return links, found
    if heart_ok and e in pset:
        return [], found  # the heart is in neither blade: not a strong link
    g1 = tuple(cells[i] for i in blade1)
    g2 = tuple(cells[i] for i in blade2)
    links.append((g1, g2, True, -1))
    if three and box and e >= 9 and n == 4 and len(blade1) == 2 and len(blade2) == 2:
        a, b = blade1
        c, d = blade2
        if a % 3 == c % 3 and b % 3 == d % 3 or a // 3 == c // 3 and b // 3 == d // 3:
            links.append(((cells[a], cells[c]), (cells[b], cells[d]), True, -1))
    return links, found


def _side(link: Link, side: int) -> Group:
    return link[1] if side else link[0]


@functools.lru_cache(maxsize=1 << 16)
def _share_region(g1: Group, g2: Group) -> int | None:
    """The first region (column, row, box: SE's order) holding every cell of both groups."""
    both = g1 + g2
    for kind in (2, 1, 0):
        r = CELL_REGIONS[both[0]][kind]
        if all(CELL_REGIONS[c][kind] == r for c in both):
            return r
    return None


def _victims(
    state: State, digit: int, start: Group, end: Group, excluded: tuple[int, ...]
) -> tuple[tuple[int, int], ...]:
    bit = BIT[digit]
    cands = state.cands
    seen = None
    for c in start + end:
        seen = set(PEER_SETS[c]) if seen is None else seen & PEER_SETS[c]
    assert seen is not None
    out = []
    for c in sorted(seen):
        if cands[c] & bit and not any(c in REGION_SETS[r] for r in excluded):
            out.append((c, digit))
    return tuple(out)


_TURBOT_TYPES = ((1, 1), (2, 2), (2, 1), (1, 0), (2, 0))
_TURBOT_RATINGS = {(1, 1): 4.0, (2, 2): 4.0, (2, 1): 4.1, (1, 0): 4.2, (2, 0): 4.2}


def turbot_fish(state: State) -> Iterator[SEStep]:
    """Skyscrapers, 2-string kites, turbot fish and empty rectangles (SE's "Turbot
    Fishes": two strong links and a weak link), sorted as SE sorts them."""
    found: list[tuple[float, int, str, int, SEStep]] = []
    # Every (region, digit) is asked for its links many times below: compute each once.
    cache: dict[tuple[int, int], tuple[list[Link], frozenset[int]]] = {}

    def links(region: int, digit: int) -> tuple[list[Link], frozenset[int]]:
        got = cache.get((region, digit))
        if got is None:
            got = cache[region, digit] = _links(state, region, digit, three=False)
        return got

    for base_type, cover_type in _TURBOT_TYPES:
        for digit in range(1, 10):
            for i1 in range(9):
                base = 9 * base_type + i1
                base_links, base_cells = links(base, digit)
                if not base_links:
                    continue
                for s0, s1, g_base, _ in base_links:
                    first = i1 + 1 if base_type == cover_type else 0
                    for i2 in range(first, 9):
                        cover = 9 * cover_type + i2
                        cover_links, cover_cells = links(cover, digit)
                        if not cover_links or not base_cells.isdisjoint(cover_cells):
                            continue
                        for c0, c1, g_cover, _ in cover_links:
                            for start, bridge1 in ((s0, s1), (s1, s0)):
                                for bridge2, end in ((c0, c1), (c1, c0)):
                                    share = _share_region(bridge1, bridge2)
                                    if share is None or share in (base, cover):
                                        continue
                                    elims = _victims(state, digit, start, end, (base, cover))
                                    if not elims:
                                        continue
                                    grouped = g_base + g_cover
                                    rating = (
                                        4.3 if grouped else _TURBOT_RATINGS[base_type, cover_type]
                                    )
                                    suffix = ("00", "01", "11")[grouped]
                                    step = SEStep(
                                        "Turbot Fish",
                                        rating,
                                        elims,
                                        None,
                                        start + bridge1 + bridge2 + end,
                                    )
                                    found.append((rating, -len(elims), suffix, len(found), step))
    found.sort(key=lambda h: h[:4])
    for *_, step in found:
        yield step


#: The region types of three links (0 box, 1 row, 2 column), SE's order.
_THREE_TYPES = (
    (0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 1), (0, 1, 2),
    (0, 2, 2), (1, 1, 1), (1, 1, 2), (1, 2, 2), (2, 2, 2),
)  # fmt: skip


def _is_lex(seq: tuple[int, ...] | list[int]) -> bool:
    """SE keeps one of a chain and its reverse: the one not after its reverse."""
    return "".join(map(str, seq)) <= "".join(map(str, reversed(seq)))


def _heap_permutations(n: int) -> Iterator[tuple[int, ...]]:
    """Permutations of range(n) in the order of the countdown QuickPerm SE uses."""
    q = list(range(n))
    r = list(range(n + 1))
    yield tuple(q)
    s = 1
    while s < n:
        r[s] -= 1
        t = (s % 2) * r[s]
        q[t], q[s] = q[s], q[t]
        yield tuple(q)
        s = 1
        while r[s] == 0:
            r[s] = s
            s += 1


def _line_name(types: list[int]) -> str:
    """SE's name of the region types of a chain (its "suffix" after the grouped count):
    the smallest of the chain, read either way, with rows and columns swapped or not."""
    has_row = 1 in types
    original = "".join(map(str, types))
    plain = "".join("1" if t == 2 else str(t) for t in types)
    forward = "".join({0: "0", 1: "2", 2: "1"}[t] for t in types)
    backward = forward[::-1]
    swapped = min(backward, forward)
    if has_row:
        return min(original, swapped)
    return plain


class _ThreeLinks:
    """The search of :func:`three_strong_links` on one state (SE's order)."""

    K = 3
    PERMS = [q for q in _heap_permutations(3) if _is_lex(q)]
    DIRECTIONS = [(a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)]

    def __init__(self, state: State) -> None:
        self.state = state
        self.cache: dict[tuple[int, int], tuple[list[tuple[Link, int]], frozenset[int]]] = {}
        self.links: list[Link] = []
        # pairs[a, b][2 * sa + sb]: the region that side sa of link a and side sb of
        # link b share (None when none); links are numbered as they are first met.
        self.pairs: dict[tuple[int, int], tuple[int | None, ...]] = {}
        self.found: list[tuple[float, int, str, int, SEStep]] = []
        self.chosen: list[tuple[int, Link, int]] = []
        self.types: tuple[int, ...] = ()
        self.digit = 0

    def run(self) -> list[SEStep]:
        for types in _THREE_TYPES:
            self.types = types
            for digit in range(1, 10):
                self.digit = digit
                self.build(0, 0, frozenset())
        self.found.sort(key=lambda h: h[:4])
        return [h[4] for h in self.found]

    def links_of(self, region: int) -> tuple[list[tuple[Link, int]], frozenset[int]]:
        key = (self.digit, region)
        got = self.cache.get(key)
        if got is None:
            links, cells = _links(self.state, region, self.digit, three=True)
            numbered = []
            for link in links:
                numbered.append((link, len(self.links)))
                self.links.append(link)
            got = self.cache[key] = (numbered, cells)
        return got

    def pair(self, a: int, b: int) -> tuple[int | None, ...]:
        got = self.pairs.get((a, b))
        if got is None:
            la, lb = self.links[a], self.links[b]
            got = self.pairs[a, b] = tuple(
                _share_region(_side(la, sa), _side(lb, sb)) for sa in (0, 1) for sb in (0, 1)
            )
        return got

    def build(self, depth: int, last: int, used: frozenset[int]) -> None:
        """Choose the link of region type ``types[depth]``: same types in ascending
        region order, no candidate cell in two links' regions."""
        types = self.types
        first = last + 1 if depth and types[depth - 1] == types[depth] else 0
        for i in range(first, 9):
            region = 9 * types[depth] + i
            links, cells = self.links_of(region)
            if not links or not used.isdisjoint(cells):
                continue
            for link, number in links:
                self.chosen.append((region, link, number))
                if depth + 1 < self.K:
                    self.build(depth + 1, i, used | cells)
                else:
                    self.chains()
                self.chosen.pop()

    def chains(self) -> None:
        """Every order and orientation of the chosen links that chains by weak links."""
        chosen = self.chosen
        k = self.K
        ids = [chosen[i][2] for i in range(k)]
        share = [[self.pair(ids[i], ids[j]) if i != j else () for j in range(k)] for i in range(k)]
        # The middle link of a chain meets both others: most choices fail here.
        met = [[any(x is not None for x in share[i][j]) for j in range(k)] for i in range(k)]
        if not any(all(met[m][j] for j in range(k) if j != m) for m in range(k)):
            return
        for q in self.PERMS:
            for u in self.DIRECTIONS:
                shares = []
                for w in range(k - 1):
                    got = share[q[w]][q[w + 1]][2 * (1 - u[w]) + u[w + 1]]
                    if got is None:
                        break
                    shares.append(got)
                else:
                    self.hint(q, u, shares)

    def hint(self, q: tuple[int, ...], u: tuple[int, ...], shares: list[int]) -> None:
        chosen, k = self.chosen, self.K
        start = _side(chosen[q[0]][1], u[0])
        end = _side(chosen[q[k - 1]][1], 1 - u[k - 1])
        excluded = tuple(region for region, _, _ in chosen) + tuple(shares)
        elims = _victims(self.state, self.digit, start, end, excluded)
        for w in range(k):
            heart = chosen[q[w]][1][3]
            if heart < 0:
                continue
            if w == k - 1:  # the victims see the heart too
                elims = tuple(e for e in elims if e[0] in PEER_SETS[heart])
            elif not all(c in PEER_SETS[heart] for c in _side(chosen[q[w + 1]][1], u[w + 1])):
                return  # the next link's start does not see the heart
        if not elims:
            return
        grouped = sum(1 for _, link, _ in chosen if link[2])
        chain_types = [self.types[i] for i in q]
        if not _is_lex(chain_types):
            chain_types.reverse()
        name = _line_name(chain_types)
        if grouped:
            rating = 5.7
        elif "0" in name:
            rating = 5.5  # a box among the links
        elif "2" in name:
            rating = 5.6  # rows and columns
        else:
            rating = 5.4  # parallel lines
        cells: tuple[int, ...] = ()
        for i in q:
            cells += chosen[i][1][0] + chosen[i][1][1]
        step = SEStep("Three Strong Links", rating, elims, None, cells)
        self.found.append((rating, -len(elims), f"{grouped}{name}", len(self.found), step))


def three_strong_links(state: State) -> Iterator[SEStep]:
    """SE's three strong links (three links, two weak links), sorted as SE sorts them."""
    yield from _ThreeLinks(state).run()
