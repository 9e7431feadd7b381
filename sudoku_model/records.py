r"""One record schema for every command that writes results, and one serializer.

``sudoku verify``, ``solve --json``, ``count --json``, ``rate``, ``generate --to json|jsonl``
and ``compare --output`` write one record per puzzle (``compare``: per puzzle and backend).
Every record is a flat JSON object with the fields below; a field is present only in the
records the "when" column names (absent, never ``null``, unless the type says ``null``).
A malformed input record is the same object in every command: ``verdict`` ``malformed``,
``puzzle`` and ``clues`` ``null``, ``error`` and ``text``. JSONL, JSON and CSV carry the same
fields (:class:`JsonlWriter`, :class:`JsonWriter`, :class:`CsvWriter`); CSV flattens
``error`` into ``error``/``error_line``/``error_column``, ``witnesses`` into
``witness1``/``witness2``, lists of cell names into space-separated text, other lists and
objects into JSON text, booleans into ``true``/``false`` and absent fields into empty cells.
:func:`check_record` checks a record against this table.

Verdict words (``verdict``): ``malformed``, ``contradictory``, ``unsolvable``, ``unique``,
``multiple``, ``unknown``. ``solve`` says ``status``: ``solved``, ``contradictory``,
``unsolvable``, ``unknown``. Cells are named ``r1c1`` ... Grids are lines of symbols
(``1-9A-Z``, ``.`` for empty).

| field | type | when | meaning |
|---|---|---|---|
| schema | int | always | version of this table: 1 |
| command | str | always | verify, solve, count, rate, generate, compare |
| source | str | not generate | input file, `bundled:NAME`, `<argument N>` |
| line | int | not generate | 1-based line where the input record starts |
| position | int | verify | 0-based position of the record in its source |
| input | int | verify | 0-based index of the source among the run's inputs |
| puzzle | str\|null | always | the givens (pencilmark: the candidates line); null when malformed |
| clues | int\|null | always | number of givens; null when malformed |
| rules | object | variant rules | `box`, `variants`, `regions`, `constraints` (not generate) |
| box | list | generate | `[rows, columns]` of a box, non-default shape |
| variants | list | generate | variant names (input format) |
| regions | list | generate | jigsaw region of each cell (input format) |
| constraints | list | generate | killer cages, dots... beyond the variants (input format) |
| verdict | str | not solve, compare | a verdict word; every malformed record |
| status | str | solve | solved, contradictory, unsolvable, unknown |
| error | object | malformed | `message`, `line`, `column` of the parse error |
| text | str | malformed | the input text (first 200 characters) |
| solution | str | verify, solve, generate | the solution (unique; solved; `--solutions`) |
| witnesses | list | verify: multiple | two different solutions |
| differing_cells | list | verify: multiple | cells where the two witnesses differ |
| conflicts | list | verify: contradictory | the clashing givens, described |
| published_solution | str | verify: input solution | matches, mismatch, one_of_several, valid |
| published_cells | list | verify: mismatch | cells where the published grid is wrong |
| redundant_clues | list | verify --minimal | clues removable keeping it unique (or `r1c1<>5`) |
| redundant_unknown | list | verify --minimal | clues whose test ran out of budget |
| minimal | bool\|null | verify, generate | no clue removable (null: budget ran out) |
| cross_check | list | verify --cross-check | per backend: backend, verdict, seconds, ... |
| undecided | list | verify --cross-check | backends that answered unknown or refused |
| disagreement | str | verify | why backends or evidence disagree |
| canonical | str\|null | verify --canonical | minlex form (null: variant rules, budget spent) |
| count | int | count | solutions found (a lower bound unless complete) |
| complete | bool | count | the count is exact |
| limit | int | count | the `--limit` asked |
| solutions | list | count | the solutions found |
| level | str\|null | rate, generate | easy, medium, hard, expert, extreme |
| score | float | rate, generate | difficulty score |
| hardest | str\|null | rate, generate | hardest technique used |
| techniques | object | rate | technique -> times used |
| guesses | int | rate | guesses the search needed |
| scale | str | rate --scale se | `se` |
| se_status | str | rate --scale se | rated, budget (spent), stuck, invalid, unsupported |
| er | float\|null | rate --scale se | Sudoku Explainer's ER (null unless rated) |
| ep | float\|null | rate --scale se | SE's EP: the highest rating up to the first placement |
| ed | float\|null | rate --scale se | SE's ED: the rating of the first step |
| er_above | float | rate --scale se: budget, stuck | ER is at least this |
| se_steps | list | rate --scale se | SE's steps: technique, rating, eliminations, placement |
| rater | str | rate --scale se | the SE rater's name |
| rater_version | str | rate --scale se | its version (a rating is reproducible with it) |
| index | int | generate | 0-based number of the puzzle in the run |
| seed | int | generate | seed that remakes the puzzle |
| symmetry | str | generate | the clue symmetry (when not none) |
| group_minimal | bool\|null | generate | minimal for the symmetry's orbits |
| level_tries | int | generate | puzzles graded to get this one (`--level`) |
| cages | int | generate | killer puzzles: the number of cages (`--variant killer`) |
| puzzle_index | int | compare | 0-based number of the puzzle compared |
| size | int | compare | side of the grid |
| task | str | compare | solve, unique or count |
| answer | str | compare | the backend's answer word |
| engine | str | compare | the engine that answered (one of a routing backend's engines) |
| agreed | bool | compare | all backends agree on this puzzle |
| backend | str | not rate | backend that answered (generate: that made it) |
| backend_version | str | verify | its version |
| options | object | verify | budget, minimal, cross_check |
| seconds | float\|null | always | wall seconds (compare: median; null: not measured) |
| stats | object | verify, solve, count | the backend's counters (stable keys) |
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import IO, Any

from . import _columns
from .errors import ParseError
from .formats.pencilmark import clue_names, record_line  # candidates lines, eliminations

__all__ = [
    "SCHEMA_VERSION",
    "COMMANDS",
    "VERDICTS",
    "SOLVE_STATUSES",
    "PUBLISHED_WORDS",
    "FieldSpec",
    "FIELDS",
    "head",
    "puzzle_fields",
    "malformed_record",
    "dumps",
    "check_record",
    "csv_row",
    "JsonlWriter",
    "JsonWriter",
    "CsvWriter",
    "open_writer",
    "WRITER_FORMATS",
]

#: Version of the record schema; raised when a field changes meaning or goes away.
SCHEMA_VERSION = 1
COMMANDS = ("verify", "solve", "count", "rate", "generate", "compare")
VERDICTS = ("malformed", "contradictory", "unsolvable", "unique", "multiple", "unknown")
SOLVE_STATUSES = ("solved", "contradictory", "unsolvable", "unknown")
#: ``published_solution`` words: the published grid is the unique solution (``matches``),
#: is not a solution or not the unique one (``mismatch``), is one solution of a puzzle with
#: several (``one_of_several``), or is a solution where uniqueness is undecided (``valid``).
PUBLISHED_WORDS = ("matches", "mismatch", "one_of_several", "valid")
#: Characters of the input text kept in a malformed record (a 10 MB line stays small).
TEXT_EXCERPT = 200


@dataclass(frozen=True)
class FieldSpec:
    """One row of the schema: ``commands`` that may write it, ``required`` in those (a
    malformed record needs only the malformed fields), JSON ``types`` allowed."""

    name: str
    types: tuple[type, ...]
    commands: frozenset[str]
    required: frozenset[str] = frozenset()


def _spec(name: str, types: Any, commands: str, required: str = "") -> FieldSpec:
    t = types if isinstance(types, tuple) else (types,)
    return FieldSpec(
        name,
        t,
        frozenset(COMMANDS if commands == "*" else commands.split()),
        frozenset(COMMANDS if required == "*" else required.split()),
    )


_NUM = (int, float)
_NONE = type(None)
#: The table of the module docstring as data (what :func:`check_record` enforces).
FIELDS: tuple[FieldSpec, ...] = (
    _spec("schema", int, "*", "*"),
    _spec("command", str, "*", "*"),
    _spec("source", str, "verify solve count rate compare", "verify solve count rate compare"),
    _spec("line", int, "verify solve count rate compare", "verify solve count rate compare"),
    _spec("position", int, "verify"),
    _spec("input", int, "verify"),
    _spec("puzzle", (str, _NONE), "*", "*"),
    _spec("clues", (int, _NONE), "*", "*"),
    _spec("rules", dict, "verify solve count rate compare"),
    _spec("box", list, "generate"),
    _spec("variants", list, "generate"),
    _spec("regions", list, "generate"),
    _spec("constraints", list, "generate"),
    _spec("verdict", str, "*", "verify count rate generate"),
    _spec("status", str, "solve", "solve"),
    _spec("error", dict, "*"),
    _spec("text", str, "*"),
    _spec("solution", str, "verify solve generate"),
    _spec("witnesses", list, "verify"),
    _spec("differing_cells", list, "verify"),
    _spec("conflicts", list, "verify"),
    _spec("published_solution", str, "verify"),
    _spec("published_cells", list, "verify"),
    _spec("redundant_clues", list, "verify"),
    _spec("redundant_unknown", list, "verify"),
    _spec("minimal", (bool, _NONE), "verify generate"),
    _spec("cross_check", list, "verify"),
    _spec("undecided", list, "verify"),
    _spec("disagreement", str, "verify"),
    _spec("canonical", (str, _NONE), "verify"),
    _spec("count", int, "count", "count"),
    _spec("complete", bool, "count", "count"),
    _spec("limit", int, "count", "count"),
    _spec("solutions", list, "count", "count"),
    _spec("level", (str, _NONE), "rate generate", "rate"),
    _spec("score", _NUM, "rate generate", "rate"),
    _spec("hardest", (str, _NONE), "rate generate", "rate"),
    _spec("techniques", dict, "rate", "rate"),
    _spec("guesses", int, "rate", "rate"),
    # Sudoku Explainer scale (sudoku rate --scale se; sudoku_model/se).
    _spec("scale", str, "rate"),
    _spec("se_status", str, "rate"),
    _spec("er", (int, float, _NONE), "rate"),
    _spec("ep", (int, float, _NONE), "rate"),
    _spec("ed", (int, float, _NONE), "rate"),
    _spec("er_above", (int, float), "rate"),
    _spec("se_steps", list, "rate"),
    _spec("rater", str, "rate"),
    _spec("rater_version", str, "rate"),
    _spec("index", int, "generate", "generate"),
    _spec("seed", int, "generate", "generate"),
    _spec("symmetry", str, "generate"),
    _spec("group_minimal", (bool, _NONE), "generate"),
    _spec("level_tries", int, "generate"),
    _spec("cages", int, "generate"),
    _spec("puzzle_index", int, "compare", "compare"),
    _spec("size", int, "compare", "compare"),
    _spec("task", str, "compare", "compare"),
    _spec("answer", str, "compare", "compare"),
    _spec("engine", str, "compare", "compare"),
    _spec("agreed", bool, "compare", "compare"),
    _spec("backend", str, "verify solve count compare generate", "verify solve count compare"),
    _spec("backend_version", str, "verify", "verify"),
    _spec("options", dict, "verify", "verify"),
    _spec("seconds", (int, float, _NONE), "*", "verify solve count rate"),
    _spec("stats", dict, "verify solve count", "verify solve count"),
)
_BY_NAME = {f.name: f for f in FIELDS}
#: Fields of a malformed record (every command writes the same ones).
MALFORMED_FIELDS = ("schema", "command", "source", "line", "puzzle", "clues", "verdict", "error")


# -- building ------------------------------------------------------------------------------
def head(
    command: str,
    source: str | None = None,
    line: int | None = None,
    *,
    position: int | None = None,
    input_id: int | None = None,
) -> dict[str, Any]:
    """The first fields of every record: ``schema``, ``command``, then where the record
    came from (``source``, ``line``, and ``position``/``input`` when given)."""
    d: dict[str, Any] = {"schema": SCHEMA_VERSION, "command": command}
    if source is not None:
        d["source"] = source
    if line is not None:
        d["line"] = line
    if position is not None:
        d["position"] = position
    if input_id is not None:
        d["input"] = input_id
    return d


def puzzle_fields(puzzle: Any, *, alphabet: Any = None) -> dict[str, Any]:
    """``puzzle``, ``clues`` and (for variant rules) ``rules`` of a puzzle (a pencilmark
    puzzle: its candidates line, :mod:`sudoku_model.formats.pencilmark`)."""
    if puzzle.is_pencilmark:
        return _pencilmark_fields(puzzle, alphabet)
    line = puzzle.givens.to_line() if alphabet is None else puzzle.to_line(alphabet=alphabet)
    d: dict[str, Any] = {"puzzle": line, "clues": puzzle.clues}
    if not puzzle.rules.is_classic:
        d["rules"] = rules_field(puzzle.rules)
    return d


def _pencilmark_fields(puzzle: Any, alphabet: Any = None) -> dict[str, Any]:
    line, rules = record_line(puzzle, alphabet)
    d: dict[str, Any] = {"puzzle": line, "clues": puzzle.clues}
    return d if rules.is_classic else {**d, "rules": rules_field(rules)}


def rules_field(rules: Any) -> dict[str, Any]:
    """The ``rules`` field of a record whose rules are not the classic ones: ``box``,
    ``variants``, ``regions`` (jigsaw) and, for rules beyond what the variant names say
    (killer cages, dots, arrows...), ``constraints`` as the puzzle JSON format writes them
    (:func:`sudoku_model.variant_formats.constraints_to_json`): a record names its whole
    rules, so the puzzle can be rebuilt from it."""
    return dict(_rules_field(rules))


@lru_cache(maxsize=64)
def _rules_field(rules: Any) -> dict[str, Any]:
    # one rule set is shared by the records of a file: described once (copied per record)
    from .variant_formats import constraints_to_json

    d = dict(rules.to_json())
    constraints = constraints_to_json(rules)
    if constraints:
        d["constraints"] = constraints
    return d


def error_fields(error: ParseError | None, text: str) -> dict[str, Any]:
    """``error`` (message, line, column) and ``text`` (a bounded excerpt)."""
    if error is None:
        err: dict[str, Any] = {"message": "unreadable record", "line": None, "column": None}
    else:
        err = {"message": error.message, "line": error.line, "column": error.column}
    return {"error": err, "text": text[:TEXT_EXCERPT]}


def malformed_record(command: str, record: Any, **extra: Any) -> dict[str, Any]:
    """The record of an input that could not be read, the same for every command.

    ``record`` is a :class:`sudoku_model.formats.Record` with ``error`` set; ``extra``
    fields (such as ``backend``) follow the malformed fields."""
    d = head(command, record.source, record.line)
    d["puzzle"] = None
    d["clues"] = None
    d["verdict"] = "malformed"
    d.update(error_fields(record.error, record.text))
    d.update(extra)
    return d


def _finite(obj: Any) -> Any:
    # NaN and infinities are not JSON: a time that was never measured is written as null
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def dumps(record: Any, *, indent: int | None = None) -> str:
    """A record (or a document of records) as JSON text, compact unless ``indent`` is
    given; non-finite floats (a time never measured) become ``null``.

    Raises:
        TypeError: for a value JSON cannot hold.
    """
    separators = (",", ":") if indent is None else (",", ": ")
    try:
        return json.dumps(
            record, separators=separators, indent=indent, ensure_ascii=False, allow_nan=False
        )
    except ValueError:
        return json.dumps(_finite(record), separators=separators, indent=indent, ensure_ascii=False)


# -- checking ------------------------------------------------------------------------------
def check_record(record: Any) -> list[str]:
    """Every way ``record`` departs from the schema (an empty list when it conforms):
    unknown command or field, a field the command does not write, a missing required field,
    a wrong type, a verdict or status that is not one of the words."""
    if not isinstance(record, dict):
        return [f"a record is a JSON object, not {type(record).__name__}"]
    problems: list[str] = []
    command = record.get("command")
    if record.get("schema") != SCHEMA_VERSION:
        problems.append(f"schema is {record.get('schema')!r}, expected {SCHEMA_VERSION}")
    if command not in COMMANDS:
        return [*problems, f"unknown command {command!r}"]
    malformed = record.get("verdict") == "malformed"
    required = MALFORMED_FIELDS if malformed else [f.name for f in FIELDS if command in f.required]
    for name in required:
        if name not in record:
            problems.append(f"{command} record without {name!r}")
    for name, value in record.items():
        spec = _BY_NAME.get(name)
        if spec is None:
            problems.append(f"unknown field {name!r}")
            continue
        if command not in spec.commands:
            problems.append(f"{command} records have no {name!r}")
        # bool is an int in Python: only a bool field may hold one
        if not isinstance(value, spec.types) or (
            isinstance(value, bool) and bool not in spec.types
        ):
            problems.append(f"{name} is {type(value).__name__}, expected {_names(spec.types)}")
    verdict = record.get("verdict")
    if verdict is not None and verdict not in VERDICTS:
        problems.append(f"verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
    status = record.get("status")
    if status is not None and status not in SOLVE_STATUSES:
        problems.append(f"status {status!r} is not one of {', '.join(SOLVE_STATUSES)}")
    published = record.get("published_solution")
    if published is not None and published not in PUBLISHED_WORDS:
        problems.append(f"published_solution {published!r} is not one of the words")
    if malformed:
        err = record.get("error")
        if not isinstance(err, dict) or not isinstance(err.get("message"), str):
            problems.append("malformed record without error.message")
        if record.get("puzzle") is not None:
            problems.append("malformed record with a puzzle")
    elif "puzzle" in record and not isinstance(record["puzzle"], str):
        problems.append("puzzle is null but the verdict is not malformed")
    return problems


def _names(types: tuple[type, ...]) -> str:
    return "|".join("null" if t is _NONE else t.__name__ for t in types)


# -- writing -------------------------------------------------------------------------------
def _as_dict(item: Any) -> dict[str, Any]:
    return item if isinstance(item, dict) else item.to_json()


#: Lists of cell names or words that CSV writes as space-separated text.
_SPACED = frozenset(
    {"differing_cells", "redundant_clues", "redundant_unknown", "published_cells", "undecided"}
)


def csv_row(record: dict[str, Any], columns: Sequence[str]) -> list[Any]:
    """The CSV cells of a record for ``columns`` (see the module docstring for how lists,
    objects, errors and witnesses are flattened)."""
    where = _positions(columns if isinstance(columns, tuple) else tuple(columns))
    row: list[Any] = [""] * len(where)
    # walk the record's fields, not the columns: a record fills about half of them
    for name, v in record.items():
        i = where.get(name)
        if i is None or v is None:
            if name == "error" and isinstance(v, dict):
                _error_cells(row, where, v)
            elif name == "witnesses" and v:
                _witness_cells(row, where, v)
            continue
        t = type(v)
        if t is str or t is int:
            row[i] = v
        elif t is bool:
            row[i] = "true" if v else "false"
        elif t is float:
            row[i] = v if math.isfinite(v) else ""
        elif name == "error" and t is dict:
            _error_cells(row, where, v)
        elif name in _SPACED:
            row[i] = " ".join(str(x) for x in v)
        else:
            row[i] = dumps(v)
    return row


def _error_cells(row: list[Any], where: dict[str, int], err: dict[str, Any]) -> None:
    for key, name in _ERROR_COLUMNS:
        i = where.get(name)
        if i is not None:
            value = err.get(key)
            row[i] = "" if value is None else value


def _witness_cells(row: list[Any], where: dict[str, int], witnesses: list[str]) -> None:
    for k, name in enumerate(("witness1", "witness2")):
        i = where.get(name)
        if i is not None and k < len(witnesses):
            row[i] = witnesses[k]


_ERROR_COLUMNS = (("message", "error"), ("line", "error_line"), ("column", "error_column"))


@lru_cache(maxsize=16)
def _positions(columns: tuple[str, ...]) -> dict[str, int]:
    return {name: i for i, name in enumerate(columns)}


class JsonlWriter:
    """One JSON object per line. Items are record dicts or objects with ``to_json()``; an
    object with ``to_json_line()`` (a :class:`~sudoku_model.verify.VerifyResult`) writes
    its own line, built fast from cached pieces."""

    fmt = "jsonl"

    def __init__(self, out: IO[str]) -> None:
        self.out = out

    @staticmethod
    def line(item: Any) -> str:
        to_line = getattr(item, "to_json_line", None)
        if to_line is not None:
            return str(to_line())
        return dumps(_as_dict(item)) + "\n"

    def write(self, item: Any) -> None:
        self.out.write(self.line(item))

    def write_many(self, items: Iterable[Any]) -> None:
        items = items if isinstance(items, list) else list(items)
        try:  # the fast path: a chunk of verify results, each formatting its own line
            text = "".join([i.to_json_line() for i in items])
        except AttributeError:
            line = self.line
            text = "".join([line(i) for i in items])
        self.out.write(text)

    def flush(self) -> None:
        self.out.flush()

    def close(self) -> None:
        self.out.flush()


class JsonWriter:
    """A JSON array of records, written as they come (one record per line inside the
    brackets); :meth:`close` writes the closing bracket."""

    fmt = "json"

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self._first = True
        out.write("[")

    def write(self, item: Any) -> None:
        self.out.write(("\n" if self._first else ",\n") + dumps(_as_dict(item)))
        self._first = False

    def write_many(self, items: Iterable[Any]) -> None:
        for item in items:
            self.write(item)

    def flush(self) -> None:
        self.out.flush()

    def close(self) -> None:
        self.out.write("\n]\n")
        self.out.flush()


class CsvWriter:
    """One CSV row per record, ``columns`` in order (header first unless ``header`` is
    False, as when appending)."""

    fmt = "csv"

    def __init__(self, out: IO[str], columns: Sequence[str], *, header: bool = True) -> None:
        self.out = out
        self.columns = tuple(columns)
        self._csv = csv.writer(out, lineterminator="\n")
        if header:
            self._csv.writerow(self.columns)

    def write(self, item: Any) -> None:
        self._csv.writerow(csv_row(_as_dict(item), self.columns))

    def write_many(self, items: Iterable[Any]) -> None:
        columns = self.columns
        self._csv.writerows(csv_row(_as_dict(i), columns) for i in items)

    def flush(self) -> None:
        self.out.flush()

    def close(self) -> None:
        self.out.flush()


WRITER_FORMATS = ("jsonl", "json", "csv")


def open_writer(
    out: IO[str], fmt: str, *, columns: Sequence[str] = (), header: bool = True
) -> JsonlWriter | JsonWriter | CsvWriter:
    """A writer of records to ``out`` in ``fmt`` (``jsonl``, ``json`` or ``csv``; CSV needs
    ``columns``).

    Raises:
        ValueError: for another format, or CSV without columns.
    """
    if fmt == "jsonl":
        return JsonlWriter(out)
    if fmt == "json":
        return JsonWriter(out)
    if fmt == "csv":
        if not columns:
            raise ValueError("a CSV writer needs its columns")
        return CsvWriter(out, columns, header=header)
    raise ValueError(f"unknown output format {fmt!r}; known: {', '.join(WRITER_FORMATS)}")


# -- verify records: the one writer of the dict, the line and the bulk columns ---------------
# ``sudoku verify`` writes millions of records: besides the dict (:func:`verify_record`),
# the same bytes come from cached pieces for the common verdicts (:func:`verify_line`) and,
# for the bulk path's columns, from one template over a whole chunk
# (:func:`verify_bulk_lines`). tests/sudoku_model/test_verify_bulk.py compares them.
_LINE_TABLE = bytes(
    [ord(".")] + [ord(c) for c in "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"] + [ord("?")] * (256 - 36)
)


def grid_line(values: Sequence[int] | bytes) -> str:
    """Grid values as a line of symbols (1-9A-Z, '.' for empty), without a Python loop."""
    return bytes(values).translate(_LINE_TABLE).decode("ascii")


def _json(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class _Pieces:
    """Text pieces of verify records, cached: by value (``text``), or by the identity of
    an object that a whole run shares (``of``: its options or batch counters; the object
    is kept with its piece so that its id cannot be reused while cached)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.by_value: dict[Any, str] = {}
        self.by_id: dict[int, tuple[Any, Any, str]] = {}

    def text(self, key: Any, make: Any) -> str:
        piece = self.by_value.get(key)
        if piece is None:
            if len(self.by_value) > self.size:
                self.by_value.clear()
            piece = self.by_value[key] = make()
        return piece

    def of(self, obj: Any, extra: Any, make: Any) -> str:
        hit = self.by_id.get(id(obj))
        if hit is None or hit[0] is not obj or hit[1] != extra:
            if len(self.by_id) > self.size:
                self.by_id.clear()
            hit = self.by_id[id(obj)] = (obj, extra, make())
        return hit[2]


