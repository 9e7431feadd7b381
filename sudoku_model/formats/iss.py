"""Interactive Sudoku Solver (ISS) constraint strings, one puzzle per line.

An ISS string is a list of items, each ``.Kind~arg~arg...``; cells are ``R1C1`` (1-based,
rows and columns 10..16 written ``a``..``g``), white space is ignored, and an item with an
empty kind holds givens and candidates: ``.~R1C1_5~R1C2_3_4`` (one digit: a given; several:
the cell's candidates, the :class:`~sudoku_model.rules.Domain` rule ``candidates``)::

    .~R1C1_5.Thermo~R9C4~R8C3.Whisper~R8C1~R7C1.Cage~15~R1C1~R1C2

Read here (:func:`puzzle_from_iss`), written by :mod:`.iss_write`: givens and candidates,
``Shape`` (square grids 4x4 to 16x16 with their standard boxes), ``NoBoxes`` with
``Jigsaw``, ``Diagonal``, ``Windoku``, ``AntiKnight``, ``AntiKing``, ``DisjointSets``,
``AntiTaxicab``, ``AllDifferent``, ``Cage`` (a sum of 0 or none: different digits only),
``Sum`` (with coefficients), ``LittleKiller``, ``Arrow``, ``PillArrow`` (up to 9x9),
``DoubleArrow``, ``Thermo``, ``WhiteDot``, ``BlackDot``, ``StrictKropki``, ``X``, ``V``,
``StrictXV``, ``GreaterThan``, ``AntiConsecutive``, ``Sandwich``, ``Whisper``, ``Renban``,
``Palindrome``, ``Entropic``, ``Modular``, ``Zipper``, ``RegionSumLine``, ``EqualSum``,
``SameValues`` (sets of one cell), ``Indexing``, ``NumberedRoom``, ``Pair``, ``PairX`` (and
their legacy ``Binary``, ``BinaryX``); and, as :class:`~sudoku_model.rules.Table` lists of
digit tuples, ``Between``, ``Lockout``, ``Quad``, ``EqualityCage``, ``RellikCage``,
``SumLine`` (with ``LOOP``), ``LookAndSay``, ``Lunchbox``, ``XSum`` and ``Skyscraper`` (up to
9x9 where a row's list would be too long), ``ValueIndexing``, ``GlobalEntropy``,
``GlobalMod`` and ``DutchFlatmates``. Any other kind is refused with its name, never
dropped.

Written strings name what they can (cages, arrows, thermometers, dots, whispers...); any
other relation is written as a ``Pair`` table and any other sum as a ``Sum`` with
coefficients, so that reading a written string gives a puzzle with the same solutions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ParseError, ShapeError, SudokuError
from ..geometry import Shape
from ..grid import Grid
from ..puzzle import Puzzle
from ..rules import (
    AllDifferent,
    Domain,
    Relation,
    Rule,
    RuleError,
    RuleSet,
    anti_taxicab_rules,
    arrow_rule,
    between_rule,
    double_arrow_rule,
    dutch_flatmates_rules,
    entropic_rule,
    equal_sums_rule,
    equality_cage_rules,
    global_entropy_rule,
    global_mod_rule,
    greater_than_rule,
    indexing_rules,
    killer_rule,
    kropki_rules,
    lockout_rules,
    look_and_say_rules,
    lunchbox_rules,
    modular_rules,
    nonconsecutive_rule,
    palindrome_rule,
    quadruple_rules,
    region_sum_lines_rule,
    rellik_cage_rules,
    renban_rules,
    sandwich_rule,
    segment_sum_rules,
    skyscraper_rules,
    sum_lines_rule,
    thermometer_rule,
    value_indexing_rules,
    weighted_sums_rule,
    whisper_rule,
    windoku_rule,
    x_sum_rules,
    xv_rules,
    zipper_rule,
)

if TYPE_CHECKING:
    from .record import Record

__all__ = ["ISS_KINDS", "IssError", "iss_records", "looks_like_iss", "puzzle_from_iss"]

#: The rule holding ISS candidate lists (cells with several allowed digits).
CANDIDATES = "candidates"
#: The rule holding cages without totals.
PLAIN_CAGES = "cages without totals"

#: Largest grid an ISS cell name can address (rows and columns 1-9, a-g).
MAX_ISS_SIZE = 16
_ID_DIGITS = "123456789abcdefg"

#: The constraint kinds of ISS (read or not): a line starts like an ISS string when it
#: opens with ``.~`` or ``.Kind~``, or ``.Flag`` for a kind that takes no argument.
_ISS_NAMES = (
    "Container", "Or", "And", "Replicate", "End", "Jigsaw", "Thermo", "Whisper", "Renban",
    "Modular", "Entropic", "RegionSumLine", "Between", "Lockout", "Palindrome", "Zipper",
    "SumLine", "Regex", "NFA", "NoBoxes", "ChaosConstruction", "ChaosArrow", "ChaosCount",
    "RegionSize", "RegionSameValues", "StrictKropki", "StrictXV", "Shape", "Windoku",
    "DisjointSets", "AntiKnight", "Doppelganger", "AntiKing", "AntiTaxicab", "AntiConsecutive",
    "GlobalEntropy", "GlobalMod", "FullRankTies", "DutchFlatmates", "Diagonal", "WhiteDot",
    "BlackDot", "GreaterThan", "X", "ValueIndexing", "V", "Arrow", "DoubleArrow", "PillArrow",
    "Cage", "RellikCage", "EqualityCage", "Sum", "LittleKiller", "XSum", "Sandwich",
    "Lunchbox", "Skyscraper", "HiddenSkyscraper", "NumberedRoom", "FullRank", "AllDifferent",
    "ContainAtLeast", "ContainExact", "LookAndSay", "ConnectedValues", "SameValues",
    "EqualSum", "Quad", "Binary", "BinaryX", "Pair", "PairX", "Indexing", "CountingCircles",
    "CountDistinct", "Given", "SearchPriority", "Var",
)  # fmt: skip
_ISS_FLAGS = (
    "NoBoxes", "ChaosConstruction", "StrictKropki", "StrictXV", "Windoku", "DisjointSets",
    "AntiKnight", "Doppelganger", "AntiKing", "AntiTaxicab", "AntiConsecutive",
    "GlobalEntropy", "GlobalMod", "DutchFlatmates", "Or", "And",
)  # fmt: skip
_STARTS_ISS = re.compile(
    r"\.\s*(~|(" + "|".join(_ISS_NAMES) + r")\s*~|(" + "|".join(_ISS_FLAGS) + r")\s*(\.|$))"
)


class IssError(SudokuError, ValueError):
    """A malformed or unsupported ISS string; ``column`` is the 1-based column of the item
    at fault in the line."""

    def __init__(self, message: str, column: int = 1) -> None:
        super().__init__(message)
        self.column = column


def looks_like_iss(text: str) -> bool:
    """True for a line that starts like an ISS string: ``.`` then ``~``, an ISS kind name
    and ``~``, or the name of a kind without arguments (``.AntiKnight.``); a grid line in
    letters (``.BCD...``) is not one."""
    return _STARTS_ISS.match(text.strip()) is not None


# -- reading -------------------------------------------------------------------------------
def _items(text: str) -> list[tuple[str, list[str], int]]:
    """The items of a line as (kind, arguments, 1-based column), white space removed."""
    kept = [(i, ch) for i, ch in enumerate(text) if not ch.isspace()]
    stripped = "".join(ch for _, ch in kept)
    if not stripped.startswith("."):
        raise IssError("an ISS string starts with '.'")
    out = []
    pos = 1
    for item in stripped[1:].split("."):
        column = kept[pos][0] + 1 if pos < len(kept) else len(text) + 1
        pos += len(item) + 1
        kind, *args = item.split("~")
        out.append((kind, args, column))
    return out


class _Reader:
    """One ISS string to a puzzle: the items gathered by kind, then the rules built."""

    def __init__(self, text: str) -> None:
        self.items = _items(text)
        self.column = 1
        self.shape = self._shape()
        n = self.shape.size
        self.n = n
        self.candidates: dict[int, set[int]] = {}
        self.units: list[tuple[str, tuple[int, ...]]] = []
        self.layout: str | None = None
        self.lists: dict[str, list[object]] = {}
        #: The column of each entry of the table kinds (their rules are built once, at
        #: the end, and an error is traced back to its item).
        self.columns: dict[str, list[int]] = {}
        self.flags: set[str] = set()

    def fail(self, message: str) -> IssError:
        return IssError(message, self.column)

    def _shape(self) -> Shape:
        specs = [(args, col) for kind, args, col in self.items if kind == "Shape"]
        if not specs:
            return Shape(3, 3)
        if len(specs) > 1:
            raise IssError("more than one Shape", specs[1][1])
        args, col = specs[0]
        m = re.fullmatch(r"(\d{1,3})x(\d{1,3})", args[0]) if args else None
        if m is None or any(a for a in args[1:]):
            raise IssError(f"unsupported ISS Shape {'~'.join(args)[:40]!r}", col)
        rows, cols = int(m.group(1)), int(m.group(2))
        if rows != cols:
            raise IssError(f"unsupported ISS Shape {rows}x{cols}: only square grids", col)
        if rows > MAX_ISS_SIZE:
            raise IssError(f"ISS grids reach {MAX_ISS_SIZE}x{MAX_ISS_SIZE}", col)
        box = iss_box(rows)  # ISS's choice of box (the toolkit's own for every size)
        try:
            if box is None:
                raise ShapeError(f"a {rows}x{rows} grid has no box shape")
            return Shape(*box)
        except ShapeError as exc:
            raise IssError(str(exc), col) from None

    # -- arguments ---------------------------------------------------------------------
    def cell(self, text: str) -> int:
        m = re.fullmatch(r"[Rr]([1-9a-gA-G])[Cc]([1-9a-gA-G])", text)
        if m is None:
            raise self.fail(f"{text!r} is not a cell like R1C1")
        r, c = (_ID_DIGITS.index(g.lower()) for g in m.groups())
        if r >= self.n or c >= self.n:
            raise self.fail(f"{text} is outside the {self.n}x{self.n} grid")
        return r * self.n + c

    def cells(self, args: Sequence[str]) -> list[int]:
        return [self.cell(a) for a in args]

    def number(self, text: str, what: str) -> int:
        if not re.fullmatch(r"-?\d{1,9}", text):
            raise self.fail(f"{what} {text[:20]!r} is not a whole number of at most 9 digits")
        return int(text)

    def add(self, key: str, value: Any) -> None:
        """Keep one item's entry, checked on its own first so that a rule that cannot
        hold (an unreachable cage total, a thermometer that is not a path) is reported
        at the item's column."""
        self.check(key, value)
        self.lists.setdefault(key, []).append(value)

    def add_table(self, key: str, value: Any) -> None:
        """Keep one entry of a table kind with its column; built in :meth:`table_rules`."""
        self.lists.setdefault(key, []).append(value)
        self.columns.setdefault(key, []).append(self.column)

    def check(self, key: str, value: Any) -> None:
        """Build one entry's rule alone; its RuleError at the item's column."""
        check = _CHECKS.get(key)
        if check is not None:
            try:
                check(self.shape, value)
            except RuleError as exc:
                raise self.fail(str(exc)) from None

    def got(self, key: str) -> list[Any]:
        return self.lists.get(key, [])

    def adjacent_pairs(self, cells: list[int]) -> list[tuple[int, int]]:
        """ISS's marks on several cells: each cell with its later orthogonal neighbours."""
        n = self.n
        rest = set(cells)
        pairs = []
        for a in cells:
            rest.discard(a)
            r, c = divmod(a, n)
            for b in (a - n, a + n, a - 1 if c else -1, a + 1 if c < n - 1 else -1):
                if b in rest:
                    pairs.append((a, b))
        if not pairs:
            raise self.fail("a mark without two neighbouring cells")
        return pairs

    # -- items -------------------------------------------------------------------------
    def read(self) -> Puzzle:
        for kind, args, column in self.items:
            self.column = column
            handler = _HANDLERS.get(kind)
            if handler is None:
                known = "unsupported" if kind in _ISS_NAMES else "unknown"
                raise self.fail(f"{known} ISS constraint {kind!r}")
            handler(self, args)
        return self.build()

    def givens(self, args: list[str]) -> None:
        for arg in args:
            if not arg:
                continue
            name, *values = arg.split("_")
            cell = self.cell(name)
            digits = {self.number(v, "digit") for v in values}
            if not digits or not all(1 <= d <= self.n for d in digits):
                raise self.fail(f"{arg!r} needs digits 1..{self.n}")
            self.candidates[cell] = self.candidates.get(cell, digits) & digits
            if not self.candidates[cell]:
                raise self.fail(f"{name} has no candidate left")

    def jigsaw(self, args: list[str]) -> None:
        if not 1 <= len(args) <= 2 or len(args[-1]) != self.shape.cell_count:
            raise self.fail(f"a Jigsaw layout needs {self.shape.cell_count} characters")
        self.layout = args[-1]

    def diagonal(self, args: list[str]) -> None:
        n = self.n
        if args == ["1"]:
            self.units.append(("diagonal+", tuple((n - 1 - i) * n + i for i in range(n))))
        elif args == ["-1"]:
            self.units.append(("diagonal-", tuple(i * n + i for i in range(n))))
        else:
            raise self.fail(f"Diagonal direction {'~'.join(args)!r} is not 1 or -1")

    def cage(self, args: list[str]) -> None:
        if not args:
            raise self.fail("a Cage needs a sum")
        total = self.number(args[0], "cage sum") if args[0].strip() else 0
        cells = self.cells(args[1:])
        if total:
            self.add("cages", (cells, total))
        else:
            self.add("plain cages", tuple(cells))

    def sum(self, args: list[str]) -> None:
        if not args:
            raise self.fail("a Sum needs a total")
        total_text, _, coeffs = args[0].partition("_=_")
        total = self.number(total_text, "sum")
        cells = self.cells(args[1:])
        weights = [self.number(w, "coefficient") for w in coeffs.split("_")] if coeffs else []
        if not coeffs:
            weights = [1] * len(cells)
        if len(weights) != len(cells):
            raise self.fail(f"{len(weights)} coefficients for {len(cells)} cells")
        if any(abs(w) > 100 for w in weights):
            raise self.fail("ISS coefficients are whole numbers from -100 to 100")
        self.add("sums", (cells, weights, total))

    def little_killer(self, args: list[str]) -> None:
        if len(args) != 2:
            raise self.fail("a LittleKiller needs a sum and a cell")
        total = self.number(args[0], "little killer sum")
        start = self.cell(args[1])
        line = _little_killer_lines(self.n).get(start)
        if line is None:
            raise self.fail(f"no little killer diagonal starts at {args[1]}")
        self.add("little killers", (list(line), total))

    def pill_arrow(self, args: list[str]) -> None:
        size = self.number(args[0], "pill size") if args else 0
        if size not in (2, 3):
            raise self.fail("a PillArrow's pill has 2 or 3 cells")
        if self.n > 9:
            raise self.fail("unsupported ISS constraint 'PillArrow' on a grid above 9x9")
        cells = self.cells(args[1:])
        if len(cells) <= size:
            raise self.fail("a PillArrow needs a shaft")
        self.add("arrows", (sorted(cells[:size]), cells[size:]))

    def arrow(self, args: list[str]) -> None:
        cells = self.cells(args)
        if len(cells) < 2:
            raise self.fail("an Arrow needs a circle and a shaft")
        self.add("arrows", ([cells[0]], cells[1:]))

    def outside(self, args: list[str]) -> None:
        if len(args) != 2:
            raise self.fail("a Sandwich needs a sum and a row or column")
        total = self.number(args[0], "sandwich sum")
        m = re.fullmatch(r"([RC])(\d+)", args[1])
        if m is None or not 1 <= int(m.group(2)) <= self.n:
            raise self.fail(f"{args[1]!r} is not a row or column like R1 or C1")
        self.add("sandwich " + m.group(1), (int(m.group(2)) - 1, total))

    def equal_sum(self, args: list[str]) -> None:
        segments: list[list[int]] = [[]]
        for a in args:
            if a == "-":
                segments.append([])
            else:
                segments[-1].append(self.cell(a))
        if any(not s for s in segments):
            raise self.fail("an EqualSum segment has no cell")
        self.add("equal sums", segments)

    def same_values(self, args: list[str]) -> None:
        if not args or not re.fullmatch(r"\d{1,9}", args[0]):
            raise self.fail("SameValues needs a number of sets")
        cells = self.cells(args[1:])
        if int(args[0]) != len(cells):
            raise self.fail("unsupported ISS constraint 'SameValues' with sets of several cells")
        self.add("same", cells)

    def indexing(self, args: list[str]) -> None:
        if not args or args[0] not in ("C", "R"):
            raise self.fail("Indexing needs C (column) or R (row)")
        n = self.n
        for control in self.cells(args[1:]):
            r, c = divmod(control, n)
            if args[0] == "C":
                self.add("indexing", (control, [r * n + j for j in range(n)], c + 1))
            else:
                self.add("indexing", (control, [i * n + c for i in range(n)], r + 1))

    def numbered_room(self, args: list[str]) -> None:
        m = re.fullmatch(r"([RC])(\d+)", args[0]) if args else None
        if m is None or not 1 <= int(m.group(2)) <= self.n or len(args) > 3:
            raise self.fail("a NumberedRoom needs a row or column like R1 or C1 and clues")
        k = int(m.group(2)) - 1
        line = list(self.shape.rows[k] if m.group(1) == "R" else self.shape.columns[k])
        for clue, cells in zip(args[1:], (line, line[::-1])):
            if clue:
                self.add("indexing", (cells[0], cells, self.number(clue, "clue")))

    def house(self, text: str) -> list[int]:
        """The cells of row or column ``R3`` / ``C3``, from the top or the left."""
        m = re.fullmatch(r"([RC])(\d{1,2})", text)
        if m is None or not 1 <= int(m.group(2)) <= self.n:
            raise self.fail(f"{text[:20]!r} is not a row or column like R1 or C1")
        k = int(m.group(2)) - 1
        return list(self.shape.rows[k] if m.group(1) == "R" else self.shape.columns[k])

    def outside_clues(self, key: str, args: list[str]) -> None:
        """X-sum and skyscraper clues ``R2~START~END`` (either may be empty), merged with
        the earlier clues of the same line; a clue at an end already given is an error."""
        if not 2 <= len(args) <= 3 or not any(args[1:]):
            raise self.fail("needs a row or column like R1 and one or two clues")
        line = self.house(args[0])
        clues = [self.number(a, "clue") if a else None for a in args[1:3]] + [None]
        if any(c is not None and c < 1 for c in clues):
            raise self.fail("a clue is a number >= 1")
        entries: list[Any] = self.lists.setdefault(key, [])
        for i, entry in enumerate(entries):
            cells, start, end = entry
            if cells == line:
                if (start is not None and clues[0] is not None) or (
                    end is not None and clues[1] is not None
                ):
                    raise self.fail(f"two clues at one end of {args[0]}")
                merged = (
                    line,
                    clues[0] if start is None else start,
                    clues[1] if end is None else end,
                )
                entries[i] = merged
                return
        self.add_table(key, (line, clues[0], clues[1]))

    def quad(self, args: list[str]) -> None:
        if len(args) < 2:
            raise self.fail("a Quad needs a cell and one to four values")
        self.add_table("quads", (self.cell(args[0]), [self.number(a, "value") for a in args[1:]]))

    def sum_line(self, args: list[str]) -> None:
        loop = bool(args) and args[-1] == "LOOP"
        rest = args[:-1] if loop else args
        if not rest:
            raise self.fail("a SumLine needs a sum and cells")
        self.add_table("segment sums", (self.number(rest[0], "sum"), self.cells(rest[1:]), loop))

    def look_and_say(self, args: list[str]) -> None:
        if not args or not re.fullmatch(r"(\d\d){1,10}", args[0]):
            raise self.fail("a LookAndSay clue is (count, value) digit pairs")
        self.add_table("look and say", (args[0], self.cells(args[1:])))

    # -- rules -------------------------------------------------------------------------
    def build(self) -> Puzzle:
        shape, n = self.shape, self.n
        self.column = 1
        regions = None
        if self.layout is not None:
            labels = {ch: k for k, ch in enumerate(dict.fromkeys(self.layout))}
            if "NoBoxes" in self.flags:
                regions = [labels[ch] for ch in self.layout]
            else:
                units: dict[str, list[int]] = {}
                for c, ch in enumerate(self.layout):
                    units.setdefault(ch, []).append(c)
                self.units += [
                    (f"jigsaw region {k + 1}", tuple(u)) for k, u in enumerate(units.values())
                ]
        elif "NoBoxes" in self.flags:
            raise self.fail("unsupported ISS constraint 'NoBoxes' without a Jigsaw layout")
        variants: list[str] = [v for v in ("anti-knight", "anti-king") if v in self.flags]
        if "windoku" in self.flags:
            windows = iss_windows(n)
            try:
                standard = set(windoku_rule(shape).units) == set(windows)
            except ShapeError:
                standard = not windows
            if standard:
                variants.insert(0, "windoku")
            elif windows:
                self.units += [("windoku", w) for w in windows]
        diagonals = [u for u in self.units if u[0] in ("diagonal+", "diagonal-")]
        if len({name for name, _ in diagonals}) == 2:
            variants.insert(0, "diagonal")
            self.units = [u for u in self.units if u not in diagonals]
        base = RuleSet.build(shape, variants, regions)
        extra: list[Rule] = []
        if "disjoint" in self.flags:
            self.units += [
                (f"disjoint group {i + 1}", tuple(box[i] for box in shape.boxes)) for i in range(n)
            ]
        seen_units: set[tuple[int, ...]] = set()
        for name, unit in self.units:
            if unit not in seen_units:
                seen_units.add(unit)
                extra.append(AllDifferent(name, (unit,)))
        extra += self.cage_rules()
        if self.got("plain cages"):
            extra.append(AllDifferent(PLAIN_CAGES, tuple(self.got("plain cages"))))
        if self.got("little killers"):
            extra.append(sum_lines_rule(shape, self.got("little killers")))
        if self.got("sums"):
            extra.append(weighted_sums_rule(shape, self.got("sums")))
        if self.got("arrows"):
            extra.append(arrow_rule(shape, self.got("arrows")))
        if self.got("double arrows"):
            extra.append(double_arrow_rule(shape, self.got("double arrows")))
        if self.got("thermos"):
            extra.append(thermometer_rule(shape, self.got("thermos")))
        white, black = self.got("white"), self.got("black")
        if white or black or "StrictKropki" in self.flags:
            extra += kropki_rules(shape, white, black, negative="StrictKropki" in self.flags)
        xs, vs = self.got("x"), self.got("v")
        if xs or vs or "StrictXV" in self.flags:
            extra += xv_rules(shape, xs, vs, negative="StrictXV" in self.flags)
        if self.got("greater"):
            extra.append(greater_than_rule(shape, self.got("greater")))
        if "AntiConsecutive" in self.flags:
            extra.append(nonconsecutive_rule(shape))
        rows = dict(self.got("sandwich R"))
        columns = dict(self.got("sandwich C"))
        if rows or columns:
            extra.append(sandwich_rule(shape, rows, columns))
        by_difference: dict[int, list[list[int]]] = {}
        for d, cells in self.got("whispers"):
            by_difference.setdefault(d, []).append(cells)
        extra += [whisper_rule(shape, lines, d) for d, lines in sorted(by_difference.items())]
        if self.got("renban"):
            extra += renban_rules(shape, self.got("renban"))
        if self.got("palindromes"):
            extra.append(palindrome_rule(shape, self.got("palindromes")))
        if self.got("entropic"):
            extra.append(entropic_rule(shape, self.got("entropic")))
        by_modulus: dict[int, list[list[int]]] = {}
        for m, cells in self.got("modular"):
            by_modulus.setdefault(m, []).append(cells)
        for m, lines in sorted(by_modulus.items()):
            extra += modular_rules(shape, lines, m)
        if self.got("zippers"):
            extra.append(zipper_rule(shape, self.got("zippers")))
        if self.got("region sum lines"):
            areas = base.regions
            if areas is None:
                regions_cells = shape.boxes
            else:
                groups: dict[int, list[int]] = {}
                for c, label in enumerate(areas):
                    groups.setdefault(label, []).append(c)
                regions_cells = tuple(tuple(g) for g in groups.values())
            extra.append(region_sum_lines_rule(shape, self.got("region sum lines"), regions_cells))
        if self.got("equal sums"):
            extra.append(equal_sums_rule(shape, self.got("equal sums")))
        for k, (allowed, pairs, kind) in enumerate(self.got("pairs"), 1):
            if pairs:
                rule = Relation(f"{kind} {k}", tuple(dict.fromkeys(pairs)), allowed)
                rule.validate(shape)
                extra.append(rule)
        if self.got("same"):
            equal = [[a, b] for cells in self.got("same") for a, b in zip(cells, cells[1:])]
            extra.append(palindrome_rule(shape, equal, "same values"))
        if self.got("indexing"):
            extra += indexing_rules(shape, self.got("indexing"))
        if "AntiTaxicab" in self.flags:
            extra += anti_taxicab_rules(shape)
        extra += self.table_rules()
        values = [0] * shape.cell_count
        domain = []
        for cell, digits in sorted(self.candidates.items()):
            if len(digits) == 1:
                values[cell] = next(iter(digits))
            else:
                domain.append((cell, frozenset(digits)))
        if domain:
            candidates = Domain(CANDIDATES, tuple(domain))
            candidates.validate(shape)
            extra.append(candidates)
        rules = base.with_rules(extra) if extra else base
        return Puzzle(Grid(shape, values), rules)

    def table_rules(self) -> list[Rule]:
        """The rules stated as digit tuple lists, kind by kind, each list built once; a
        RuleError is reported at the column of the first item that fails on its own."""
        out: list[Rule] = []
        for flag, make_global in _GLOBAL_KINDS.items():
            if flag in self.flags:
                out += make_global(self.shape)
        for key, make in _TABLE_KINDS.items():
            entries = self.got(key)
            if not entries:
                continue
            try:
                out += make(self.shape, entries)
            except RuleError as exc:
                columns = self.columns[key]
                self.column = columns[0]
                for entry, column in zip(entries, columns):
                    try:
                        make(self.shape, [entry])
                    except RuleError as alone:
                        self.column = column
                        raise self.fail(str(alone)) from None
                raise self.fail(str(exc)) from None
        return out

    def cage_rules(self) -> list[Rule]:
        """Killer cages; overlapping cages (ISS allows them) go to further rules."""
        buckets: list[list[tuple[list[int], int]]] = []
        for cells, total in self.got("cages"):
            for bucket in buckets:
                if not any(set(cells) & set(other) for other, _ in bucket):
                    bucket.append((cells, total))
                    break
            else:
                buckets.append([(cells, total)])
        return [
            killer_rule(self.shape, b, "killer" if k == 0 else f"killer {k + 1}")
            for k, b in enumerate(buckets)
        ]


