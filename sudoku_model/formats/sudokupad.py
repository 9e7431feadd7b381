"""SudokuPad links and payloads: the ``fpuzzles``, ``ctc``, ``scl`` and ``scf`` encodings.

A SudokuPad link (``https://sudokupad.app/<payload>``, ``...?puzzleid=<payload>``, the
Cracking the Cryptic app's ``/sudoku/<payload>``) carries the puzzle in its payload,
named by a prefix:

* ``fpuzzles`` + lz-string (base64) of an f-puzzles object: read by the f-puzzles reader
  (:func:`sudoku_model.variant_formats.puzzle_from_fpuzzles`), every constraint it knows;
* ``ctc`` + lz-string of SudokuPad's own JSON (cells, regions, cages, lines, arrows,
  overlays, underlays, metadata);
* ``scl`` + lz-string of the same JSON "zipped": keys shortened (``ce`` for ``cells``,
  ``re`` for ``regions``, ``ca`` for ``cages``, ``v`` for ``value``...), keys unquoted,
  single quotes, ``t``/``f`` for true/false, ``#0``/``#F`` and bare hex for colours,
  empty objects left out;
* ``scf``, SudokuPad's legacy compact text (no lz-string) for 9x9 classic, windoku and
  X-sudoku: ``scf<givens>[*<constraints>]``. Each character of the givens is a cell and
  the blanks after it: its value ``v`` (``0-9`` for 0-9, ``A-Z`` for 10-35, ``a-z`` for
  36-61) is the digit ``v % 10`` (0 for a blank) followed by ``v // 10`` blanks, row by
  row; the givens fill exactly 81 cells (blanks the last character adds past the 81st
  are ignored, as SudokuPad does). The constraint letters are ``w`` (windoku: four
  extra 3x3 windows, rows and columns 2-4 and 6-8), ``x`` (X-sudoku: both main
  diagonals), ``t<title>*`` and ``a<author>*`` (a literal ``*`` doubled, a ``*`` between
  entries allowed, as in ``**a<author>`` from SudokuPad's encoder); without a
  ``*`` the letters follow the 81st cell directly. Title and author are skipped; any
  other letter is refused as an element the toolkit does not read.

SudokuPad's JSON stores what it draws: givens, regions and cages say what they mean
(a cage's ``value`` is its sum), but thermometers, arrows, dots, whispers and the rest are
lines and shapes whose rule the file does not record. The reader maps givens, regions
(boxes or jigsaw), killer cages (a numeric value; a cage without value is a region of
different digits) and the published solution (``metadata.solution``, or a cage without
cells whose value reads ``solution: ...``); a puzzle with any other element (lines,
arrows, overlays, underlays, given pencil marks) is refused, its message listing them.
Cages without cells are metadata (title, author, rules) and are skipped, as are empty
lists. A short puzzle id (``sudokupad.app/abc12xyz``, no prefix) names a puzzle stored on
the SudokuPad server: it is refused with a message (the toolkit never downloads).

>>> payload_kind("https://sudokupad.app/scl" + "A" * 8)
'scl'
>>> givens, variants = decode_scf("scf" + "o" * 13 + "K*xtA**B")  # 13 x (0 + 5 blanks), 0 + 2
>>> len(givens), givens.count("0"), variants
(81, 81, ('diagonal',))
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import unquote

from ..errors import ShapeError
from ..geometry import MAX_SIZE, MIN_SIZE, Shape, shape_for_size
from ..grid import Grid
from ..puzzle import Puzzle
from ..rules import AllDifferent, Rule, RuleError, RuleSet, killer_rule
from .record import Record, one_puzzle_a_line

__all__ = [
    "PREFIXES",
    "decode_scf",
    "looks_like_sudokupad",
    "payload_kind",
    "puzzle_from_sudokupad",
    "sudokupad_records",
    "unzip_scl",
]

#: The payload prefixes, longest first (``fpuzzles`` before anything shorter).
PREFIXES = ("fpuzzles", "ctc", "scl", "scf")

_HOSTS = ("sudokupad.app/", "app.crackingthecryptic.com/", "sudokupad.svencodes.com/")

#: The long names of the zipped (``scl``) keys.
_LONG_KEYS = {
    "c": "color",
    "ca": "cages",
    "ct": "center",
    "c1": "borderColor",
    "c2": "backgroundColor",
    "ce": "cells",
    "cs": "cellSize",
    "a": "arrows",
    "o": "overlays",
    "u": "underlays",
    "w": "width",
    "h": "height",
    "v": "value",
    "vd": "videos",
    "l": "lines",
    "r": "rounded",
    "re": "regions",
    "fs": "fontSize",
    "th": "thickness",
    "hl": "headLength",
    "wp": "wayPoints",
    "t": "title",
    "te": "text",
    "d": "duration",
    "d2": "d",
}

#: Elements that carry a rule the file does not state (drawn shapes), refused when present.
_DRAWN = ("lines", "arrows", "overlays", "underlays")


def _variant_formats() -> Any:
    """:mod:`sudoku_model.variant_formats` (lz-string, the f-puzzles reader), imported when
    a payload is decoded, not when a file's format is sniffed."""
    from .. import variant_formats

    return variant_formats