_PIECES = _Pieces(256)


def _is_classic(rules: Any) -> bool:
    # rule sets are shared by the records of a file: remember the answer per object
    return _PIECES.of(rules, "classic", lambda: "1" if rules.is_classic else "") == "1"


#: The start of every verify record: schema version and command (:func:`head`'s order).
_VERIFY_HEAD = f'{{"schema":{SCHEMA_VERSION},"command":"verify","source":'


def _source_head(source: str) -> str:
    return _PIECES.text(("src", source), lambda: _VERIFY_HEAD + _json(source) + ',"line":')


def _verify_tail(backend: str, version: str, options: dict[str, Any]) -> str:
    # options dicts are shared by every result of a run: cached by identity
    return _PIECES.of(
        options,
        (backend, version),
        lambda: (
            ',"backend":'
            + _json(backend)
            + ',"backend_version":'
            + _json(version)
            + ',"options":'
            + _json(options)
            + ',"seconds":'
        ),
    )


def _stats_json(stats: dict[str, Any]) -> str:
    if not stats:
        return "{}"
    if "batch_size" in stats:  # one dict shared by a whole batch: format it once
        return _PIECES.of(stats, "stats", lambda: _json(stats))
    return _json(stats)


def verify_record(r: Any) -> dict[str, Any]:
    """The record of a verify result (a :class:`~sudoku_model.verify.VerifyResult`), as a
    dict in field order."""
    p = r.puzzle
    shape = p.shape if p is not None else None
    d = head("verify", r.source, r.line, position=r.position, input_id=r.input)
    if p is not None and not _is_classic(p.rules) and p.is_pencilmark:
        d.update(_pencilmark_fields(p))
    elif p is not None:
        d.update(puzzle=grid_line(p.givens.values), clues=_clues(p))
        if not _is_classic(p.rules):
            d["rules"] = rules_field(p.rules)
    else:
        d.update(puzzle=None, clues=None)
    d["verdict"] = r.verdict.value
    if r.solution is not None:
        d["solution"] = grid_line(r.solution.values)
    if r.witnesses:
        d["witnesses"] = [grid_line(w.values) for w in r.witnesses]
        assert shape is not None
        d["differing_cells"] = [shape.cell_name(c) for c in r.differing_cells]
    if r.error is not None or p is None:
        d.update(error_fields(r.error, r.text))
    if r.conflicts:
        d["conflicts"] = list(r.conflicts)
    if r.canonical != "" and p is not None:  # "": not asked
        d["canonical"] = r.canonical
    if r.published is not None:
        d["published_solution"] = r.published
        if r.published_cells and shape is not None:
            d["published_cells"] = [shape.cell_name(c) for c in r.published_cells]
    if r.redundant is not None and shape is not None:
        d["redundant_clues"] = clue_names(p, r.redundant)
        d["minimal"] = r.is_minimal
        if r.redundant_unknown:
            d["redundant_unknown"] = clue_names(p, r.redundant_unknown)
    if r.cross_check:
        d["cross_check"] = [cross_check_record(a) for a in r.cross_check]
    if r.undecided:
        d["undecided"] = list(r.undecided)
    if r.disagreement is not None:
        d["disagreement"] = r.disagreement
    d["backend"] = r.backend
    d["backend_version"] = r.backend_version
    d["options"] = r.options
    d["seconds"] = round(r.seconds, 6)
    d["stats"] = r.stats
    return d


