"""Deciding how to read a source from its first lines: binary or text, the format (from the
name, a CSV header or a majority of the first content lines) and the alphabet."""

from __future__ import annotations

import math
import re

from ..errors import ParseError
from ..geometry import Shape
from ..gridtext import CELL_COUNTS, DEFAULT_ALPHABET, LETTER_ALPHABET, ZERO_BASED_ALPHABET, Alphabet
from ..gridtext import block_row as _block_row
from ..gridtext import cell_run as _cell_run
from ..gridtext import is_decoration_line as _is_decoration_line
from .csvformat import _csv_header_line
from .pencilmark import INFERRED_LENGTHS, looks_like_pm_row
from .record import _excerpt
from .sudokupad import looks_like_sudokupad

#: Content lines read before the format and the alphabet of a file are decided.
_SAMPLE_LINES = 24


def _classify(s: str, alphabet: Alphabet, shape: Shape | None) -> str:
    """What one stripped content line looks like: ``line``, ``block``, ``jsonl``,
    ``pencilmark``, ``pmgrid`` or ``other`` (a vote in the format decision)."""
    if s.startswith("{") and s.endswith("}"):
        return "jsonl"
    if '"' in s:
        return "other"  # no puzzle line or block row has quotes: JSON or CSV text
    if _is_decoration_line(s):
        return "block"
    run = s[: _cell_run(s, alphabet)]
    if (shape is None and len(run) in INFERRED_LENGTHS) or (
        shape is not None and len(run) == shape.size**3 != shape.cell_count
    ):
        return "pencilmark"  # n**3 characters (with a shape given: 4x4 too)
    if looks_like_pm_row(s, alphabet):
        return "pmgrid"
    cells, _ = _block_row(s)
    if shape is not None:
        if len(run) == shape.cell_count:
            return "line"
        return "block" if len(cells) == shape.size else "other"
    if any(ch in s for ch in "|+") or (" " in s and len(cells) <= 25 and len(run) < 16):
        return "block"
    if len(run) in CELL_COUNTS:
        if len(run) == 16:
            # 16 cells: a 4x4 puzzle on a line, or a row of a 16x16 block (values above 4).
            values = [alphabet.raw_value(ch) or 0 for ch in run]
            return "block" if max(values) > 4 else "line"
        return "line"
    if 4 <= len(run) <= 25 and len(run) == len(cells):
        return "block"
    return "other"


def _looks_like_iss(text: str) -> bool:
    """:func:`sudoku_model.formats.iss.looks_like_iss`, the ISS reader imported only for a
    line that starts with its ``.``."""
    rest = text.lstrip()
    if not rest.startswith("."):
        return False
    after = rest[1:].lstrip()[:1]
    if not (after == "~" or after.isalpha()):
        return False  # a puzzle line ("..1.3..."): not worth importing the reader
    from .iss import looks_like_iss

    return looks_like_iss(text)


def literal_format(text: str, alphabet: Alphabet, shape: Shape | None) -> str:
    """The format of one puzzle given as a literal line (a command-line argument): an
    f-puzzles, SudokuPad or ISS string, a pencilmark line, else a puzzle line (never a
    one-row block)."""
    s = text.strip()
    if looks_like_fpuzzles(s):
        return "fpuzzles"
    if looks_like_sudokupad(s):
        return "sudokupad"
    if _looks_like_iss(s):
        return "iss"
    return "pencilmark" if _classify(s, alphabet, shape) == "pencilmark" else "line"


def looks_like_fpuzzles(text: str) -> bool:
    """True for an f-puzzles link or its compressed ``load=`` string (``N4Ig...``)."""
    s = text.strip()
    return s.startswith("N4Ig") or "f-puzzles.com/?load=" in s


def _format_of_name(name: str) -> str | None:
    """The format a file name says (``.csv``, ``.jsonl``, ``.json``, gzipped or not)."""
    lower = name.lower().removesuffix(".gz")
    if lower.endswith(".csv"):
        return "csv"
    if lower.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if lower.endswith(".json"):
        return "json"
    return None


def _choose_format(
    content: list[tuple[int, str]], name: str, alphabet: Alphabet, shape: Shape | None
) -> str:
    """The format of a file from its name, else from a majority of its first content
    lines: one odd line (a title, a truncated puzzle, a separator) never decides it."""
    by_name = _format_of_name(name)
    if by_name is not None:
        return by_name
    first = content[0][1].strip()
    if looks_like_fpuzzles(first):
        return "fpuzzles"
    if looks_like_sudokupad(first):
        return "sudokupad"
    if _looks_like_iss(first):
        return "iss"
    if first.startswith("["):
        return "json"
    if _csv_header_line(first) is not None:
        return "csv"
    votes = {"line": 0, "block": 0, "jsonl": 0, "pencilmark": 0, "pmgrid": 0, "other": 0}
    for _, raw in content:
        votes[_classify(raw.strip(), alphabet, shape)] += 1
    if first.startswith("{"):
        if votes["jsonl"] * 2 > len(content):
            return "jsonl"
        if votes["line"] + votes["block"] <= votes["other"]:
            return "json"  # one object over several lines
    best = max(("line", "block", "pencilmark", "pmgrid"), key=lambda k: votes[k])
    if best in ("pencilmark", "pmgrid") and votes[best] > votes["line"]:
        return best
    return "block" if votes["block"] > votes["line"] else "line"