def _strip_link(text: str) -> str:
    """The payload of a link (or the text itself when it is no link), URL-decoded."""
    s = text.strip()
    if "puzzleid=" in s:
        s = s.split("puzzleid=", 1)[1].split("&", 1)[0]
    else:
        for host in _HOSTS:
            if host in s:
                s = s.split(host, 1)[1].split("?", 1)[0].split("#", 1)[0]
                if s.startswith("sudoku/"):  # the Cracking the Cryptic app
                    s = s[len("sudoku/") :]
                break
    return unquote(s)


def looks_like_sudokupad(text: str) -> bool:
    """True for a SudokuPad link, or a payload with one of :data:`PREFIXES` (an ``scf``
    title or author after its ``*`` may hold spaces)."""
    s = text.strip()
    if any(host in s for host in _HOSTS) or "puzzleid=" in s:
        return True
    head = s.split("*", 1)[0] if s.startswith("scf") else s
    return any(s.startswith(p) for p in PREFIXES) and len(s) > 16 and " " not in head


def payload_kind(text: str) -> str | None:
    """The prefix that names the payload of a link or payload (:data:`PREFIXES`), or None
    when it has none (a short puzzle id)."""
    s = _strip_link(text)
    return next((p for p in PREFIXES if s.startswith(p)), None)


def _lz(text: str) -> str:
    """lz-string's base64 decompression, accepting the URI-safe alphabet too."""
    s = text.strip()
    if "-" in s and "/" not in s:  # compressToEncodedURIComponent: '-' for '/', no padding
        s = s.replace("-", "/").replace("$", "")
    out = _variant_formats().decompress_lz_base64(s)
    if not out:
        raise ValueError("the payload decompresses to nothing")
    return out


_QUOTED = re.compile(r'"(?:\\.|[^"\\])*"')
_MARK = re.compile(r'"\x00(\d+)\x00"')


def unzip_scl(zipped: str) -> Any:
    """SudokuPad's zipped JSON (the text inside an ``scl`` payload) as ordinary JSON data
    with the long key names.

    Raises:
        ValueError: when the text is not zipped JSON.
    """
    s = zipped
    if '"' not in s:  # single quotes stand for double quotes; \' for a quote in a string
        s = s.replace("\\'", "\x01").replace("'", '"').replace("\x01", "'")
    strings: list[str] = []

    def keep(m: re.Match[str]) -> str:
        strings.append(m.group(0))
        return f'"\x00{len(strings) - 1}\x00"'

    s = _QUOTED.sub(keep, s)  # the rewrites below must not touch the text of strings
    s = re.sub(r"([,{\[])([a-zA-Z0-9]+):", r'\1"\2":', s)
    s = re.sub(r"([,{\[])(?=[,}\]])", r"\1{}", s)  # an empty object left out
    s = re.sub(r":f(?=[,}\]])", ":false", s)
    s = re.sub(r":t(?=[,}\]])", ":true", s)
    s = re.sub(r":#0(?=[,}\]])", ':"#000000"', s)
    s = re.sub(r":#F(?=[,}\]])", ':"#FFFFFF"', s)
    s = re.sub(r":([0-9a-fA-F]{6})(?=[,}\]])", r':"#\1"', s)
    s = _MARK.sub(lambda m: strings[int(m.group(1))], s)
    try:
        data = json.loads(s)
    except ValueError as exc:
        raise ValueError(f"the scl payload is not zipped JSON ({exc})") from None
    return _long_keys(data, 0)


