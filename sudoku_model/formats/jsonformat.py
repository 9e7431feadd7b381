"""The JSON and JSONL readers, and the JSON puzzle object (the variant file format) both
ways: :func:`puzzle_from_json` and :func:`puzzle_to_json`."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..errors import ParseError, ShapeError
from ..geometry import Shape, shape_for_size
from ..grid import Grid
from ..gridtext import DEFAULT_ALPHABET, Alphabet
from ..puzzle import Puzzle
from ..textlines import MAX_JSON_CHARS, MAX_LINE, LongLine
from .grids import parse_grid
from .lines import _content_lines
from .pencilmark import INFERRED_LENGTHS, _line_sets, format_pencilmark_line
from .record import Record, _excerpt, _rules


def _jsonl_records(
    lines: Iterable[tuple[int, str]],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
) -> Iterator[Record]:
    for lineno, text, s in _content_lines(lines):
        try:
            obj = json.loads(s)
        except json.JSONDecodeError as exc:
            yield Record(
                name,
                lineno,
                text,
                None,
                ParseError(
                    f"invalid JSON: {exc.msg}",
                    source=name,
                    line=lineno,
                    column=exc.colno + (len(text) - len(text.lstrip())),
                    text=text,
                ),
            )
            continue
        except (ValueError, RecursionError) as exc:  # digits beyond int limits, deep nesting
            msg = "JSON nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            err = ParseError(f"invalid JSON: {msg}", source=name, line=lineno, column=1, text=text)
            yield Record(name, lineno, text, None, err)
            continue
        yield _json_record(obj, name, lineno, text, shape, alphabet, variants)


def _json_records(
    lines: Iterable[tuple[int, str]],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
) -> Iterator[Record]:
    collected: list[tuple[int, str]] = []
    size = 0
    for lineno, raw in lines:
        if isinstance(raw, LongLine):
            raise ParseError(
                f"a line of {raw.length:,} characters in a JSON document: longer than any "
                f"puzzle line can be (at most {MAX_LINE:,}); write the document indented, "
                "or as JSONL (one puzzle a line)",
                source=name,
                line=lineno,
                column=MAX_LINE + 1,
            )
        size += len(raw)
        if size > MAX_JSON_CHARS:
            raise ParseError(
                f"a JSON document of more than {MAX_JSON_CHARS:,} characters: too large to "
                "read whole; write the puzzles as JSONL (one puzzle a line, read in "
                "constant memory)",
                source=name,
                line=lineno,
                column=1,
            )
        collected.append((lineno, raw))
    first_line = collected[0][0] if collected else 1
    doc = "".join(raw for _, raw in collected)
    del collected
    try:
        obj = json.loads(doc)
    except json.JSONDecodeError as exc:
        bad = doc.split("\n")[exc.lineno - 1] if doc else ""
        raise ParseError(
            f"invalid JSON: {exc.msg}",
            source=name,
            line=exc.lineno + first_line - 1,
            column=exc.colno,
            text=_excerpt(bad, exc.colno),
        ) from None
    except (ValueError, RecursionError) as exc:
        msg = "JSON nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise ParseError(f"invalid JSON: {msg}", source=name, line=first_line, column=1) from None
    items = obj.get("puzzles", [obj]) if isinstance(obj, dict) else obj
    if not isinstance(items, list):
        raise ParseError(
            'JSON must hold a puzzle, a list of puzzles or {"puzzles": [...]}',
            source=name,
            line=first_line,
            column=1,
        )
    starts = _array_item_lines(doc, len(items)) if isinstance(obj, list) else []
    for k, item in enumerate(items):
        line = first_line + starts[k] if k < len(starts) else first_line
        yield _json_record(item, name, line, f"[{k}]", shape, alphabet, variants)


def _array_item_lines(doc: str, count: int) -> list[int]:
    """0-based line offset of where each item of a top-level JSON array starts (the
    document is known to be valid)."""
    decoder = json.JSONDecoder()
    out: list[int] = []
    i = doc.index("[") + 1
    line = doc.count("\n", 0, i)
    size = len(doc)
    try:
        while len(out) < count:
            while i < size and doc[i] in " \t\r\n,":
                if doc[i] == "\n":
                    line += 1
                i += 1
            out.append(line)
            _, end = decoder.raw_decode(doc, i)
            line += doc.count("\n", i, end)
            i = end
    except (ValueError, RecursionError):
        return []
    return out


def _json_record(
    obj: Any,
    name: str,
    lineno: int,
    text: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
) -> Record:
    try:
        puzzle, solution = puzzle_from_json(
            obj, shape=shape, alphabet=alphabet, variants=variants, source=name, line=lineno
        )
    except ParseError as exc:
        return Record(name, lineno, text, None, exc)
    return Record(name, lineno, text, puzzle, None, "", solution)


# -- JSON puzzle objects -------------------------------------------------------------------
def puzzle_from_json(
    obj: Any,
    *,
    shape: Shape | None = None,
    alphabet: Alphabet = DEFAULT_ALPHABET,
    variants: Sequence[str] = (),
    source: str = "<json>",
    line: int = 1,
) -> tuple[Puzzle, Grid | None]:
    """Build a puzzle (and its solution, when present) from a JSON value: a string of cells
    or an object with ``puzzle``/``givens``, optional ``box``/``size``, ``variants``,
    ``regions`` and ``solution``.

    Raises:
        ParseError: for a missing or malformed field, naming it (never another exception,
            whatever the value).
    """
    try:
        return _puzzle_from_json(obj, shape, alphabet, variants, source, line)
    except ParseError:
        raise
    except (ValueError, TypeError, AttributeError, OverflowError, KeyError, IndexError) as exc:
        # a type the checks below did not foresee: still a located error, never a crash
        raise _json_error(f"bad puzzle object: {exc}", obj, source, line) from None
    except RecursionError:
        raise _json_error("puzzle object nested too deeply", obj, source, line) from None


def _json_error(msg: str, obj: Any, source: str, line: int) -> ParseError:
    if isinstance(obj, str):
        text = obj
    else:
        try:
            text = json.dumps(obj)
        except (ValueError, TypeError, RecursionError):
            text = ""
    return ParseError(msg, source=source, line=line, column=1, text=_excerpt(text, 1)[:120])


def _short(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (ValueError, TypeError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _whole(value: Any, what: str, fail: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(f'"{what}" must be a whole number, got {_short(value)}')
    return value


def _puzzle_from_json(
    obj: Any,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: Sequence[str],
    source: str,
    line: int,
) -> tuple[Puzzle, Grid | None]:
    def fail(msg: str) -> ParseError:
        return _json_error(msg, obj, source, line)

    if isinstance(obj, str):
        obj = {"puzzle": obj}
    if not isinstance(obj, dict):
        raise fail("a puzzle must be a string of cells or an object")
    from .. import variant_formats  # f-puzzles objects, variant constraints

    if "grid" in obj and "puzzle" not in obj:  # an f-puzzles object
        try:
            return variant_formats.puzzle_from_fpuzzles(obj)
        except (ValueError, ShapeError) as exc:
            raise fail(f"f-puzzles: {exc}") from None
    shp = shape
    try:
        if "box" in obj:
            box = obj["box"]
            if not (isinstance(box, list) and len(box) == 2):
                raise fail(f'"box" must be [rows, columns], got {_short(box)}')
            shp = Shape(_whole(box[0], "box", fail), _whole(box[1], "box", fail))
        elif "size" in obj:
            shp = shape_for_size(_whole(obj["size"], "size", fail))
    except ShapeError as exc:
        raise fail(f"bad shape: {exc}") from None
    givens_raw = obj.get("puzzle", obj.get("givens"))
    if givens_raw is None:
        raise fail('missing "puzzle" field')

    def grid_of(raw: Any, what: str, shp: Shape | None) -> Grid:
        if isinstance(raw, list):
            if raw and all(isinstance(r, list) for r in raw):
                try:
                    return Grid.from_rows(raw, shp)
                except (ValueError, ShapeError) as exc:
                    raise fail(f'"{what}": {exc}') from None
            if not all(isinstance(r, str) for r in raw):
                raise fail(f'"{what}" must be a string, a list of row strings or of lists')
            raw = "\n".join(raw)
        if not isinstance(raw, str):
            raise fail(f'"{what}" must be a string, a list of row strings or of lists')
        try:
            return parse_grid(raw, shape=shp, alphabet=alphabet, source=source)
        except ParseError as exc:
            raise ParseError(
                f'"{what}": {exc.message} (column {exc.column} of the field)',
                source=source,
                line=line,
                column=1,
                text=_excerpt(exc.text, exc.column),
            ) from None

    candidates = _candidate_sets(givens_raw, shp, alphabet, source, line)
    givens = candidates[0] if candidates else grid_of(givens_raw, "puzzle", shp)
    regions = obj.get("regions")
    labels: tuple[int, ...] | None = None
    if regions is not None:
        if isinstance(regions, list) and regions and all(isinstance(r, str) for r in regions):
            regions = "".join(regions)
        if isinstance(regions, list) and regions and all(isinstance(r, list) for r in regions):
            regions = [x for r in regions for x in r]
        if isinstance(regions, str):
            regions = [ch for ch in regions if not ch.isspace()]
        if not isinstance(regions, list) or not all(
            isinstance(x, (str, int)) and not isinstance(x, bool) for x in regions
        ):
            raise fail(
                '"regions" must be a string, or a list of labels (strings or whole numbers), '
                f"got {_short(obj.get('regions'))}"
            )
        labels_map: dict[Any, int] = {}
        labels = tuple(labels_map.setdefault(x, len(labels_map)) for x in regions)
    extra_variants = obj.get("variants", [])
    if not isinstance(extra_variants, list) or not all(isinstance(v, str) for v in extra_variants):
        raise fail(f'"variants" must be a list of names, got {_short(extra_variants)}')
    names = list(variants) + extra_variants
    try:
        rules = _rules(givens.shape, tuple(names), labels)
        if "constraints" in obj:
            extra = variant_formats.constraints_from_json(obj["constraints"], givens.shape)
            rules = rules.with_rules(extra)
    except (ValueError, ShapeError) as exc:
        raise fail(str(exc)) from None
    solution = None
    if obj.get("solution"):
        solution = grid_of(obj["solution"], "solution", givens.shape)
    if candidates:
        try:
            return Puzzle.from_candidates(candidates[1], rules=rules), solution
        except ValueError as exc:
            raise fail(str(exc)) from None
    return Puzzle(givens, rules), solution


def _candidate_sets(
    raw: Any, shape: Shape | None, alphabet: Alphabet, source: str, line: int
) -> tuple[Grid, list[set[int]]] | None:
    """An empty grid and the candidate sets of a ``"puzzle"`` string that is a pencilmark
    line (n**3 characters; 64, also an 8x8 line, only with ``"size": 4``), else None."""
    if not isinstance(raw, str):
        return None
    count = len(raw.strip())
    if shape is None and count not in INFERRED_LENGTHS:
        return None
    if shape is not None and (count != shape.size**3 or count == shape.cell_count):
        return None
    try:
        shp, sets, _, _ = _line_sets(raw.strip(), shape, alphabet, source, line)
    except ParseError as exc:
        raise ParseError(
            f'"puzzle": {exc.message} (column {exc.column} of the field)',
            source=source,
            line=line,
            column=1,
            text=_excerpt(exc.text, exc.column),
        ) from None
    return Grid.empty(shp), sets


def puzzle_to_json(
    puzzle: Puzzle, *, solution: Grid | None = None, alphabet: Alphabet = DEFAULT_ALPHABET
) -> dict[str, Any]:
    """The JSON object of a puzzle (the variant file format), omitting defaults."""
    from .. import variant_formats  # the constraints

    d: dict[str, Any] = {}
    shape = puzzle.shape
    if shape_for_size(shape.size) != shape:
        d["box"] = [shape.box_rows, shape.box_cols]
    variants = [v for v in puzzle.rules.variants if v not in ("classic", "jigsaw")]
    if variants:
        d["variants"] = variants
    regions = puzzle.rules.regions
    if regions is not None:
        d["regions"] = list(regions)
    constraints = variant_formats.constraints_to_json(puzzle.rules)
    if constraints:  # rules beyond the variants: cages, dots... and extra units
        d["constraints"] = constraints
    if puzzle.is_pencilmark:
        if "box" not in d and shape.size**3 not in INFERRED_LENGTHS:
            d["size"] = shape.size  # a 4x4 pencilmark line has an 8x8 line's length
        d["puzzle"] = format_pencilmark_line(puzzle, alphabet=alphabet)
    else:
        d["puzzle"] = puzzle.givens.to_line(alphabet=alphabet)
    if solution is not None:
        d["solution"] = solution.to_line(alphabet=alphabet)
    return d