_Handler = Callable[[_Reader, list[str]], None]


def _collect(key: str, least: int = 1, *, table: bool = False) -> _Handler:
    def handle(reader: _Reader, args: list[str]) -> None:
        cells = reader.cells(args)
        if len(cells) < least:
            raise reader.fail(f"a line of {len(cells)} cells")
        (reader.add_table if table else reader.add)(key, cells)

    return handle


def _marks(key: str) -> _Handler:
    def handle(reader: _Reader, args: list[str]) -> None:
        reader.lists.setdefault(key, []).extend(reader.adjacent_pairs(reader.cells(args)))

    return handle


def _numbered(key: str, default: int | None = None, *, table: bool = False) -> _Handler:
    def handle(reader: _Reader, args: list[str]) -> None:
        if args and re.fullmatch(r"-?\d{1,9}", args[0]):
            value, rest = int(args[0]), args[1:]
        elif default is not None:
            value, rest = default, args
        else:
            raise reader.fail("a number must come first")
        (reader.add_table if table else reader.add)(key, (value, reader.cells(rest)))

    return handle


def _flag(name: str) -> _Handler:
    def handle(reader: _Reader, args: list[str]) -> None:
        if any(args):
            raise reader.fail(f"{name} takes no argument")
        reader.flags.add(name)

    return handle