def _long_keys(obj: Any, depth: int) -> Any:
    if depth > 64:
        raise ValueError("the puzzle JSON nests too deep")
    if isinstance(obj, list):
        return [_long_keys(v, depth + 1) for v in obj]
    if isinstance(obj, dict):
        return {_LONG_KEYS.get(k, k): _long_keys(v, depth + 1) for k, v in obj.items()}
    return obj


#: The cells of an ``scf`` grid (always 9x9 with 3x3 boxes).
_SCF_CELLS = 81

#: The ``scf`` constraint letters the toolkit reads, and the variant each one names.
_SCF_VARIANTS = {"w": "windoku", "x": "diagonal"}


def _scf_value(ch: str) -> int:
    """The value of one ``scf`` givens character (``0-9`` 0-9, ``A-Z`` 10-35, ``a-z``
    36-61), or -1 when it is none of them."""
    if "0" <= ch <= "9":
        return ord(ch) - ord("0")
    if "A" <= ch <= "Z":
        return ord(ch) - ord("A") + 10
    if "a" <= ch <= "z":
        return ord(ch) - ord("a") + 36
    return -1


def _scf_givens(data: str, stop_at_81: bool) -> tuple[str, str]:
    """The 81 digits (``0`` for a blank) the givens characters of ``data`` encode, and
    the rest of ``data`` when ``stop_at_81`` (the constraint letters of a payload without
    ``*``).

    Raises:
        ValueError: for a character outside the alphabet, givens that fill fewer than 81
            cells, or (``stop_at_81`` false) a character past the 81st cell.
    """
    cells: list[str] = []
    for k, ch in enumerate(data):
        if len(cells) >= _SCF_CELLS:
            if stop_at_81:
                return "".join(cells[:_SCF_CELLS]), data[k:]
            raise ValueError(f"the scf givens run past the 81st cell at character {k + 1} ({ch!r})")
        v = _scf_value(ch)
        if v < 0:
            raise ValueError(f"the scf givens: character {k + 1} ({ch!r}) is not in 0-9A-Za-z")
        cells.append(str(v % 10))
        cells.extend("0" * (v // 10))
    if len(cells) < _SCF_CELLS:
        raise ValueError(f"the scf givens fill {len(cells)} cells, not 81")
    return "".join(cells[:_SCF_CELLS]), ""


def _scf_constraints(text: str) -> tuple[tuple[str, ...], list[str]]:
    """The variants the constraint letters of an ``scf`` payload name (in the order of
    :data:`_SCF_VARIANTS`), and the letters the toolkit does not read; a title (``t``) or
    author (``a``) runs to the next single ``*`` (``**`` is a literal star) and is
    skipped, as is a ``*`` between entries."""
    found: set[str] = set()
    unknown: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        i += 1
        if ch == "*":  # SudokuPad's encoder writes "*a<author>" even after no title
            continue
        if ch in _SCF_VARIANTS:
            found.add(_SCF_VARIANTS[ch])
        elif ch in "at":
            while i < len(text):
                if text.startswith("**", i):
                    i += 2
                elif text[i] == "*":
                    i += 1
                    break
                else:
                    i += 1
        elif ch not in unknown:
            unknown.append(ch)
    variants = tuple(v for v in _SCF_VARIANTS.values() if v in found)
    return variants, unknown


def decode_scf(text: str) -> tuple[str, tuple[str, ...]]:
    """The givens (81 digits, ``0`` for a blank, row by row) and the variants
    (``"windoku"``, ``"diagonal"``) of an ``scf`` payload, with or without its prefix
    (module notes).

    Raises:
        ValueError: for givens that are not 81 cells of the scf alphabet, or constraint
            letters the toolkit does not read (listed).
    """
    s = text[3:] if text.startswith("scf") else text
    if "*" in s:
        data, constraints = s.split("*", 1)
        givens, _ = _scf_givens(data, stop_at_81=False)
    else:
        givens, constraints = _scf_givens(s, stop_at_81=True)
    variants, unknown = _scf_constraints(constraints)
    if unknown:
        letters = ", ".join(repr(ch) for ch in unknown)
        noun = "letter" if len(unknown) == 1 else "letters"
        raise ValueError(
            f"elements the toolkit does not read: the scf constraint {noun} {letters} "
            "(it reads w for windoku, x for X-sudoku, and skips t<title>* and a<author>*)"
        )
    return givens, variants


def _scf_puzzle(text: str) -> tuple[Puzzle, Grid | None]:
    givens, variants = decode_scf(text)
    shape = shape_for_size(9)
    rules = RuleSet.build(shape, variants)
    return Puzzle(Grid(shape, [int(ch) for ch in givens]), rules), None


def decode_payload(text: str) -> tuple[str, Any]:
    """The kind and the decoded object of a link or payload: ``("fpuzzles", f-puzzles
    object)``, ``("ctc", SudokuPad JSON)`` (``scl`` unzipped to the same JSON) or
    ``("scf", payload text)`` (read by :func:`decode_scf`).

    Raises:
        ValueError: for a short id, or a payload that does not decode.
    """
    s = _strip_link(text)
    kind = payload_kind(s)
    if kind is None:
        raise ValueError(
            f"{s[:24]!r} is a short SudokuPad puzzle id: its puzzle is stored on the "
            "SudokuPad server, which the toolkit does not contact; use a link whose "
            "payload starts with fpuzzles, ctc, scl or scf"
        )
    if kind == "scf":
        return kind, s
    body = _lz(s[len(kind) :])
    if kind == "fpuzzles":
        return kind, json.loads(body)
    if kind == "scl":
        return "ctc", unzip_scl(body)
    return "ctc", json.loads(body)


def _digit(raw: Any, n: int, what: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        raise ValueError(f"{what}: {_variant_formats()._short_json(raw)} is not a digit")
    try:
        v = int(raw)
    except ValueError:
        raise ValueError(f"{what}: {raw!r} is not a digit") from None
    if not 1 <= v <= n:
        raise ValueError(f"{what}: {v} is outside 1..{n}")
    return v


def _rc(raw: Any, n: int, what: str) -> int:
    """A cell from SudokuPad's ``[row, col]`` (0-based) or ``"r1c1"`` text."""
    if isinstance(raw, str):
        m = re.fullmatch(r"[rR](\d+)[cC](\d+)", raw.strip())
        if not m:
            raise ValueError(f"{what}: {raw!r} is not a cell")
        r, c = int(m.group(1)) - 1, int(m.group(2)) - 1
    elif (
        isinstance(raw, list)
        and len(raw) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        r, c = raw
    else:
        raise ValueError(f"{what}: {_variant_formats()._short_json(raw)} is not a cell")
    if not (0 <= r < n and 0 <= c < n):
        raise ValueError(f"{what}: r{r + 1}c{c + 1} is outside the {n}x{n} grid")
    return r * n + c


def _list(obj: Mapping[str, Any], key: str) -> list[Any]:
    v = obj.get(key)
    if v is None:
        return []
    if not isinstance(v, list):
        raise ValueError(f'"{key}" must be a list')
    return v


def _shape_of(n: int, labels: Sequence[int] | None) -> tuple[Shape, bool]:
    """The grid's shape, and whether its regions are its boxes (False: jigsaw)."""
    if labels is None:
        return shape_for_size(n), True
    for rows in range(1, n + 1):
        if n % rows:
            continue
        try:
            shape = Shape(rows, n // rows)
        except ShapeError:
            continue
        boxes = [shape.box_of(c) for c in range(n * n)]
        first: dict[int, int] = {}
        if all(first.setdefault(lab, b) == b for lab, b in zip(labels, boxes)) and len(
            first
        ) == len(set(first.values())):
            return shape, True
    try:
        return shape_for_size(n), False
    except ShapeError:
        raise ValueError(f"a {n}x{n} grid: the toolkit needs a size with a box shape") from None


def _ctc_puzzle(obj: Any) -> tuple[Puzzle, Grid | None]:
    if not isinstance(obj, dict) or not isinstance(obj.get("cells"), list):
        raise ValueError('a SudokuPad puzzle needs "cells"')
    rows = obj["cells"]
    n = len(rows)
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise ValueError(f"a grid of {n} rows is outside 4..25")
    if any(not isinstance(row, list) or len(row) != n for row in rows):
        raise ValueError(f'"cells" must be {n} rows of {n} cells (a square grid)')
    unsupported = [f"{len(obj[k])} {k}" for k in _DRAWN if isinstance(obj.get(k), list) and obj[k]]
    values = [0] * (n * n)
    marks = 0
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell is None:
                continue
            if not isinstance(cell, dict):
                raise ValueError(f"cell r{r + 1}c{c + 1} is not an object")
            if cell.get("value") not in (None, ""):
                values[r * n + c] = _digit(cell["value"], n, f"cell r{r + 1}c{c + 1}")
            if any(cell.get(k) for k in ("pencilMarks", "centremarks", "cornermarks")):
                marks += 1
    if marks:
        unsupported.append(f"{marks} cells with given pencil marks")
    labels: list[int] | None = None
    regions = _list(obj, "regions")
    if regions:
        labels = [-1] * (n * n)
        for k, region in enumerate(regions):
            if not isinstance(region, list):
                raise ValueError(f"region {k + 1} is not a list of cells")
            for raw in region:
                cell = _rc(raw, n, f"region {k + 1}")
                if labels[cell] != -1:
                    raise ValueError(f"regions {labels[cell] + 1} and {k + 1} share a cell")
                labels[cell] = k
        if len(regions) != n or -1 in labels:
            raise ValueError(f"the regions must tile the grid: {n} regions of {n} cells")
    shape, boxes = _shape_of(n, labels)
    cages: list[tuple[list[int], int]] = []
    plain: list[tuple[int, ...]] = []
    solution_text = None
    meta = obj.get("metadata")
    if isinstance(meta, dict) and isinstance(meta.get("solution"), str):
        solution_text = meta["solution"]
    for k, cage in enumerate(_list(obj, "cages"), 1):
        if not isinstance(cage, dict):
            raise ValueError(f"cage {k} is not an object")
        raw_cells = _list(cage, "cells")
        value = cage.get("value")
        if not raw_cells:  # metadata: "title: ...", "solution: ..."
            if isinstance(value, str) and value.startswith("solution:"):
                solution_text = value.split(":", 1)[1].strip()
            continue
        cells = [_rc(raw, n, f"cage {k}") for raw in raw_cells]
        if value in (None, ""):
            plain.append(tuple(cells))
            continue
        if isinstance(value, str) and not value.strip().isdigit():
            unsupported.append(f"cage {k} with the clue {value!r}")
            continue
        cages.append((cells, int(value)))
    if unsupported:
        raise ValueError(
            "elements the toolkit does not read: "
            + ", ".join(unsupported)
            + " (SudokuPad records thermometers, arrows, dots and other line or shape rules "
            "as drawings, not as rules)"
        )
    rules = RuleSet.build(shape, (), None if boxes else labels)
    extra: list[Rule] = []
    if cages:
        extra.append(killer_rule(shape, cages))
    if plain:
        extra.append(AllDifferent(_variant_formats().PLAIN_CAGES, tuple(plain)))
    solution = None
    if solution_text and len(solution_text) == n * n and n <= 9 and solution_text.isdigit():
        digits = [int(ch) for ch in solution_text]
        if all(1 <= d <= n for d in digits):
            solution = Grid(shape, digits)
    return Puzzle(Grid(shape, values), rules.with_rules(extra) if extra else rules), solution


def puzzle_from_sudokupad(text: str) -> tuple[Puzzle, Grid | None]:
    """The puzzle of a SudokuPad link or payload, with its published solution when the
    payload has one (module notes).

    Raises:
        ValueError: for a short id, an undecodable payload, or a puzzle with elements the
            toolkit does not read (listed).
        RuleError, ShapeError: for cages or regions that break the toolkit's rules.
    """
    kind, obj = decode_payload(text)
    if kind == "fpuzzles":
        return _variant_formats().puzzle_from_fpuzzles(obj)
    if kind == "scf":
        return _scf_puzzle(obj)
    return _ctc_puzzle(obj)


def sudokupad_records(
    content: Iterable[tuple[int, str]], name: str, variants: Sequence[str] = ()
) -> Iterator[Record]:
    """One record per SudokuPad link or payload; a line that cannot be read is a malformed
    record saying why (``variants`` are refused: the payload names its own rules)."""
    return one_puzzle_a_line(
        content,
        name,
        variants,
        puzzle_from_sudokupad,
        "SudokuPad",
        (ValueError, ShapeError, RuleError, RecursionError),
    )