def cross_check_record(a: Any) -> dict[str, Any]:
    """What one cross-checking backend answered (a
    :class:`~sudoku_model.verify.CrossCheckAnswer`), as the dict of a record's
    ``cross_check`` list."""
    d: dict[str, Any] = {
        "backend": a.backend,
        "backend_version": a.version,
        "verdict": a.verdict.value,
        "seconds": round(a.seconds, 6),
    }
    if a.solution is not None:
        d["solution"] = grid_line(a.solution.values)
    if a.error:
        d["error"] = a.error
    return d


def _clues(puzzle: Any) -> int:
    values = puzzle.givens.values
    return len(values) - values.count(0)


def verify_line(r: Any) -> str:
    """:func:`verify_record` as one compact JSON line (with its newline), built from cached
    pieces for the common verdicts: formatting must not be the bottleneck."""
    p = r.puzzle
    if (
        p is None
        or r.error is not None
        or r.conflicts
        or r.cross_check
        or r.disagreement is not None
        or r.redundant is not None
        or r.published_cells
        or r.canonical != ""
        or not _is_classic(p.rules)
        or r.verdict.value == "unknown"
        and "refused" in r.stats
    ):
        return dumps(verify_record(r)) + "\n"
    parts = [
        _source_head(r.source),
        str(r.line),
        ',"input":',
        str(r.input),
        ',"position":',
        str(r.position),
        ',"puzzle":"',
        grid_line(p.givens.values),
        '","clues":',
        str(_clues(p)),
        ',"verdict":"',
        r.verdict.value,
        '"',
    ]
    if r.solution is not None:
        parts += [',"solution":"', grid_line(r.solution.values), '"']
    if r.witnesses:
        w0, w1 = r.witnesses[0], r.witnesses[1]
        parts.append(_witnesses(p.shape, w0.values, w1.values))
    if r.published is not None:
        parts += [',"published_solution":"', r.published, '"']
    parts += [
        _verify_tail(r.backend, r.backend_version, r.options),
        repr(round(r.seconds, 6)),
        ',"stats":',
        _stats_json(r.stats),
        "}\n",
    ]
    return "".join(parts)