_TOKEN_SPLIT = re.compile(r"[\s,;:\"'\[\]{}]+")


def _sample_cells(
    fmt: str, content: list[tuple[int, str]], shape: Shape | None, alphabet: Alphabet
) -> tuple[int, list[tuple[int, str]]]:
    """The grid size the sample shows (0 when unknown) and its runs of cells with their
    line numbers."""
    runs: list[tuple[int, str]] = []
    sizes: dict[int, int] = {}
    counts = {shape.cell_count} if shape is not None else set(CELL_COUNTS)
    for lineno, raw in content:
        s = raw.strip()
        if fmt == "block":
            if _is_decoration_line(s):
                continue
            cells, _ = _block_row(s)
            if 4 <= len(cells) <= 25:
                runs.append((lineno, cells))
                sizes[len(cells)] = sizes.get(len(cells), 0) + 1
            continue
        tokens = [s[: _cell_run(s, alphabet)]] if fmt == "line" else _TOKEN_SPLIT.split(s)
        for tok in tokens:
            if len(tok) in counts:
                runs.append((lineno, tok))
                n = math.isqrt(len(tok))
                sizes[n] = sizes.get(n, 0) + 1
    if shape is not None:
        return shape.size, runs
    return (max(sizes, key=lambda k: sizes[k]) if sizes else 0), runs


def _evident_alphabet(n: int, runs: list[tuple[int, str]]) -> tuple[Alphabet, int, str] | None:
    """The alphabet other than the default that the cells show, with the line and the
    reason; None when they fit the default (or show nothing else)."""
    if n == 0 or not runs:
        return None
    chars = set("".join(r for _, r in runs).upper())
    first_line = runs[0][0]
    if n > 9:
        top = DEFAULT_ALPHABET.symbols[n - 1]  # G for 16x16
        if "0" in chars and chars & set("._-*") and top not in chars:
            why = f"'0' is a symbol (blanks are '.') and no '{top}' is given"
            return ZERO_BASED_ALPHABET, first_line, why
    beyond = sorted(
        ch for ch in chars if ch.isalpha() and (DEFAULT_ALPHABET.raw_value(ch) or 99) > n
    )
    if n in (16, 25) and beyond and not chars & set("123456789"):
        letters = set(LETTER_ALPHABET.symbols[:n])
        if chars <= letters | set(LETTER_ALPHABET.blanks):
            why = f"only letters, up to {max(chars & letters)!r}"
            return LETTER_ALPHABET, first_line, why
    return None


def _choose_alphabet(
    fmt: str,
    content: list[tuple[int, str]],
    shape: Shape | None,
    alphabet: Alphabet | None,
    name: str,
) -> Alphabet:
    """The alphabet to read with: the one given, or the one the file shows (``None``).

    Raises:
        ParseError: when the default alphabet is given but the file shows another one.
    """
    if alphabet is not None and alphabet is not DEFAULT_ALPHABET:
        return alphabet
    if fmt in ("json", "pencilmark", "pmgrid"):
        return DEFAULT_ALPHABET
    n, runs = _sample_cells(fmt, content, shape, DEFAULT_ALPHABET)
    found = _evident_alphabet(n, runs)
    if found is None:
        return DEFAULT_ALPHABET
    other, lineno, why = found
    if alphabet is None:
        return other
    label = {ZERO_BASED_ALPHABET: "0-F", LETTER_ALPHABET: "A-P" if n <= 16 else "A-Y"}[other]
    raise ParseError(
        f"a {n}x{n} file in another alphabet: {why}; read it with --alphabet {label} "
        f"(alphabet=ALPHABETS[{label!r}]), or give the alphabet it is in",
        source=name,
        line=lineno,
        column=1,
        text=_excerpt(dict(content)[lineno].rstrip("\r\n"), 1),
    )


def _binary_check(sample: list[tuple[int, str]], name: str) -> None:
    """Refuse input whose first characters are mostly control characters or bytes that are
    not UTF-8: binary data, not puzzle text."""
    seen = 0
    bad = 0
    where: tuple[int, int] | None = None
    for lineno, raw in sample:
        for col, ch in enumerate(raw[:8192], start=1):
            seen += 1
            if ch == "\ufffd" or (ch < " " and ch not in "\t\n\r\f\v") or ch == "\x7f":
                bad += 1
                if where is None:
                    where = (lineno, col)
        if seen >= 8192:
            break
    if where is not None and bad * 10 > seen:
        lineno, col = where
        raise ParseError(
            f"binary data, not puzzle text ({bad} of the first {seen} characters are control "
            "characters or bytes that are not UTF-8)",
            source=name,
            line=lineno,
            column=col,
        )


def _first_line_decides(first: str, fmt: str, alphabet: Alphabet | None) -> bool:
    """True when nothing after the first content line can change how the input is read:
    the format is given, and so is the alphabet or the line is no longer than a 9x9 grid
    (no alphabet to infer). Reading stops there before the first record, so a pipe is
    answered line by line (``sudoku solve - --format line``) instead of after a sample."""
    if fmt == "auto":
        return False
    return alphabet is not None or len(first.split(maxsplit=1)[0]) <= 81