def _pair(all_pairs: bool, legacy: bool) -> _Handler:
    def handle(reader: _Reader, args: list[str]) -> None:
        if not args:
            raise reader.fail("a Pair needs a key")
        key = args[0].translate(str.maketrans("-_", "_-")) if legacy else args[0]
        allowed = _decode_key(key, reader.n)
        if allowed is None:
            raise reader.fail(f"{args[0]!r} is not a pair table")
        groups: list[list[int]] = [[]]
        for a in args[1:]:
            if not a or a.startswith("_"):
                groups.append([])
            else:
                groups[-1].append(reader.cell(a))
        pairs = []
        for g in groups:
            if all_pairs:
                pairs += [(a, b) for i, a in enumerate(g) for b in g[i + 1 :] if a != b]
            else:
                pairs += [(a, b) for a, b in zip(g, g[1:]) if a != b]
        reader.add("pairs", (allowed, pairs, "PairX" if all_pairs else "Pair"))

    return handle


#: One entry's rule, built alone to check it where it is read.
_CHECKS: dict[str, Callable[[Shape, Any], object]] = {
    "cages": lambda shape, e: killer_rule(shape, [e]),
    "sums": lambda shape, e: weighted_sums_rule(shape, [e]),
    "little killers": lambda shape, e: sum_lines_rule(shape, [e]),
    "arrows": lambda shape, e: arrow_rule(shape, [e]),
    "double arrows": lambda shape, e: double_arrow_rule(shape, [e]),
    "thermos": lambda shape, e: thermometer_rule(shape, [e]),
    "whispers": lambda shape, e: whisper_rule(shape, [e[1]], e[0]),
    "renban": lambda shape, e: renban_rules(shape, [e]),
    "palindromes": lambda shape, e: palindrome_rule(shape, [e]),
    "entropic": lambda shape, e: entropic_rule(shape, [e]),
    "modular": lambda shape, e: modular_rules(shape, [e[1]], e[0]),
    "zippers": lambda shape, e: zipper_rule(shape, [e]),
    "equal sums": lambda shape, e: equal_sums_rule(shape, [e]),
    "indexing": lambda shape, e: indexing_rules(shape, [e]),
}