def _witnesses(shape: Any, w0: Sequence[int] | bytes, w1: Sequence[int] | bytes) -> str:
    """The ``witnesses`` and ``differing_cells`` fields of two grids."""
    return (
        ',"witnesses":["'
        + grid_line(w0)
        + '","'
        + grid_line(w1)
        + '"],"differing_cells":'
        + _json([shape.cell_name(c) for c in range(len(w0)) if w0[c] != w1[c]])
    )


#: What the bulk writer writes for a line, per status (:func:`verify_bulk_lines`).
BULK_SOLUTION, BULK_WITNESSES, BULK_BARE, BULK_INSERT = range(4)


def verify_bulk_lines(
    *,
    source: str,
    input_index: int,
    lines: Sequence[int],
    first_position: int,
    statuses: bytes,
    layout: Sequence[tuple[str, int]],
    givens: bytes,
    clues: bytes,
    solutions: bytes,
    witnesses: bytes,
    shape: Any,
    inserts: Sequence[str | None],
    backend: str,
    version: str,
    options: dict[str, Any],
    seconds: float,
    stats: dict[str, Any],
) -> str:
    """The verify records (JSONL) of a chunk of lines answered in bulk, from its columns,
    in line order: the bytes :func:`verify_line` writes for the same results.

    Line ``i`` (number ``lines[i]``, position ``first_position + i``) has status
    ``statuses[i]``; ``layout[status]`` says its verdict word and what follows it:
    :data:`BULK_SOLUTION` (the solution, ``solutions[i]``), :data:`BULK_WITNESSES` (two
    witnesses, ``witnesses[i]``: two grids), :data:`BULK_BARE` (nothing) or
    :data:`BULK_INSERT` (the line's whole record is ``inserts[i]``, made by the caller).
    Grids are ``shape.cell_count`` values each (up to 81), ``clues[i]`` the givens of line
    ``i``. Every record shares the run's ``backend``, ``version``, ``options``, per-record
    ``seconds`` and batch ``stats``. A run of lines with solutions is one template of this
    module's pieces interleaved with the columns in C (:mod:`sudoku_model._columns`, which
    knows no field); other verdicts are formatted per line.

    Raises:
        ValueError: for columns of other lengths than the chunk's, a grid over 81 cells,
            or a missing insert.
    """
    n = len(statuses)
    nc = shape.cell_count
    if (
        len(lines) != n
        or len(inserts) != n
        or len(clues) != n
        or len(givens) != n * nc
        or len(solutions) != n * nc
        or len(witnesses) != 2 * n * nc
    ):
        raise ValueError("verify_bulk_lines: the columns differ in length")
    if nc != 81:
        raise ValueError("verify_bulk_lines: grids of 81 cells only")
    if not n:
        return ""
    # a record: head, line, middle, position, puzzle, clues, verdict and evidence, tail;
    # the tail of one record and the head of the next are one piece
    head = _source_head(source)
    middle = f',"input":{input_index},"position":'
    tail = (
        _verify_tail(backend, version, options)
        + repr(round(seconds, 6))
        + ',"stats":'
        + _json(stats)
        + "}\n"
    )
    if statuses.count(statuses[0]) == n:  # the usual chunk: one status throughout
        runs: Iterable[tuple[int, int]] = ((0, n),)
    else:
        runs = (m.span() for m in _RUNS.finditer(statuses))
    out: list[str] = []
    for a, b in runs:
        word, what = layout[statuses[a]]
        if what == BULK_SOLUTION:
            out.append(
                _solution_run(
                    head,
                    middle,
                    tail,
                    word,
                    lines[a:b],
                    first_position + a,
                    givens[nc * a : nc * b],
                    clues[a:b],
                    solutions[nc * a : nc * b],
                )
            )
            continue
        for i in range(a, b):
            if what == BULK_INSERT:
                insert = inserts[i]
                if insert is None:
                    raise ValueError(f"verify_bulk_lines: line {i} needs its record text")
                out.append(insert)
                continue
            if what == BULK_WITNESSES:
                w = witnesses[2 * nc * i : 2 * nc * (i + 1)]
                evidence = _witnesses(shape, w[:nc], w[nc:])
            else:
                evidence = ""
            out.append(
                f'{head}{lines[i]}{middle}{first_position + i},"puzzle":"'
                f'{grid_line(givens[nc * i : nc * (i + 1)])}"'
                f',"clues":{clues[i]},"verdict":"{word}"{evidence}{tail}'
            )
    return "".join(out)


