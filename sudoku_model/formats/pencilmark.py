"""Pencilmark (candidate) puzzles as text: the n**3-character line and the PM grid.

* **pencilmark**: one puzzle per line, n**3 characters (729 for 9x9): character
  ``n*cell + d`` is the symbol of digit ``d + 1`` while it is a candidate of the cell, a
  blank (``.`` or ``0``) once eliminated; cells row-major. Text after the characters,
  separated by white space or one of ``# ; : ,``, is the record's comment, as in the line
  format.
* **pmgrid**: n rows of n candidate strings separated by white space (HoDoKu and Sudoku
  Explainer print them), ``|`` and ``:`` between boxes, separator lines (``+---``,
  ``.---.``, ``*---*``) ignored; several grids are separated by blank lines or simply
  follow each other.

A puzzle read is :meth:`~sudoku_model.Puzzle.from_candidates` of its sets; a cell with no
candidate is a malformed record (file, line and column), never an exception.

>>> line = "1..." * 4 + ".2.." * 12
>>> p = read_pencilmark_line(line[:64])
>>> p.givens.values[:5], p.candidates[4]
((1, 1, 1, 1, 2), frozenset({2}))
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from ..errors import ParseError, ShapeError
from ..geometry import SUPPORTED_SIZES, Shape, shape_for_size
from ..gridtext import CELL_COUNTS, COMMENT_SEPARATORS, DEFAULT_ALPHABET, Alphabet, cell_run
from ..puzzle import Puzzle, rules_without_candidates
from ..rules import RuleSet
from .lines import _content_lines, _published_in_comment
from .record import Record, _rules

__all__ = [
    "PENCILMARK_LENGTHS",
    "format_pencilmark_line",
    "format_pmgrid",
    "read_pencilmark_line",
    "read_pmgrid",
    "rules_without_candidates",
]


def _box_sizes() -> dict[int, Shape]:
    out = {}
    for n in SUPPORTED_SIZES:
        try:
            out[n**3] = shape_for_size(n)
        except ShapeError:
            continue  # a prime size: no box shape
    return out


#: Line lengths of the pencilmark format (n**3) and the shape each stands for.
PENCILMARK_LENGTHS: dict[int, Shape] = _box_sizes()
#: The lengths ``auto`` reads as pencilmark lines: all but 64 (a 4x4 pencilmark line has
#: the length of an 8x8 puzzle line; read it with ``fmt="pencilmark"``).
INFERRED_LENGTHS = frozenset(k for k in PENCILMARK_LENGTHS if k not in CELL_COUNTS)


# -- the line ------------------------------------------------------------------------------
def _line_sets(
    text: str, shape: Shape | None, alphabet: Alphabet, source: str, line: int
) -> tuple[Shape, list[set[int]], int, str]:
    """The shape, candidate sets, 1-based column of the first character and comment of
    one pencilmark line."""
    body = text.rstrip("\r\n")
    stripped = body.lstrip()
    indent = len(body) - len(stripped)
    run = cell_run(stripped, alphabet)
    chars = stripped[:run]
    rest = stripped[run:]
    comment = rest.strip(COMMENT_SEPARATORS + "\r") if rest else ""
    column = indent + 1
    count = len(chars)
    if shape is None:
        shape = PENCILMARK_LENGTHS.get(count)
        if shape is None:
            known = ", ".join(f"{k} ({s.size}x{s.size})" for k, s in PENCILMARK_LENGTHS.items())
            raise ParseError(
                f"{count} characters is no pencilmark line; lengths n**3: {known}",
                source=source,
                line=line,
                column=column + min(count, 729),
                text=body,
            )
    elif count != shape.size**3:
        what = "too few" if count < shape.size**3 else "too many"
        raise ParseError(
            f"{count} characters, {what}: a {shape.name} pencilmark line has {shape.size**3}",
            source=source,
            line=line,
            column=column + min(count, shape.size**3),
            text=body,
        )
    n = shape.size
    blanks = alphabet.blanks
    sets: list[set[int]] = []
    for cell in range(shape.cell_count):
        digits = set()
        for d in range(n):
            ch = chars[n * cell + d]
            if ch in blanks:
                continue
            if alphabet.value_of(ch, n) != d + 1:
                where = column + n * cell + d
                expected = alphabet.symbol(d + 1)
                raise ParseError(
                    f"{ch!r} at {shape.cell_name(cell)}, place of digit {d + 1}: "
                    f"expected {expected!r} (a candidate) or a blank (eliminated)",
                    source=source,
                    line=line,
                    column=where,
                    text=body,
                )
            digits.add(d + 1)
        if not digits:
            raise ParseError(
                f"{shape.cell_name(cell)} has no candidate",
                source=source,
                line=line,
                column=column + n * cell,
                text=body,
            )
        sets.append(digits)
    return shape, sets, column, comment


def read_pencilmark_line(
    text: str,
    *,
    shape: Shape | None = None,
    alphabet: Alphabet = DEFAULT_ALPHABET,
    rules: RuleSet | None = None,
    source: str = "<string>",
    line: int = 1,
) -> Puzzle:
    """The pencilmark puzzle of one line (its comment ignored).

    Raises:
        ParseError: for a length that is no n**3 (or not the shape's), a character that
            is neither its digit nor a blank, or a cell with no candidate.
    """
    shp, sets, _, _ = _line_sets(text, shape, alphabet, source, line)
    return Puzzle.from_candidates(sets, shape=shp, rules=rules)


def format_pencilmark_line(
    puzzle: Puzzle, *, blank: str = ".", alphabet: Alphabet = DEFAULT_ALPHABET
) -> str:
    """The n**3-character line of a puzzle's candidates (a plain puzzle's givens are one
    candidate, its empty cells all n)."""
    n = puzzle.size
    symbols = alphabet.symbols[:n]
    return "".join(
        "".join(symbols[d] if d + 1 in digits else blank for d in range(n))
        for digits in puzzle.candidates
    )


# -- the PM grid ---------------------------------------------------------------------------
_PM_DECORATION = frozenset(".-+=:|'* \t*")
_TOKEN = re.compile(r"[^\s|:]+")


def _is_pm_decoration(text: str) -> bool:
    """A separator line of a PM grid: only ``. - + = : | ' *`` and spaces, with a dash or
    an equals sign."""
    s = text.strip()
    return bool(s) and ("-" in s or "=" in s) and all(ch in _PM_DECORATION for ch in s)


def pm_row(text: str) -> list[tuple[int, str]]:
    """The candidate strings of one PM grid row with the 1-based column of each."""
    return [(m.start() + 1, m.group()) for m in _TOKEN.finditer(text.rstrip("\r\n"))]


def looks_like_pm_row(text: str, alphabet: Alphabet = DEFAULT_ALPHABET) -> bool:
    """Whether a line reads as a PM grid row: n (4..25) candidate strings of distinct
    symbols of digits up to n, at least one with several candidates."""
    tokens = [t for _, t in pm_row(text)]
    n = len(tokens)
    if not 4 <= n <= 25 or all(len(t) == 1 for t in tokens):
        return False
    for t in tokens:
        values = [alphabet.value_of(ch, n) for ch in t]
        if None in values or len(set(values)) != len(values):
            return False
    return True


def _row_sets(
    raw: str, row: int, shape: Shape, alphabet: Alphabet, source: str, lineno: int
) -> list[set[int]]:
    """The candidate sets of PM grid row ``row`` (0-based)."""
    text = raw.rstrip("\r\n")
    tokens = pm_row(text)
    n = shape.size
    if len(tokens) != n:
        col = tokens[min(len(tokens), n) - 1][0] if tokens else 1
        raise ParseError(
            f"{len(tokens)} candidate strings in a row of a {n}x{n} PM grid",
            source=source,
            line=lineno,
            column=col,
            text=text,
        )
    sets = []
    for k, (col, token) in enumerate(tokens):
        digits = set()
        for i, ch in enumerate(token):
            v = alphabet.value_of(ch, n)
            if not v and ch in alphabet.blanks:
                continue  # a blank: no candidate
            if v is None:
                raw_v = alphabet.raw_value(ch)
                msg = (
                    f"value {raw_v} ({ch!r}) is above {n} for a {n}x{n} grid"
                    if raw_v
                    else f"bad candidate symbol {ch!r}"
                )
                raise ParseError(msg, source=source, line=lineno, column=col + i, text=text)
            digits.add(v)
        if not digits:
            raise ParseError(
                f"{shape.cell_name(row * n + k)} has no candidate",
                source=source,
                line=lineno,
                column=col,
                text=text,
            )
        sets.append(digits)
    return sets


def read_pmgrid(
    lines: Sequence[str],
    *,
    shape: Shape | None = None,
    alphabet: Alphabet = DEFAULT_ALPHABET,
    rules: RuleSet | None = None,
    source: str = "<string>",
    first_line: int = 1,
) -> Puzzle:
    """The pencilmark puzzle of one PM grid (separator lines included or not).

    Raises:
        ParseError: for a row of another length, a wrong number of rows, a symbol that is
            no digit up to n, or a cell with no candidate.
    """
    records = list(
        _pmgrid_records(
            enumerate(lines, first_line), source, shape, alphabet, (), rules=rules, single=True
        )
    )
    if not records:
        raise ParseError("no PM grid found", source=source, line=first_line, column=1)
    rec = records[0]
    if rec.error is not None:
        raise rec.error
    assert rec.puzzle is not None
    return rec.puzzle


def format_pmgrid(
    puzzle: Puzzle, *, separators: bool = True, alphabet: Alphabet = DEFAULT_ALPHABET
) -> str:
    """The PM grid of a puzzle's candidates: n rows of n candidate strings padded to one
    width per column of boxes, with ``|`` between boxes and a ``-+-`` line between bands
    (``separators``)."""
    shape = puzzle.shape
    n = shape.size
    cands = puzzle.candidates
    symbols = alphabet.symbols
    texts = ["".join(symbols[d - 1] for d in sorted(ds)) for ds in cands]
    widths = [max(len(texts[r * n + c]) for r in range(n)) for c in range(n)]
    bands = range(0, n, shape.box_cols) if separators else range(0, n, n)
    step = shape.box_cols if separators else n
    out = []
    for r in range(n):
        groups = [
            " ".join(texts[r * n + c].ljust(widths[c]) for c in range(b, b + step)) for b in bands
        ]
        if separators and r and r % shape.box_rows == 0:
            out.append("-+-".join("-" * len(g) for g in groups))
        out.append(" | ".join(groups).rstrip())
    return "\n".join(out)


# -- readers -------------------------------------------------------------------------------
def _pencilmark_records(
    lines: Iterable[tuple[int, str]],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
) -> Iterator[Record]:
    """One record per pencilmark line (its comment kept, a solution in it read as the
    line format reads one)."""
    for lineno, text, _ in _content_lines(lines):
        try:
            shp, sets, _, comment = _line_sets(text, shape, alphabet, name, lineno)
            rules = _rules(shp, variants, None)
            puzzle = Puzzle.from_candidates(sets, shape=shp, rules=rules)
        except ParseError as exc:
            yield Record(name, lineno, text, None, exc)
            continue
        except (ValueError, ShapeError) as exc:
            err = ParseError(str(exc), source=name, line=lineno, column=1, text=text)
            yield Record(name, lineno, text, None, err)
            continue
        solution = _published_in_comment(comment, shp, alphabet) if comment else None
        yield Record(name, lineno, text, puzzle, None, comment, solution)


def _pmgrid_records(
    lines: Iterable[tuple[int, str]],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
    *,
    rules: RuleSet | None = None,
    single: bool = False,
) -> Iterator[Record]:
    """One record per PM grid: n rows (n = the strings of its first row, or the shape's
    size) of candidate strings; separator lines skipped, a blank line ends a grid that is
    not complete (a malformed record)."""
    rows: list[tuple[int, str]] = []
    texts: list[str] = []
    n = 0

    def flush() -> Record:
        start = rows[0][0]
        text = "\n".join(texts)
        try:
            if len(rows) != n:
                last, raw = rows[-1]
                raise ParseError(
                    f"{len(rows)} rows, a {n}x{n} PM grid has {n}",
                    source=name,
                    line=last,
                    column=1,
                    text=raw.rstrip("\r\n"),
                )
            shp = shape if shape is not None else shape_for_size(n)
            sets = []
            for r, (lineno, raw) in enumerate(rows):
                sets.extend(_row_sets(raw, r, shp, alphabet, name, lineno))
            base = rules if rules is not None else _rules(shp, variants, None)
            puzzle = Puzzle.from_candidates(sets, shape=shp, rules=base)
        except ParseError as exc:
            return Record(name, start, text, None, exc)
        except (ValueError, ShapeError) as exc:
            err = ParseError(str(exc), source=name, line=start, column=1, text=text)
            return Record(name, start, text, None, err)
        return Record(name, start, text, puzzle)

    for lineno, raw in lines:
        s = raw.strip()
        if s.startswith("#"):
            continue
        if not s:
            if rows:
                yield flush()
                if single:
                    return
                rows, texts = [], []
            continue
        if _is_pm_decoration(s):
            if rows:
                texts.append(raw.rstrip("\r\n"))
            continue
        if not rows:
            n = shape.size if shape is not None else len(pm_row(raw))
        rows.append((lineno, raw))
        texts.append(raw.rstrip("\r\n"))
        if len(rows) == n:
            yield flush()
            if single:
                return
            rows, texts = [], []
    if rows:
        yield flush()


def record_line(puzzle: Puzzle, alphabet: Alphabet | None = None) -> tuple[str, RuleSet]:
    """What a result record writes of a pencilmark puzzle: its candidates line and the
    rules beside the candidates (:func:`rules_without_candidates`)."""
    line = format_pencilmark_line(puzzle, alphabet=alphabet or DEFAULT_ALPHABET)
    return line, rules_without_candidates(puzzle.rules)


def clue_names(puzzle: Puzzle, clues: Iterable[int]) -> list[str]:
    """Names of a puzzle's clues: cells (``r1c1``) of a plain puzzle, eliminations
    ``r1c1<>5`` of a pencilmark puzzle, given as positions ``n*cell + digit - 1`` of its
    line (what :func:`sudoku_model.verify.redundant_eliminations` returns)."""
    shape = puzzle.shape
    if not puzzle.is_pencilmark:
        return [shape.cell_name(c) for c in clues]
    n = shape.size
    return [f"{shape.cell_name(k // n)}<>{k % n + 1}" for k in clues]