#: The global table kinds, by flag (checked against the grid size where the flag is read).
_GLOBAL_KINDS: dict[str, Callable[[Shape], Sequence[Rule]]] = {
    "GlobalEntropy": lambda shape: (global_entropy_rule(shape),),
    "GlobalMod": lambda shape: (global_mod_rule(shape),),
    "DutchFlatmates": dutch_flatmates_rules,
}


def _thirds_flag(name: str) -> _Handler:
    """A flag whose rule splits the digits in three groups (a size divisible by 3)."""

    def handle(reader: _Reader, args: list[str]) -> None:
        if reader.n % 3:
            raise reader.fail(f"{name} needs a grid size divisible by 3")
        _flag(name)(reader, args)

    return handle


#: The constructors of the table kinds (a tuple of rules each), in the order they are built.
_TABLE_KINDS: dict[str, Callable[[Shape, list[Any]], Sequence[Rule]]] = {
    "between": lambda shape, lines: (between_rule(shape, lines),),
    "lockout": lockout_rules,
    "quads": quadruple_rules,
    "equality": equality_cage_rules,
    "rellik": rellik_cage_rules,
    "segment sums": segment_sum_rules,
    "look and say": look_and_say_rules,
    "lunchbox": lunchbox_rules,
    "x-sums": x_sum_rules,
    "skyscrapers": skyscraper_rules,
    "value indexing": value_indexing_rules,
}