#: Runs of one status in a column of statuses.
_RUNS = re.compile(rb"(.)\1*", re.S)


def _solution_run(
    head: str,
    middle: str,
    tail: str,
    word: str,
    lines: Sequence[int],
    first_position: int,
    givens: bytes,
    clues: bytes,
    solutions: bytes,
) -> str:
    """The records of consecutive lines that all have a solution: one template of this
    module's pieces (the schema) with the columns between them, interleaved in one C pass
    (:mod:`sudoku_model._columns`, which knows no field)."""
    template = (
        head.encode(),
        (_INTS, lines),
        middle.encode(),
        (_COUNTER, first_position),
        b',"puzzle":"',
        (_GRID, givens, 81, _LINE_TABLE),
        (_CHOICE, clues, _clues_to_solution(word)),
        (_GRID, solutions, 81, _LINE_TABLE),
        ('"' + tail).encode(),
    )
    return _columns.join_text(len(clues), template)


#: The kinds of :func:`sudoku_model._columns.join`'s template items.
_GRID, _COUNTER, _INTS, _CHOICE = range(4)


@lru_cache(maxsize=8)
def _clues_to_solution(word: str) -> tuple[bytes, ...]:
    """The text from a puzzle's end to its solution's start, per clue count (0-255)."""
    return tuple(f'","clues":{k},"verdict":"{word}","solution":"'.encode() for k in range(256))
