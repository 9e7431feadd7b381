"""Research data sets: labelled puzzles in train/validation/test splits with no two
equivalent puzzles in different splits, and the check that proves it.

A data set is a directory::

    manifest.json            seeds, options, counts per split, toolkit version, sha256 per file
    train.csv                the puzzles in the chosen ML layout (sudoku_model.mlformats)
    train.labels.csv         id,puzzle,clues,level,guesses,canonical[,log_weight], row for row
    validation.csv, validation.labels.csv, test.csv, test.labels.csv

Labels, per puzzle (:func:`label_puzzles`):

* ``solution``: the unique solution (a backend's ``check_unique_batch``; a puzzle that is
  not unique, or whose published solution is wrong, is dropped and counted in the
  manifest);
* ``clues``: the number of givens;
* ``level``: the logic grader's level (:func:`sudoku_model.logic.grade`, as ``sudoku rate``
  reports it): ``easy`` .. ``expert``, ``extreme`` when it must guess; empty when its
  budget ran out;
* ``guesses``: a tdoku-style backtrack count (:func:`backtrack_count`): the guesses the
  native core makes to find the first solution of the puzzle *under a random
  transformation* (relabelled digits, permuted bands, rows, stacks and columns, perhaps
  transposed), drawn from a seed made of the manifest's ``guesses`` seed and the puzzle's
  own text. The transformation removes the bias of a fixed branching order toward the
  orientation a puzzle happens to be written in (tdoku rates a puzzle the same way,
  averaging over random permutations); tying it to the puzzle text, not to the position,
  makes the label reproducible from the puzzle alone. It is the native backtracker's
  count, not tdoku's: the two branch differently, so the figures are not interchangeable;
* ``canonical``: the minlex form (:func:`sudoku_model.canon.canonical_key`), the class;
* ``log_weight``: for puzzles of the unbiased sampler, the log of the importance weight
  (:mod:`sudoku_model.unbiased`): statistics of all minimal puzzles must be weighted.

An SE (Sudoku Explainer) rating is not a label: the toolkit has no SE rater yet.

Splits (:func:`assign_splits`): puzzles are grouped by canonical form, then whole groups
are given to splits, so no equivalence class crosses splits; with ``stratify`` the groups
are assigned per clue count (or level), each stratum in the requested ratios (equivalent
puzzles have the same number of clues, so a group never straddles two strata).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import random
from collections import Counter
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from . import __version__
from .canon import CanonBudgetError, CanonVariantError, Transform, canonical_key
from .errors import ParseError
from .geometry import Shape
from .grid import Grid
from .mlformats import LAYOUTS, LayoutRow, write_layout
from .puzzle import Puzzle
from .rules import RuleSet
from .solving import Backend, Budget, VerdictKind, get_backend

__all__ = [
    "GUESS_BACKEND",
    "MANIFEST",
    "SPLITS",
    "STRATA",
    "Candidate",
    "CheckReport",
    "Labelled",
    "Problem",
    "assign_splits",
    "backtrack_count",
    "build_dataset",
    "check_dataset",
    "derived_seed",
    "label_puzzles",
    "labelled_puzzles",
    "random_transform",
    "read_manifest",
]

MANIFEST = "manifest.json"
SPLITS = ("train", "validation", "test")
#: What ``stratify`` may name.
STRATA = ("none", "clues", "level")
#: The backend whose guess count is the ``guesses`` label (the definition of the label).
GUESS_BACKEND = "native"
#: Manifest format version.
MANIFEST_SCHEMA = 1
LABEL_COLUMNS = ("id", "puzzle", "clues", "level", "guesses", "canonical")


def derived_seed(seed: int, purpose: str) -> int:
    """The seed of one use (``generate``, ``split``, ``guesses``) of a run's seed (63 bits,
    a hash), so that the uses are independent and each is written in the manifest.

    >>> derived_seed(7, "split") == derived_seed(7, "split") != derived_seed(7, "guesses")
    True
    """
    digest = hashlib.blake2b(f"sudoku-dataset:{purpose}:{seed}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1


# -- labels --------------------------------------------------------------------------------
def random_transform(shape: Shape, rng: random.Random) -> Transform:
    """A uniformly random element of the shape's symmetry group, with a random relabelling
    of the digits: bands and the rows within each band, stacks and the columns within
    each stack permuted, transposed with probability 1/2 when the boxes are square."""
    n = shape.size

    def axis(block: int) -> tuple[int, ...]:
        groups = list(range(n // block))
        rng.shuffle(groups)
        order: list[int] = []
        for g in groups:
            inner = list(range(block))
            rng.shuffle(inner)
            order.extend(g * block + i for i in inner)
        return tuple(order)

    rows = axis(shape.box_rows)
    cols = axis(shape.box_cols)
    transpose = shape.box_rows == shape.box_cols and rng.random() < 0.5
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    return Transform(transpose, rows, cols, (0, *digits))


def backtrack_count(
    puzzle: Puzzle, *, seed: int, backend: Backend | None = None, budget: Budget | None = None
) -> int | None:
    """The ``guesses`` label: the guesses the native core makes to find the first solution
    of ``puzzle`` under the random transformation drawn from ``seed`` and the puzzle's text
    (see the module notes). None when the budget ran out or the puzzle has no solution.

    Raises:
        UnsupportedPuzzleError: for rules the backend lacks.
    """
    engine = backend if backend is not None else _backend(GUESS_BACKEND)
    digest = hashlib.blake2b(
        f"sudoku-dataset-guesses:{seed}:{puzzle.givens.to_line()}".encode(), digest_size=8
    )
    rng = random.Random(int.from_bytes(digest.digest(), "big"))
    moved = random_transform(puzzle.shape, rng).apply(puzzle.givens)
    result = engine.count(Puzzle(moved, puzzle.rules), limit=1, budget=budget)
    if result.count == 0:
        return None
    guesses = result.stats.get("guesses")
    return guesses if isinstance(guesses, int) else None


_BACKENDS: dict[str, Backend] = {}


def _backend(name: str) -> Backend:
    """One backend per name per process (worker processes load their own)."""
    engine = _BACKENDS.get(name)
    if engine is None:
        engine = _BACKENDS[name] = get_backend(name)
    return engine


class Candidate(NamedTuple):
    """A puzzle offered to a data set: its published solution (None: unknown), the log of
    its importance weight (unbiased sampler only), and where it came from (``origin``: a
    collection name, ``generate`` or ``unbiased``; ``where``: file:line or index)."""

    puzzle: Puzzle
    solution: Grid | None = None
    log_weight: float | None = None
    origin: str = ""
    where: str = ""


class Labelled(NamedTuple):
    """A candidate with its labels; ``status`` is ``ok`` or why it cannot be in a data set
    (a verdict word other than unique, ``wrong-solution``, ``canonical-unknown``)."""

    candidate: Candidate
    status: str
    solution: Grid | None = None
    level: str | None = None
    guesses: int | None = None
    canonical: str | None = None


@dataclass(frozen=True)
class _LabelJob:
    """One unit of work: label ``candidates``, or first make them (``make``: ``generate``
    or ``unbiased``, from ``make_seed``, puzzles or grids ``indices``)."""

    candidates: list[Candidate]
    guess_seed: int
    backend: str
    budget: Budget | None
    levels: bool
    make: str = ""
    make_seed: int = 0
    indices: tuple[int, ...] = ()


def label_puzzles(
    candidates: Sequence[Candidate],
    *,
    guess_seed: int,
    backend: str = "native",
    budget: Budget | None = None,
    levels: bool = True,
) -> list[Labelled]:
    """Label candidates (see the module notes): uniqueness and solution by ``backend``'s
    ``check_unique_batch`` (one call per rule set), then level, guesses and canonical
    form of the unique ones. ``levels=False`` skips the grader (the slowest label).

    Raises:
        BackendNotFoundError, BackendUnavailableError: for a backend that cannot load.
        SearchInterrupted: after the backend was interrupted.
    """
    return _label(_LabelJob(list(candidates), guess_seed, backend, budget, levels))


def _label(job: _LabelJob) -> list[Labelled]:
    from .logic import grade

    candidates = job.candidates
    if job.make == "generate":
        candidates = _generated(job.make_seed, job.indices)
    elif job.make == "unbiased":
        candidates = _unbiased(job.make_seed, job.indices)
    engine = _backend(job.backend)
    guesser = _backend(GUESS_BACKEND)
    by_rules: dict[RuleSet, list[int]] = {}
    for i, cand in enumerate(candidates):
        by_rules.setdefault(cand.puzzle.rules, []).append(i)
    answers: dict[int, tuple[VerdictKind, Grid | None]] = {}
    for rules, indices in by_rules.items():
        batch = engine.check_unique_batch(
            rules,
            [bytes(candidates[i].puzzle.givens.values) for i in indices],
            budget=job.budget,
        )
        for k, i in enumerate(indices):
            answers[i] = (batch.kinds[k], batch.solution(k))
    out: list[Labelled] = []
    for i, cand in enumerate(candidates):
        kind, solution = answers[i]
        if kind is not VerdictKind.UNIQUE or solution is None:
            out.append(Labelled(cand, kind.value))
            continue
        if cand.solution is not None and cand.solution != solution:
            out.append(Labelled(cand, "wrong-solution", solution))
            continue
        try:
            key = canonical_key(cand.puzzle, budget=job.budget)
        except (CanonBudgetError, CanonVariantError):
            out.append(Labelled(cand, "canonical-unknown", solution))
            continue
        level = None
        if job.levels:
            level = grade(cand.puzzle, budget=job.budget, keep_steps=False).level
        guesses = backtrack_count(
            cand.puzzle, seed=job.guess_seed, backend=guesser, budget=job.budget
        )
        out.append(Labelled(cand, "ok", solution, level, guesses, key))
    return out


# -- where puzzles come from ----------------------------------------------------------------
def _generated(seed: int, indices: Sequence[int]) -> list[Candidate]:
    from .generate import GenerationSpec, engine_for, generate_one, puzzle_seed

    engine = engine_for(_backend(GUESS_BACKEND))
    spec = GenerationSpec(RuleSet.classic(Shape(3, 3)))
    out = []
    for i in indices:
        made = generate_one(spec, engine, seed=puzzle_seed(seed, i), index=i)
        out.append(Candidate(made.puzzle, made.solution, None, "generate", f"generate #{i}"))
    return out


def _unbiased(seed: int, grids: Sequence[int]) -> list[Candidate]:
    from .unbiased import weighted_puzzles

    return [
        Candidate(w.puzzle, w.solution, w.log_weight, "unbiased", f"unbiased grid {w.grid}")
        for w in weighted_puzzles(
            RuleSet.classic(Shape(3, 3)),
            seed=seed,
            grids=len(grids),
            first_grid=grids[0],
            backend=_backend(GUESS_BACKEND),
        )
    ]


#: Puzzles (or unbiased grids, about 6 puzzles each) per unit of work.
CHUNK = 64
UNBIASED_GRIDS_PER_CHUNK = 16


def labelled_puzzles(
    source: str | Iterable[Candidate],
    *,
    guess_seed: int,
    count: int | None = None,
    make_seed: int = 0,
    backend: str = "native",
    budget: Budget | None = None,
    levels: bool = True,
    jobs: int = 1,
) -> Iterator[Labelled]:
    """Labelled puzzles, in order, made and labelled in ``jobs`` worker processes (one
    worker thread when 1): ``source`` is ``generate`` (``count`` puzzles of the top-down
    generator; puzzle i from :func:`sudoku_model.generate.puzzle_seed` (make_seed, i)),
    ``unbiased`` (the first ``count`` weighted puzzles of the unbiased sampler with
    ``make_seed``, grid after grid) or candidates to label. The output is the same for
    any ``jobs``.

    Raises:
        ValueError: for an unknown source name, a missing count, or jobs < 1.
        Interrupted: inside :func:`sudoku_model.executor.stop_on_signals`, after a signal.
    """
    import itertools

    from .executor import chunks, executor_for

    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    base = _LabelJob([], guess_seed, backend, budget, levels)
    work: Iterable[_LabelJob]
    if isinstance(source, str):
        if source not in ("generate", "unbiased") or count is None:
            raise ValueError("source: 'generate' or 'unbiased' with a count, or candidates")
        if source == "generate":
            size = max(1, min(CHUNK, count // (jobs * 8) or 1))
            work = (
                _replace(base, make="generate", make_seed=make_seed, indices=tuple(c))
                for c in chunks(range(count), size, first=1)
            )
        else:
            step = UNBIASED_GRIDS_PER_CHUNK
            work = (
                _replace(
                    base, make="unbiased", make_seed=make_seed, indices=tuple(range(g, g + step))
                )
                for g in itertools.count(0, step)
            )
    else:
        work = (_replace(base, candidates=c) for c in chunks(source, CHUNK, first=8))
    executor = executor_for(jobs=jobs, python_work=True)
    stop = [_backend(GUESS_BACKEND).interrupt, _backend(backend).interrupt] if jobs == 1 else []
    mapped = executor.map(_label, work, on_stop=stop)
    assert isinstance(mapped, Generator)
    left = count
    try:
        for _, batch in mapped:
            yield from batch[:left]
            if left is not None:
                left -= min(left, len(batch))
                if left == 0:
                    break
    finally:
        mapped.close()  # stops the workers, also when the unbiased stream is cut short


def _replace(job: _LabelJob, **changes: Any) -> _LabelJob:
    from dataclasses import replace

    return replace(job, **changes)


# -- splits ----------------------------------------------------------------------------------
def assign_splits(
    keys: Sequence[str],
    ratios: Sequence[float],
    *,
    seed: int,
    strata: Sequence[object] | None = None,
) -> list[int]:
    """The split (an index into ``ratios``) of each item: items with the same key (the
    canonical form) always share a split. Groups are shuffled (``seed``) and each goes to
    the split furthest below its share, stratum by stratum (``strata[i]`` is item i's
    stratum; items of one key must share a stratum), so every stratum is split in the
    ratios, give or take a group.

    >>> assign_splits(["a", "b", "a", "c"], [0.5, 0.5, 0.0], seed=1)[0::2]
    [0, 0]

    Raises:
        ValueError: for negative ratios, ratios that do not sum to 1, or a key in two
            strata.
    """
    if any(r < 0 for r in ratios) or not math.isclose(sum(ratios), 1.0, abs_tol=1e-9):
        raise ValueError(f"split ratios must be non-negative and sum to 1, got {list(ratios)}")
    groups: dict[str, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    by_stratum: dict[str, list[list[int]]] = {}
    for members in groups.values():
        labels = {repr(strata[i]) for i in members} if strata is not None else {""}
        if len(labels) > 1:
            raise ValueError(f"equivalent puzzles in different strata: {sorted(labels)}")
        by_stratum.setdefault(labels.pop(), []).append(members)
    rng = random.Random(seed)
    out = [0] * len(keys)
    for stratum in sorted(by_stratum):
        stratum_groups = by_stratum[stratum]
        rng.shuffle(stratum_groups)
        counts = [0] * len(ratios)
        placed = 0
        for members in stratum_groups:
            placed += len(members)
            best = max(range(len(ratios)), key=lambda j: (ratios[j] * placed - counts[j], -j))
            counts[best] += len(members)
            for i in members:
                out[i] = best
    return out


# -- building --------------------------------------------------------------------------------
def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _label_rows(items: Sequence[tuple[int, Labelled]], weighted: bool) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(LABEL_COLUMNS + (("log_weight",) if weighted else ()))
    for ident, lab in items:
        row = [
            str(ident),
            lab.candidate.puzzle.givens.to_line(),
            str(lab.candidate.puzzle.clues),
            lab.level or "",
            "" if lab.guesses is None else str(lab.guesses),
            lab.canonical or "",
        ]
        if weighted:
            w = lab.candidate.log_weight
            row.append("" if w is None else f"{w:.6f}")
        writer.writerow(row)
    return out.getvalue()


def build_dataset(
    directory: str | os.PathLike[str],
    labelled: Iterable[Labelled],
    *,
    layout: str,
    ratios: Sequence[float],
    seed: int,
    seeds: dict[str, int],
    stratify: str = "none",
    source: dict[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Split labelled puzzles and write the data set into ``directory`` (created when
    missing): one layout file and one labels file per split with a positive ratio, then
    the manifest (returned). Puzzles whose status is not ``ok`` are left out and counted
    under ``dropped``.

    Raises:
        ValueError: for an unknown layout or stratum, or bad ratios.
        OSError: when a file cannot be written.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; known: {', '.join(LAYOUTS)}")
    if stratify not in STRATA:
        raise ValueError(f"unknown stratification {stratify!r}; known: {', '.join(STRATA)}")
    if len(ratios) != len(SPLITS):
        raise ValueError(f"three split ratios (train, validation, test), got {list(ratios)}")
    kept: list[Labelled] = []
    dropped: Counter[str] = Counter()
    for lab in labelled:
        if lab.status == "ok":
            kept.append(lab)
        else:
            dropped[lab.status] += 1
    keys = [lab.canonical or "" for lab in kept]
    strata: list[object] | None = None
    if stratify == "clues":
        strata = [lab.candidate.puzzle.clues for lab in kept]
    elif stratify == "level":
        strata = [lab.level for lab in kept]
    split_of = assign_splits(keys, ratios, seed=seeds["split"], strata=strata)
    weighted = any(lab.candidate.log_weight is not None for lab in kept)
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    splits: dict[str, Any] = {}
    for j, name in enumerate(SPLITS):
        if ratios[j] <= 0:
            continue
        items = [(ident, lab) for ident, lab in enumerate(kept) if split_of[ident] == j]
        rows = (
            LayoutRow(
                lab.candidate.puzzle.givens,
                lab.solution,  # type: ignore[arg-type]  # ok rows have a solution
                source=lab.candidate.origin,
                rating=lab.guesses,
                id=str(ident),
                clues=lab.candidate.puzzle.clues,
                difficulty=lab.level,
            )
            for ident, lab in items
        )
        data = root / f"{name}.csv"
        labels = root / f"{name}.labels.csv"
        with open(data, "w", encoding="utf-8", newline="\n") as out:
            write_layout(rows, layout, out)
        labels.write_text(_label_rows(items, weighted), encoding="utf-8", newline="\n")
        clues = Counter(lab.candidate.puzzle.clues for _, lab in items)
        levels = Counter(lab.level or "unknown" for _, lab in items)
        splits[name] = {
            "file": data.name,
            "labels": labels.name,
            "count": len(items),
            "classes": len({lab.canonical for _, lab in items}),
            "clues": {str(k): clues[k] for k in sorted(clues)},
            "levels": dict(sorted(levels.items())),
        }
        files[data.name] = _sha256(data)
        files[labels.name] = _sha256(labels)
    manifest: dict[str, Any] = {
        "schema": MANIFEST_SCHEMA,
        "kind": "sudoku-dataset",
        "toolkit": f"sudoku-model {__version__}",
        "seed": seed,
        "seeds": dict(seeds),
        "source": source or {},
        "layout": layout,
        "ratios": dict(zip(SPLITS, ratios)),
        "stratify": stratify,
        "labels": {
            "clues": "number of givens",
            "level": "logic grader level (sudoku rate); empty: budget spent or not graded",
            "guesses": (
                f"guesses of the {GUESS_BACKEND} backend to the first solution, under a "
                "random transformation seeded by seeds.guesses and the puzzle text"
            ),
            "canonical": "minlex form of the givens (the equivalence class)",
            "se_rating": "not available (no SE rater in this toolkit)",
        },
        "weighted": weighted,
        "count": len(kept),
        "splits": splits,
        "dropped": dict(sorted(dropped.items())),
        "files": files,
    }
    if extra:
        manifest.update(extra)
    (root / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


# -- checking --------------------------------------------------------------------------------
class Problem(NamedTuple):
    """One reason a data set fails its check: ``reason`` is a stable word
    (``wrong-answer``, ``missing-answer``, ``not-unique``, ``unsolvable``,
    ``contradictory``, ``unknown``, ``label-mismatch``, ``cross-split``,
    ``count-mismatch``, ``hash-mismatch``), ``where`` a ``file:line`` (or a file)."""

    reason: str
    where: str
    detail: str


@dataclass
class CheckReport:
    """What :func:`check_dataset` found: ``problems`` (the data set is wrong),
    ``malformed`` (input errors: a file that cannot be read as the manifest says), the
    puzzles checked per split."""

    problems: list[Problem] = field(default_factory=list)
    malformed: list[ParseError] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.malformed

    def reasons(self) -> dict[str, int]:
        """Reason -> number of problems, in order of first appearance."""
        return dict(Counter(p.reason for p in self.problems))


def _manifest_error(path: Path, message: str, line: int = 1, column: int = 1) -> ParseError:
    return ParseError(message, source=str(path), line=line, column=column)


def read_manifest(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of a data set directory, its required fields checked.

    Raises:
        ParseError: for invalid JSON (line and column) or a missing or mistyped field.
        OSError: when the manifest cannot be read.
    """
    path = Path(directory) / MANIFEST
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _manifest_error(path, f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except (ValueError, RecursionError) as exc:
        raise _manifest_error(path, f"invalid JSON: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("kind") != "sudoku-dataset":
        raise _manifest_error(path, 'not a data set manifest (no "kind": "sudoku-dataset")')
    wanted: dict[str, type] = {
        "layout": str,
        "splits": dict,
        "files": dict,
        "seeds": dict,
    }
    for key, kind in wanted.items():
        if not isinstance(manifest.get(key), kind):
            raise _manifest_error(path, f'field "{key}" is missing or not a {kind.__name__}')
    for name, digest in manifest["files"].items():
        if not _plain_name(name) or not isinstance(digest, str):
            raise _manifest_error(path, f'"files": {name!r} must be a file name with its sha256')
    if manifest["layout"] not in LAYOUTS:
        raise _manifest_error(path, f'unknown layout "{manifest["layout"]}"')
    if not isinstance(manifest["seeds"].get("guesses"), int):
        raise _manifest_error(path, 'field "seeds.guesses" is missing or not an integer')
    for name, split in manifest["splits"].items():
        if name not in SPLITS or not isinstance(split, dict):
            raise _manifest_error(path, f'unknown split "{name}"')
        for key in ("file", "labels"):
            if not _plain_name(split.get(key)):
                raise _manifest_error(path, f'split "{name}": field "{key}" must be a file name')
        if not isinstance(split.get("count"), int):
            raise _manifest_error(path, f'split "{name}": field "count" must be an integer')
    return manifest


def _plain_name(value: object) -> bool:
    """A file name inside the data set directory (no path: a manifest names nothing
    outside it)."""
    return (
        isinstance(value, str)
        and value not in ("", ".", "..")
        and "/" not in value
        and "\\" not in value
    )


def _field_column(text: str, index: int) -> int:
    """1-based column of field ``index`` of a plain CSV line (our files quote nothing)."""
    return sum(len(f) + 1 for f in text.split(",")[:index]) + 1


def _read_split(path: Path, expected: int, report: CheckReport) -> list[Any]:
    """The records of one CSV file; malformed ones go to the report."""
    from .formats import iter_records

    try:
        records = list(iter_records(path, fmt="csv"))
    except ParseError as exc:
        if expected == 0 and "no puzzle found" in exc.message:
            return []  # an empty split
        report.malformed.append(exc)
        return []
    good = []
    for rec in records:
        if rec.error is not None:
            report.malformed.append(rec.error)
        else:
            good.append(rec)
    return good


def _int_field(rec: Any, name: str, report: CheckReport, *, optional: bool) -> int | None:
    """An integer extra column of a record; a bad value is a malformed record."""
    raw = (rec.extra or {}).get(name)
    if raw is None or (optional and raw.strip() == ""):
        if raw is None and not optional:
            report.malformed.append(
                ParseError(f'no "{name}" column', source=rec.source, line=rec.line, column=1)
            )
        return None
    try:
        return int(raw)
    except ValueError:
        header = list((rec.extra or {}).keys())
        index = 1 + header.index(name) if name in header else 0
        report.malformed.append(
            ParseError(
                f'"{name}" must be a whole number, got {raw[:20]!r}',
                source=rec.source,
                line=rec.line,
                column=_field_column(rec.text, index),
                text=rec.text,
            )
        )
        return None


def check_dataset(
    directory: str | os.PathLike[str],
    *,
    backend: str = "native",
    budget: Budget | None = None,
    levels: bool = False,
) -> CheckReport:
    """Check a data set written by :func:`build_dataset`: every file's sha256 against the
    manifest; every answer is the unique solution of its puzzle (``backend``'s
    ``check_unique_batch``); the labels agree (clue count, guesses recomputed, canonical
    form, the layout's own label columns, and with ``levels`` the grader's level);
    no equivalence class crosses splits; the counts match the manifest.

    Raises:
        ParseError: for a malformed manifest.
        OSError: when the manifest or a file it names cannot be read.
    """
    root = Path(directory)
    manifest = read_manifest(root)
    report = CheckReport()
    guess_seed: int = manifest["seeds"]["guesses"]
    edited: set[str] = set()  # the files whose sha256 differs: what the user changed
    for name, digest in manifest["files"].items():
        path = root / str(name)
        if not path.is_file():
            raise FileNotFoundError(2, "no such file (named in the manifest)", str(path))
        if _sha256(path) != digest:
            edited.add(str(path))
            report.problems.append(
                Problem("hash-mismatch", str(path), "sha256 differs from the manifest")
            )
    engine = _backend(backend)
    guesser = _backend(GUESS_BACKEND)
    classes: dict[str, tuple[str, str]] = {}
    crossings: set[tuple[str, str]] = set()
    for split in SPLITS:
        entry = manifest["splits"].get(split)
        if entry is None:
            continue
        data_path = root / entry["file"]
        label_path = root / entry["labels"]
        records = _read_split(data_path, entry["count"], report)
        labels = _read_split(label_path, entry["count"], report)
        report.counts[split] = len(records)
        if report.malformed:
            continue  # input errors: the rest of the check would only repeat them
        if len(records) != entry["count"]:
            report.problems.append(
                Problem(
                    "count-mismatch",
                    str(data_path),
                    f"{len(records)} puzzles, the manifest says {entry['count']}",
                )
            )
        if len(labels) != len(records):
            report.problems.append(
                Problem(
                    "label-mismatch",
                    str(label_path),
                    f"{len(labels)} label rows for {len(records)} puzzles",
                )
            )
        _check_answers(records, engine, budget, report)
        for rec, lab in zip(records, labels):
            where = f"{rec.source}:{rec.line}"
            try:
                key = canonical_key(rec.puzzle, budget=budget)
            except (CanonBudgetError, CanonVariantError) as exc:
                report.problems.append(Problem("unknown", where, f"no canonical form: {exc}"))
                continue
            _check_labels(rec, lab, key, guess_seed, guesser, budget, levels, report, edited)
            seen = classes.get(key)
            if seen is None:
                classes[key] = (split, where)
            elif seen[0] != split and (seen[0], split) not in crossings:
                crossings.add((seen[0], split))
                report.problems.append(
                    Problem(
                        "cross-split",
                        where,
                        f"equivalent to {seen[1]} ({seen[0]}): canonical form {key}",
                    )
                )
            elif seen[0] != split:
                report.problems.append(
                    Problem("cross-split", where, f"equivalent to {seen[1]} ({seen[0]})")
                )
    return report


def _check_answers(
    records: Sequence[Any], engine: Backend, budget: Budget | None, report: CheckReport
) -> None:
    by_rules: dict[RuleSet, list[Any]] = {}
    for rec in records:
        by_rules.setdefault(rec.puzzle.rules, []).append(rec)
    for rules, recs in by_rules.items():
        batch = engine.check_unique_batch(
            rules, [bytes(r.puzzle.givens.values) for r in recs], budget=budget
        )
        for k, rec in enumerate(recs):
            where = f"{rec.source}:{rec.line}"
            kind = batch.kinds[k]
            if kind is VerdictKind.UNIQUE:
                if rec.solution is None:
                    report.problems.append(Problem("missing-answer", where, "no answer given"))
                elif rec.solution != (solution := batch.solution(k)):
                    assert solution is not None  # unique
                    pairs = zip(rec.solution.values, solution.values)
                    cells = [rules.shape.cell_name(c) for c, (a, b) in enumerate(pairs) if a != b]
                    text = ", ".join(cells[:6])
                    report.problems.append(
                        Problem(
                            "wrong-answer", where, f"differs from the unique solution at {text}"
                        )
                    )
            elif kind is VerdictKind.MULTIPLE:
                report.problems.append(
                    Problem("not-unique", where, "the puzzle has several solutions")
                )
            elif kind is VerdictKind.UNKNOWN:
                report.problems.append(Problem("unknown", where, "the budget ran out"))
            else:
                report.problems.append(Problem(kind.value, where, f"the puzzle is {kind.value}"))


def _check_labels(
    rec: Any,
    lab: Any,
    key: str,
    guess_seed: int,
    guesser: Backend,
    budget: Budget | None,
    levels: bool,
    report: CheckReport,
    edited: set[str],
) -> None:
    """Compare a puzzle's row with its label row. A mismatch is reported at the row of
    the file that was edited (its sha256 differs from the manifest) when only one of the
    two was; else at the puzzle's row for a different puzzle, at the label row for a
    wrong label; the detail names the other row."""
    puzzle_at = f"{rec.source}:{rec.line}"
    label_at = f"{lab.source}:{lab.line}"
    data_edited, labels_edited = rec.source in edited, lab.source in edited
    where = puzzle_at if data_edited and not labels_edited else label_at
    mismatches: list[str] = []
    if lab.puzzle.givens != rec.puzzle.givens:
        if labels_edited and not data_edited:
            problem = Problem(
                "label-mismatch", label_at, f"labels a different puzzle than {puzzle_at}"
            )
        else:
            changed = " (this file was changed after the build)" if data_edited else ""
            problem = Problem(
                "label-mismatch",
                puzzle_at,
                f"a different puzzle than its label row {label_at}{changed}",
            )
        report.problems.append(problem)
        return
    extra = rec.extra or {}
    clues = rec.puzzle.clues
    label_clues = _int_field(lab, "clues", report, optional=False)
    guesses = _int_field(lab, "guesses", report, optional=True)
    if "rating" in extra:
        rating = _int_field(rec, "rating", report, optional=True)
        if rating != guesses:
            mismatches.append(f"rating {rating} but guesses label {guesses}")
    if "clues" in extra:
        layout_clues = _int_field(rec, "clues", report, optional=False)
        if layout_clues != clues:
            mismatches.append(f"clues column {layout_clues}, the puzzle has {clues}")
    if report.malformed:
        return
    level = (lab.extra or {}).get("level") or None
    if "difficulty" in extra and (extra["difficulty"] or None) != level:
        mismatches.append(f"difficulty {extra['difficulty']!r} but level label {level!r}")
    if (lab.extra or {}).get("canonical") != key:
        mismatches.append(f"canonical label {(lab.extra or {}).get('canonical')}, computed {key}")
    if label_clues != clues:
        mismatches.append(f"clues label {label_clues}, the puzzle has {clues}")
    actual = backtrack_count(rec.puzzle, seed=guess_seed, backend=guesser, budget=budget)
    if actual != guesses:
        mismatches.append(f"guesses label {guesses}, recomputed {actual}")
    if levels:
        from .logic import grade

        graded = grade(rec.puzzle, budget=budget, keep_steps=False).level
        if graded != level:
            mismatches.append(f"level label {level!r}, graded {graded!r}")
    if mismatches:
        other = label_at if where == puzzle_at else puzzle_at
        report.problems.append(
            Problem("label-mismatch", where, "; ".join(mismatches) + f" (the row at {other})")
        )