_HANDLERS: dict[str, _Handler] = {
    "": _Reader.givens,
    "Shape": lambda reader, args: None,  # read first, by _Reader._shape
    "NoBoxes": _flag("NoBoxes"),
    "Jigsaw": _Reader.jigsaw,
    "Diagonal": _Reader.diagonal,
    "Windoku": _flag("windoku"),
    "AntiKnight": _flag("anti-knight"),
    "AntiKing": _flag("anti-king"),
    "DisjointSets": _flag("disjoint"),
    "AntiTaxicab": _flag("AntiTaxicab"),
    "AntiConsecutive": _flag("AntiConsecutive"),
    "StrictKropki": _flag("StrictKropki"),
    "StrictXV": _flag("StrictXV"),
    "AllDifferent": lambda reader, args: reader.units.append(
        ("all different", tuple(dict.fromkeys(reader.cells(args))))
    ),
    "Cage": _Reader.cage,
    "Sum": _Reader.sum,
    "LittleKiller": _Reader.little_killer,
    "Arrow": _Reader.arrow,
    "PillArrow": _Reader.pill_arrow,
    "DoubleArrow": _collect("double arrows", 3),
    "Thermo": _collect("thermos"),
    "WhiteDot": _marks("white"),
    "BlackDot": _marks("black"),
    "X": _marks("x"),
    "V": _marks("v"),
    "GreaterThan": _marks("greater"),
    "Sandwich": _Reader.outside,
    "Whisper": _numbered("whispers", 5),
    "Renban": _collect("renban"),
    "Palindrome": _collect("palindromes"),
    "Entropic": _collect("entropic"),
    "Modular": _numbered("modular"),
    "Zipper": _collect("zippers"),
    "RegionSumLine": _collect("region sum lines"),
    "EqualSum": _Reader.equal_sum,
    "SameValues": _Reader.same_values,
    "Indexing": _Reader.indexing,
    "NumberedRoom": _Reader.numbered_room,
    "Pair": _pair(all_pairs=False, legacy=False),
    "PairX": _pair(all_pairs=True, legacy=False),
    "Binary": _pair(all_pairs=False, legacy=True),
    "BinaryX": _pair(all_pairs=True, legacy=True),
    "Between": _collect("between", 3, table=True),
    "Lockout": _numbered("lockout", table=True),
    "Quad": _Reader.quad,
    "EqualityCage": _collect("equality", 2, table=True),
    "RellikCage": _numbered("rellik", table=True),
    "SumLine": _Reader.sum_line,
    "LookAndSay": _Reader.look_and_say,
    "Lunchbox": _numbered("lunchbox", table=True),
    "XSum": lambda reader, args: reader.outside_clues("x-sums", args),
    "Skyscraper": lambda reader, args: reader.outside_clues("skyscrapers", args),
    "ValueIndexing": _collect("value indexing", 3, table=True),
    "GlobalEntropy": _thirds_flag("GlobalEntropy"),
    "GlobalMod": _thirds_flag("GlobalMod"),
    "DutchFlatmates": _flag("DutchFlatmates"),
}

