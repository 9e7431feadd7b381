"""The variant lines of the community (whispers, renban, palindromes, entropic and modular
lines, region sum lines, zippers, double arrows, lines of equal sums) read back from a
rule's data: the path of cells of each line and its look, for
:func:`sudoku_model.rule_marks.rule_marks`.

The constructors of :mod:`sudoku_model.rules.constraints` write these lines as relations
between pairs of cells or as sums with weights +1 and -1; the path is recovered from that
structure (consecutive pairs along a whisper, the pairs of every two cells of a renban
line, the nested pairs of a palindrome, the runs of a region sum line...). The table of a
relation says which kind it is; the rule's name settles only what the structure leaves
open (a two-cell renban is a white kropki dot by its table; a zipper's groups look like
arrows; residue tables are modular lines only when the name says so). A palindrome of odd
length does not name its middle cell (its digit is free): the line goes through the cell
halfway between the inner cells, or, when two cells touch both, the first of them.

>>> from sudoku_model.geometry import Shape
>>> from sudoku_model.rules import whisper_rule
>>> [line] = relation_lines(9, whisper_rule(Shape(3, 3), [[0, 1, 10]]))
>>> line.cells, line.look
((0, 1, 10), 'whisper')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .geometry import Shape
from .rules import Relation, Sum

__all__ = [
    "LINE_LOOKS",
    "Line",
    "ModularLines",
    "describe_lines",
    "relation_lines",
    "sum_rule_lines",
]

#: Looks of a :class:`Line`.
LINE_LOOKS = (
    "whisper",
    "dutch-whisper",
    "renban",
    "palindrome",
    "entropic",
    "modular",
    "region-sum",
    "zipper",
    "double-arrow",
    "equal-sum",
    # the table kinds of :mod:`sudoku_model.rule_tables_marks`
    "between",
    "lockout",
    "segment-sum",
    "lunchbox",
    "value-indexing",
)


@dataclass(frozen=True)
class Line:
    """A variant line: its cells along the path, its look (one of :data:`LINE_LOOKS`) and
    the sentence that says its rule (the legend of a picture, the caption of a text), and
    a number written at its first cell (a lunchbox's total; None for none)."""

    cells: tuple[int, ...]
    look: str
    label: str
    text: str | None = None


def _table(n: int, test: Callable[[int, int], bool]) -> frozenset[tuple[int, int]]:
    return frozenset((a, b) for a in range(1, n + 1) for b in range(1, n + 1) if test(a, b))


def _touch(n: int, a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    return max(abs(ra - rb), abs(ca - cb)) == 1


def _chains(pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Paths from pairs listed along them (each pair starts where the previous ended)."""
    paths: list[list[int]] = []
    for a, b in pairs:
        if paths and paths[-1][-1] == a:
            paths[-1].append(b)
        else:
            paths.append([a, b])
    return paths


def _cliques(pairs: Sequence[tuple[int, int]], k: int | None) -> list[list[int]] | None:
    """The lines whose pairs (every two cells, in order along the line) are ``pairs`` one
    line after the other, each of k cells (or of any length when k is None); None when
    the pairs are not such lines."""
    lines = []
    i = 0
    while i < len(pairs):
        first = pairs[i][0]
        rest: list[int] = []
        while i + len(rest) < len(pairs) and pairs[i + len(rest)][0] == first:
            rest.append(pairs[i + len(rest)][1])
        cells = [first, *rest]
        if k is not None and len(cells) != k:
            return None
        expected = [(a, b) for j, a in enumerate(cells) for b in cells[j + 1 :]]
        if list(pairs[i : i + len(expected)]) != expected:
            return None
        lines.append(cells)
        i += len(expected)
    return lines


def _nested(n: int, pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Palindromes from the pairs of cells at the same distance from both ends, outermost
    first: a line goes on while both ends step to a touching cell."""
    lines: list[tuple[list[int], list[int]]] = []
    for a, b in pairs:
        if lines and _touch(n, lines[-1][0][-1], a) and _touch(n, lines[-1][1][-1], b):
            lines[-1][0].append(a)
            lines[-1][1].append(b)
        else:
            lines.append(([a], [b]))
    paired = {c for pair in pairs for c in pair}
    return [front + _middle(n, front, back, paired) + back[::-1] for front, back in lines]


def _middle(n: int, front: list[int], back: list[int], paired: set[int]) -> list[int]:
    """The middle cell of a palindrome of odd length (its pairs leave it out): the cell
    touching both inner cells, the one halfway between them when there is one, else the
    first in reading order on no other palindrome (the middle digit is free, so either is
    as good a picture); none when the inner cells touch."""
    a, b = front[-1], back[-1]
    if _touch(n, a, b):
        return []
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    if (ra + rb) % 2 == 0 and (ca + cb) % 2 == 0:
        return [(ra + rb) // 2 * n + (ca + cb) // 2]
    common = [
        r * n + c
        for r in range(max(ra, rb) - 1, min(ra, rb) + 2)
        for c in range(max(ca, cb) - 1, min(ca, cb) + 2)
        if 0 <= r < n and 0 <= c < n and r * n + c not in paired
    ]
    return common[:1]


def _entropic_paths(pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Entropic lines from their pairs (each cell with the next one and the one after)."""
    paths: list[list[int]] = []
    previous = None
    for a, b in pairs:
        if a == previous:
            continue  # the pair two steps ahead
        previous = a
        if paths and paths[-1][-1] == a:
            paths[-1].append(b)
        else:
            paths.append([a, b])
    return paths


def _difference(n: int, allowed: frozenset[tuple[int, int]]) -> int | None:
    """The d of a whisper table "digits at least d apart", if it is one."""
    for d in range(2, n):
        if allowed == _table(n, lambda a, b: abs(a - b) >= d):  # noqa: B023
            return d
    return None


def _span(n: int, allowed: frozenset[tuple[int, int]]) -> int | None:
    """The k of a renban table "different digits less than k apart", if it is one."""
    for k in range(2, n + 1):
        if allowed == _table(n, lambda a, b: 0 < abs(a - b) < k):  # noqa: B023
            return k
    return None


def _modulus(n: int, allowed: frozenset[tuple[int, int]], same: bool) -> int | None:
    """The m of a modular table "same (or different) residues modulo m", if it is one."""
    for m in range(2, n + 1):
        if allowed == _table(n, lambda a, b: (a % m == b % m) == same):  # noqa: B023
            return m
    return None


def _whisper_label(n: int, d: int, dutch: bool) -> str:
    kind = "Dutch whispers" if dutch else "German whispers" if d == (n + 1) // 2 else "whispers"
    return f"{kind}: neighbours on a line differ by at least {d}"


class ModularLines:
    """Modular lines, written as two relations (the first cells of a line with different
    residues, cells ``m`` steps apart with the same): the heads of one and the links of
    the other, joined into lines by :meth:`lines`."""

    def __init__(self) -> None:
        self.heads: dict[int, list[list[int]]] = {}
        self.links: dict[int, dict[int, int]] = {}

    def lines(self) -> tuple[list[Line], bool]:
        """The joined lines, and whether every link found its line."""
        out = []
        used = 0
        for m, heads in self.heads.items():
            links = self.links.get(m, {})
            for head in heads:
                path = list(head)
                while len(path) >= m and links.get(path[len(path) - m]) not in (None, *path):
                    path.append(links[path[len(path) - m]])
                    used += 1
                label = f"modular lines: every {m} cells in a row on a line differ modulo {m}"
                out.append(Line(tuple(path), "modular", label))
        return out, used == sum(len(v) for v in self.links.values())


def relation_lines(
    n: int, rule: Relation, modular: ModularLines | None = None
) -> list[Line] | None:
    """The lines of a relation between pairs of cells on an n x n grid, or None when it
    is no variant line. A modular line's pairs go to ``modular`` (joined there) and give
    no line here."""
    name = rule.name.lower()
    pairs = rule.pairs
    if not pairs:
        return None
    d = _difference(n, rule.allowed)
    if d is not None:
        dutch = "dutch" in name or (n == 9 and d == 4)
        label = _whisper_label(n, d, dutch)
        look = "dutch-whisper" if dutch else "whisper"
        return [Line(tuple(p), look, label) for p in _chains(pairs)]
    k = _span(n, rule.allowed)
    if k is not None and (k > 2 or "renban" in name) and "modular" not in name:
        cliques = _cliques(pairs, k)
        if cliques is not None:
            label = "renban: each line holds consecutive digits in any order"
            return [Line(tuple(c), "renban", label) for c in cliques]
    if rule.allowed == _table(n, lambda a, b: a == b):
        lines = _nested(n, pairs)
        if "palindrom" in name or all(len(c) > 2 for c in lines):
            label = "palindromes: each line reads the same from both ends"
            return [Line(tuple(c), "palindrome", label) for c in lines]
        return None
    if n % 3 == 0 and rule.allowed == _table(
        n, lambda a, b: (a - 1) // (n // 3) != (b - 1) // (n // 3)
    ):
        third = n // 3
        label = (
            f"entropic lines: every 3 cells in a row on a line hold one of 1-{third}, "
            f"{third + 1}-{2 * third}, {2 * third + 1}-{n}"
        )
        return [Line(tuple(p), "entropic", label) for p in _entropic_paths(pairs)]
    if modular is not None and "modular" in name:
        # residue tables over pairs are modular lines only by name (a two-cell "different
        # parity" pair is no line)
        m = _modulus(n, rule.allowed, same=False)
        if m is not None:
            heads = _cliques(pairs, None)  # a line shorter than m is all head
            if heads is None or any(len(h) > m for h in heads):
                return None
            modular.heads.setdefault(m, []).extend(heads)
            return []
        m = _modulus(n, rule.allowed, same=True)
        if m is not None:
            links = modular.links.setdefault(m, {})
            links.update(pairs)
            return []
    return None


def _signed(group_cells: Sequence[int], weights: Sequence[int]) -> tuple[list[int], list[int]]:
    plus = [c for c, w in zip(group_cells, weights) if w == 1]
    minus = [c for c, w in zip(group_cells, weights) if w == -1]
    return plus, minus


def _runs(groups: Sequence[tuple[list[int], list[int]]]) -> list[list[list[int]]]:
    """Segments of equal sums from groups "segment minus the next segment": a group whose
    first segment is the previous group's second goes on the same set."""
    sets: list[list[list[int]]] = []
    for plus, minus in groups:
        if sets and sets[-1][-1] == plus:
            sets[-1].append(minus)
        else:
            sets.append([plus, minus])
    return sets


def sum_rule_lines(n: int, rule: Sum) -> list[Line] | None:
    """The lines of a sum rule whose groups all have weights +1 and -1 and total 0
    (zippers, double arrows, region sum lines, equal sums), or None when it has none."""
    name = rule.name.lower()
    groups = rule.groups
    if not groups or any(
        g.total != 0 or g.distinct or any(w not in (1, -1) for w in g.weights) for g in groups
    ):
        return None
    signed = [_signed(g.cells, g.weights) for g in groups]
    if "zipper" in name:
        return _zippers(signed)
    if "double arrow" in name:
        label = "double arrows: the cells between the two circles sum to the circles' total"
        out = []
        for plus, minus in signed:
            if len(minus) != 2:
                return None
            out.append(Line((minus[0], *plus, minus[1]), "double-arrow", label))
        return out
    if "region sum" in name:
        label = "region sum lines: a line's pieces in each box have the same sum"
        return [
            Line(tuple(c for seg in segs for c in seg), "region-sum", label)
            for segs in _runs(signed)
        ]
    if "equal sum" in name or "magic" in name:
        label = "equal sums: the lines of one set have the same sum"
        segments = [tuple(seg) for segs in _runs(signed) for seg in segs if len(seg) > 1]
        # a cell shared by two segments cancels in their group: keep the fullest pieces
        kept = [
            seg
            for i, seg in enumerate(segments)
            if not any(
                set(seg) < set(other) or (set(seg) == set(other) and j < i)
                for j, other in enumerate(segments)
            )
        ]
        return [Line(seg, "equal-sum", label) for seg in kept]
    return None


def _zippers(signed: Sequence[tuple[list[int], list[int]]]) -> list[Line] | None:
    """Zipper lines: on an odd line, one group per pair of cells against the middle cell;
    on an even line, one group per two consecutive pairs."""
    label = "zippers: cells the same distance from a line's middle sum to the same total"
    out: list[Line] = []
    odd: list[tuple[list[int], list[int], int]] = []  # fronts, backs, middle
    even: list[tuple[list[int], list[int]]] = []
    for plus, minus in signed:
        if len(plus) == 2 and len(minus) == 1:
            a, b = plus
            if odd and odd[-1][2] == minus[0]:
                odd[-1][0].append(a)
                odd[-1][1].append(b)
            else:
                odd.append(([a], [b], minus[0]))
        elif len(plus) == 2 and len(minus) == 2:
            if even and [even[-1][0][-1], even[-1][1][-1]] == plus:
                even[-1][0].append(minus[0])
                even[-1][1].append(minus[1])
            else:
                even.append(([plus[0], minus[0]], [plus[1], minus[1]]))
        else:
            return None
    for fronts, backs, middle in odd:
        out.append(Line((*fronts, middle, *backs[::-1]), "zipper", label))
    for fronts, backs in even:
        out.append(Line((*fronts, *backs[::-1]), "zipper", label))
    return out


def describe_lines(lines: Sequence[Line], shape: Shape) -> list[str]:
    """Text for the lines: one entry per kind, its rule then each line's cells from end
    to end (``renban: ...: r1c1-r1c2-r1c3; r5c5-r6c6``), a line's number after it
    (``r1c1-r1c2-r1c3 (7)``)."""
    kinds: dict[str, list[str]] = {}
    for line in lines:
        path = "-".join(shape.cell_name(c) for c in line.cells)
        if line.text is not None:
            path += f" ({line.text})"
        kinds.setdefault(line.label, []).append(path)
    return [f"{label}: {'; '.join(paths)}" for label, paths in kinds.items()]