#: The ISS constraint kinds read (the others are refused by name).
ISS_KINDS = tuple(sorted(k for k in _HANDLERS if k))


def _little_killer_lines(n: int) -> dict[int, tuple[int, ...]]:
    """ISS's little killer diagonals by their first cell: from the left edge down-right,
    the right edge up-left, the top edge down-left and the bottom edge up-right."""
    out: dict[int, tuple[int, ...]] = {}
    seen: set[frozenset[int]] = set()

    def walk(r: int, c: int, dr: int, dc: int) -> None:
        cells = []
        while 0 <= r < n and 0 <= c < n:
            cells.append(r * n + c)
            r, c = r + dr, c + dc
        if len(cells) > 1 and frozenset(cells) not in seen:
            seen.add(frozenset(cells))
            out[cells[0]] = tuple(cells)

    for r in range(n - 1):
        walk(r, 0, 1, 1)
    for r in range(1, n - 1):
        walk(r, n - 1, -1, -1)
    for c in range(1, n):
        walk(0, c, 1, -1)
    for c in range(1, n - 1):
        walk(n - 1, c, -1, 1)
    return out


def iss_box(n: int) -> tuple[int, int] | None:
    """ISS's box for an n x n grid (rows, columns), as its geometry chooses it."""
    for small in range(int(n**0.5), 1, -1):
        if n % small == 0:
            return small, n // small
    return None


def iss_windows(n: int) -> tuple[tuple[int, ...], ...]:
    """ISS's windoku windows on an n x n grid: box-sized, one cell in from the top and left
    edges, one empty line between them, none touching the bottom or right edge (on a 6x6
    grid: one window, where the toolkit's windoku has two). Cells in row order."""
    box = iss_box(n)
    if box is None:
        return ()
    height, width = box
    return tuple(
        tuple(sorted((top + i) * n + left + j for i in range(height) for j in range(width)))
        for top in range(1, n - height, height + 1)
        for left in range(1, n - width, width + 1)
    )


_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _decode_key(key: str, n: int) -> frozenset[tuple[int, int]] | None:
    """The allowed (a, b) pairs of an ISS pair table: bit (a-1)*n + (b-1), six bits a
    character, least significant first; None for a character outside the alphabet."""
    if any(ch not in _B64 for ch in key):
        return None
    allowed = set()
    for bit in range(n * n):
        k, j = divmod(bit, 6)
        if k < len(key) and _B64.index(key[k]) >> j & 1:
            allowed.add((bit // n + 1, bit % n + 1))
    return frozenset(allowed)


def puzzle_from_iss(text: str) -> Puzzle:
    """The puzzle of one ISS string.

    Raises:
        IssError: for a malformed string or a constraint kind not supported, naming it,
            with the column of the item.
    """
    reader = None
    try:
        reader = _Reader(text)
        return reader.read()
    except (RuleError, ShapeError, ValueError) as exc:
        if isinstance(exc, IssError):
            raise
        raise IssError(str(exc), reader.column if reader else 1) from None


def iss_records(
    content: Iterable[tuple[int, str]], name: str, variants: Sequence[str] = ()
) -> Iterator[Record]:
    """One record per ISS string (one a line; blank and ``#`` lines skipped).

    ``variants`` are refused (an ISS string names its own rules): a record saying so.
    """
    from .record import Record

    for lineno, raw in content:
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            if variants:
                raise IssError("ISS strings name their own rules; drop --variant")
            puzzle = puzzle_from_iss(raw.rstrip("\r\n"))
        except IssError as exc:
            err = ParseError(
                f"iss: {exc}", source=name, line=lineno, column=exc.column, text=text[:120]
            )
            yield Record(name, lineno, text, None, err)
            continue
        yield Record(name, lineno, text, puzzle, None)
