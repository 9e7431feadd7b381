"""Certificates of verdicts that anyone can re-check without trusting our solvers.

Writing (:func:`certify_records`, :class:`Certifier`, ``sudoku verify FILE --certify DIR``):
for each puzzle a backend's :meth:`~sudoku_model.solving.Backend.certificate` primitive
(PySAT: a fresh proof-logging solver per puzzle) gives the evidence, and this module writes
it into a directory:

``manifest.json``
    the collection: format, toolkit version, solver name and version, encoding, the
    variable mapping, the rules CNF files (with sha256), and one entry per puzzle (source,
    line, givens, rules, verdict, solution or witnesses or clash, its files with sha256).
``rules-<sha256 prefix>.cnf``
    the rule clauses of one rule set (DIMACS), shared by every puzzle of that rule set.
``puzzles/<index>.cnf`` and ``puzzles/<index>.drat``
    the puzzle's own clauses (givens as unit clauses, and for ``unique`` the blocking
    clause of the solution) and the DRAT refutation of rules + those clauses.

Checking (:func:`check_certificates`, ``sudoku check-certificate DIR|FILE``) trusts neither
the solver nor ``backends/cnf.py``: it rebuilds every clause from the puzzle with
:mod:`sudoku_model.certcnf` (a small encoder of its own), compares with the shipped files,
checks solutions and witnesses against the rules, and checks each proof with an independent
DRAT checker: ``native`` (the default: our own forward DRUP/DRAT checker in C,
``sudoku_model/drat.c``, which loads each rules CNF once per process and thread and then
adds only each puzzle's clauses), ``dratify`` (pure Python; its Rust engine when
``cdclkit-native`` is installed, the ``certify`` extra) or ``drat-trim`` (found on PATH).
Each puzzle is reported valid, or with the exact reason it is not.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from . import __version__, certcnf
from .errors import SudokuError
from .executor import chunks, executor_for
from .formats.pencilmark import format_pencilmark_line, read_pencilmark_line
from .geometry import Shape
from .grid import Grid
from .puzzle import Puzzle, rules_without_candidates
from .rules import AllDifferent, Different, RuleSet
from .solving import (
    DEFAULT_BUDGET,
    Backend,
    Budget,
    Certificate,
    CertificationUnsupported,
    VerdictKind,
    get_backend,
)

__all__ = [
    "CHECKERS",
    "DEFAULT_CERTIFIER",
    "DEFAULT_CHECKER",
    "FORMAT",
    "MANIFEST",
    "CertificateCheck",
    "CertificateFormatError",
    "Certifier",
    "check_certificates",
    "certify_records",
    "load_manifest",
]

FORMAT = "sudoku-certificates"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
DEFAULT_CERTIFIER = "pysat:cadical195"
#: ``native`` (our C checker, sudoku_model/drat.c; the default), ``dratify`` (its Rust
#: engine when registered, else pure Python), ``dratify-python`` (always the pure-Python
#: engine), ``drat-trim`` (the C checker, from PATH).
CHECKERS = ("native", "dratify", "dratify-python", "drat-trim")
DEFAULT_CHECKER = "native"
VARIABLE_MAPPING = (
    "cell (r, c) holds digit d <=> variable r*n*n + c*n + d (0-based r, c; 1-based d)"
)
#: Puzzles per task sent to a worker.
CHUNK = 64


class CertificateFormatError(SudokuError, ValueError):
    """A manifest that cannot be read at all (not JSON, not this format): the message
    names the file."""


# -- writing -------------------------------------------------------------------------------
def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write_atomic(path: Path, data: bytes) -> None:
    """Write via a temporary file and a rename: two workers writing the same rules file
    (same content) never leave a torn one."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _dimacs(clauses: Iterable[Sequence[int]], num_vars: int, comments: Sequence[str]) -> bytes:
    body = [f"c {c}" for c in comments]
    listed = [" ".join(map(str, c)) + " 0" for c in clauses]
    body.append(f"p cnf {num_vars} {len(listed)}")
    body.extend(listed)
    return ("\n".join(body) + "\n").encode()


def _rules_json(rules: RuleSet) -> dict[str, Any]:
    return rules.to_json()


def rules_from_json(data: Any) -> RuleSet:
    """The rule set of a manifest's ``rules`` object (``box``, ``variants``, ``regions``).

    Raises:
        ValueError: for a malformed object or unknown variant.
    """
    if not isinstance(data, dict) or not isinstance(data.get("box"), list):
        raise ValueError(f"rules must be an object with a 'box' list, got {data!r}")
    box = data["box"]
    if len(box) != 2 or not all(isinstance(b, int) and not isinstance(b, bool) for b in box):
        raise ValueError(f"box must be two integers, got {box!r}")
    variants = data.get("variants", [])
    regions = data.get("regions")
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise ValueError(f"variants must be a list of names, got {variants!r}")
    if regions is not None and (
        not isinstance(regions, list) or not all(isinstance(r, int) for r in regions)
    ):
        raise ValueError("regions must be a list of integer labels")
    return RuleSet.build(Shape(box[0], box[1]), variants, regions)


@dataclass(frozen=True)
class _CertifyConfig:
    backend: str
    budget: Budget
    out_dir: str


#: One backend per worker process (and per serial run), by name.
_BACKENDS: dict[str, Backend] = {}
#: Rules CNF files written by this process: (out_dir, rules) -> (name, sha256).
_RULES_FILES: dict[tuple[str, RuleSet], tuple[str, str]] = {}


def _backend_for(name: str) -> Backend:
    backend = _BACKENDS.get(name)
    if backend is None:
        backend = _BACKENDS[name] = get_backend(name)
    return backend


def _rules_file(out_dir: str, cert: Certificate) -> tuple[str, str]:
    rules = rules_without_candidates(cert.puzzle.rules)  # candidates: puzzle clauses
    key = (out_dir, rules)
    known = _RULES_FILES.get(key)
    if known is None:
        data = _dimacs(
            cert.rule_clauses,
            cert.num_vars,
            [
                f"sudoku certificate rules, encoding {cert.encoding}",
                f"rules {json.dumps(_rules_json(rules), separators=(',', ':'))}",
                VARIABLE_MAPPING,
            ],
        )
        sha = _sha256(data)
        name = f"rules-{sha[:16]}.cnf"
        path = Path(out_dir) / name
        if not path.exists():
            _write_atomic(path, data)
        known = _RULES_FILES[key] = (name, sha)
    return known


#: A puzzle to certify: (index, source, line, puzzle or None, the verdict found before or
#: None, the parse error or None).
Item = tuple[int, str, int, Puzzle | None, str | None, str | None]


def _entry_name(index: int) -> str:
    return f"{index:06d}"


def certify_one(backend: Backend, item: Item, out_dir: str, budget: Budget) -> dict[str, Any]:
    """Certify one puzzle, write its files under ``out_dir`` and return its manifest
    entry (the verdict found before, when given and different, is kept as
    ``disagreement``). Never raises for a puzzle: a refusal or a failure is the entry's
    ``error``.

    Raises:
        SearchInterrupted: after the backend was interrupted.
        OSError: when a file cannot be written.
    """
    index, source, line, puzzle, expected, parse_error = item
    entry: dict[str, Any] = {"index": index, "source": source, "line": line}
    if puzzle is None:
        entry.update(verdict="malformed", certified=False, error=parse_error or "malformed")
        return entry
    if puzzle.is_pencilmark:  # the candidates line; the candidates are puzzle clauses
        entry["puzzle"] = format_pencilmark_line(puzzle)
    else:
        entry["puzzle"] = puzzle.givens.to_line()
    entry["rules"] = _rules_json(rules_without_candidates(puzzle.rules))
    try:
        cert = backend.certificate(puzzle.rules, puzzle.givens, budget=budget)
    except CertificationUnsupported as exc:
        entry.update(verdict=expected or "unknown", certified=False, error=str(exc))
        return entry
    except (RuntimeError, ValueError) as exc:
        entry.update(verdict=expected or "unknown", certified=False, error=str(exc))
        return entry
    kind = cert.verdict
    entry["verdict"] = kind.value
    entry["seconds"] = round(cert.seconds, 6)
    if expected is not None and expected != kind.value and expected != "unknown":
        entry["disagreement"] = f"verify answered {expected}, the certifier {kind.value}"
    if kind is VerdictKind.UNKNOWN:
        entry.update(certified=False, error="budget spent before a verdict: nothing certified")
        return entry
    entry["certified"] = True
    if kind is VerdictKind.CONTRADICTORY:
        assert cert.clash is not None
        entry["clash"] = list(cert.clash)
        return entry
    if kind is VerdictKind.MULTIPLE:
        entry["witnesses"] = [w.to_line() for w in cert.witnesses]
        return entry
    if cert.solution is not None:
        entry["solution"] = cert.solution.to_line()
    rules_name, _ = _rules_file(out_dir, cert)
    name = _entry_name(index)
    cnf = _dimacs(
        cert.puzzle_clauses,
        cert.num_vars,
        [f"sudoku certificate: puzzle {index}, {kind.value}; the formula is {rules_name} + this"],
    )
    assert cert.proof is not None
    proof = cert.proof.encode()
    files = {}
    for key, suffix, data in (("cnf", "cnf", cnf), ("proof", "drat", proof)):
        rel = f"puzzles/{name}.{suffix}"
        with open(Path(out_dir) / rel, "wb") as f:
            f.write(data)
        files[key] = {"path": rel, "sha256": _sha256(data), "bytes": len(data)}
    entry["rules_cnf"] = rules_name
    entry["files"] = files
    return entry


def _certify_task(config: _CertifyConfig, items: list[Item]) -> list[dict[str, Any]]:
    backend = _backend_for(config.backend)
    return [certify_one(backend, item, config.out_dir, config.budget) for item in items]


def _prepare_dir(out_dir: str | os.PathLike[str]) -> Path:
    """Create the output directory (it must not hold files already).

    Raises:
        ValueError: for a path that is a file or a directory that is not empty.
        OSError: when it cannot be created.
    """
    path = Path(out_dir)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{path}: not a directory")
    if path.is_dir() and any(path.iterdir()):
        raise ValueError(f"{path}: directory not empty: certificates go into a new or empty one")
    (path / "puzzles").mkdir(parents=True, exist_ok=True)
    return path


def certification_refusal(backend: str) -> str | None:
    """None when ``backend`` (a name) can certify, else why not (asked before a run).

    Raises:
        BackendNotFoundError, BackendUnavailableError, ValueError: for a bad name.
    """
    return _backend_for(backend).certificate_refusal()


class Certifier:
    """Writes the certificates of a stream of puzzles into one directory, in order, and
    the manifest at the end (also after an interruption: the manifest then lists the
    puzzles certified so far).

    ``jobs`` worker processes certify chunks in parallel (1: one worker thread); the
    directory must be new or empty.

    Raises:
        ValueError: for a non-empty directory, or a backend that cannot certify.
        OSError: when the directory cannot be created.
    """

    def __init__(
        self,
        out_dir: str | os.PathLike[str],
        *,
        backend: str = DEFAULT_CERTIFIER,
        budget: Budget | None = None,
        jobs: int = 1,
    ) -> None:
        refusal = certification_refusal(backend)
        if refusal is not None:
            raise ValueError(refusal)
        self.path = _prepare_dir(out_dir)
        self.backend = backend
        self.config = _CertifyConfig(
            backend, DEFAULT_BUDGET if budget is None else budget, str(self.path)
        )
        self.jobs = jobs
        self.entries: list[dict[str, Any]] = []
        self.counts: dict[str, int] = {}
        self.disagreements: list[dict[str, Any]] = []

    def run(self, items: Iterable[Item]) -> Iterator[dict[str, Any]]:
        """Certify ``items`` (see :data:`Item`), yielding each manifest entry in order;
        the manifest is written when the iteration ends, however it ends."""
        executor = executor_for(jobs=self.jobs, python_work=True)
        on_stop = [_BACKENDS[self.backend].interrupt] if self.backend in _BACKENDS else []
        try:
            for _, entries in executor.map(
                partial(_certify_task, self.config), chunks(items, CHUNK), on_stop=on_stop
            ):
                for entry in entries:
                    self.entries.append(entry)
                    key = entry["verdict"] if entry.get("certified") else "not certified"
                    self.counts[key] = self.counts.get(key, 0) + 1
                    if "disagreement" in entry:
                        self.disagreements.append(entry)
                    yield entry
        finally:
            executor.close(kill=True)
            for b in _BACKENDS.values():
                b.clear_interrupt()
            self.write_manifest()

    def stream(self, results: Iterable[Any]) -> Iterator[Any]:
        """Certify the puzzles of verify results (:class:`~sudoku_model.verify.VerifyResult`)
        as they come, yielding each result after its certificate is written."""
        pending: deque[Any] = deque()

        def items() -> Iterator[Item]:
            for index, r in enumerate(results):
                pending.append(r)
                error = None if r.error is None else str(r.error).splitlines()[0]
                yield (index, r.source, r.line, r.puzzle, r.verdict.value, error)

        for _ in self.run(items()):
            yield pending.popleft()

    def write_manifest(self) -> None:
        """Write ``manifest.json`` for the entries so far (atomically)."""
        rules_files: dict[str, Any] = {}
        for entry in self.entries:
            name = entry.get("rules_cnf")
            if name and name not in rules_files:
                data = (self.path / name).read_bytes()
                rules_files[name] = {"sha256": _sha256(data), "rules": entry["rules"]}
        backend = _BACKENDS.get(self.backend)
        manifest = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "toolkit": f"sudoku-model {__version__}",
            "solver": self.backend,
            "solver_version": backend.version() if backend is not None else "unknown",
            "encoding": certcnf.ENCODING,
            "variables": VARIABLE_MAPPING,
            "formula": "unique/unsolvable: the clauses of rules_cnf followed by those of "
            "files.cnf; files.proof is its DRAT refutation",
            "counts": self.counts,
            "rules_files": rules_files,
            "puzzles": self.entries,
        }
        _write_atomic(self.path / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode("utf-8"))


def certify_records(
    records: Iterable[Any],
    out_dir: str | os.PathLike[str],
    *,
    backend: str = DEFAULT_CERTIFIER,
    budget: Budget | None = None,
    jobs: int = 1,
) -> Certifier:
    """Certify every record of :func:`sudoku_model.formats.iter_records` into ``out_dir``
    (see the module docstring) and return the :class:`Certifier` (its ``entries`` and
    ``counts``).

    Raises:
        ValueError: for a non-empty directory, or a backend that cannot certify.
        OSError: when a file cannot be written.
        Interrupted: after a signal inside :func:`~sudoku_model.executor.stop_on_signals`.
    """
    certifier = Certifier(out_dir, backend=backend, budget=budget, jobs=jobs)

    def items() -> Iterator[Item]:
        for index, rec in enumerate(records):
            error = None if rec.error is None else str(rec.error).splitlines()[0]
            yield (index, rec.source, rec.line, rec.puzzle, None, error)

    for _ in certifier.run(items()):
        pass
    return certifier


# -- checking ------------------------------------------------------------------------------
@dataclass(frozen=True)
class CertificateCheck:
    """The check of one manifest entry: ``valid``, or the ``reason`` it is not."""

    index: int
    verdict: str
    valid: bool
    reason: str
    seconds: float
    source: str = ""
    line: int = 0

    def describe(self) -> str:
        where = f"{self.source}:{self.line}" if self.source else f"#{self.index}"
        state = "valid" if self.valid else f"INVALID: {self.reason}"
        return f"{self.index:>6} {where} {self.verdict}: {state}"


def load_manifest(path: str | os.PathLike[str]) -> tuple[Path, dict[str, Any]]:
    """``(directory, manifest)`` for a certificate directory or its manifest file.

    Raises:
        CertificateFormatError: for a missing, unreadable or malformed manifest.
    """
    p = Path(path)
    file = p / MANIFEST if p.is_dir() else p
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CertificateFormatError(
            f"{file}: no such file (a certificate directory holds {MANIFEST})"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CertificateFormatError(f"{file}: cannot read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CertificateFormatError(
            f"{file}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}"
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CertificateFormatError(f"{file}: not a {FORMAT} manifest")
    if data.get("version") != FORMAT_VERSION:
        raise CertificateFormatError(
            f"{file}: format version {data.get('version')!r}; this checker reads {FORMAT_VERSION}"
        )
    if data.get("encoding") != certcnf.ENCODING:
        raise CertificateFormatError(
            f"{file}: encoding {data.get('encoding')!r}; this checker knows {certcnf.ENCODING}"
        )
    if not isinstance(data.get("puzzles"), list) or not isinstance(data.get("rules_files"), dict):
        raise CertificateFormatError(f"{file}: 'puzzles' must be a list, 'rules_files' an object")
    return file.parent, data


class _Invalid(Exception):
    """Why an entry is not valid (the message is the reason)."""


@dataclass
class _CheckContext:
    base: str
    rules_files: dict[str, Any]
    checker: str
    #: (rules file name, rules) -> its clauses, once checked against the encoding
    rules_cache: dict[tuple[str, RuleSet], list[tuple[int, ...]]] = field(default_factory=dict)


def _read_checked(base: Path, name: str, sha256: Any, what: str) -> bytes:
    if (
        not isinstance(name, str)
        or not name
        or Path(name).is_absolute()
        or ".." in Path(name).parts
    ):
        raise _Invalid(f"{what}: bad file name {name!r}")
    try:
        data = (base / name).read_bytes()
    except OSError as exc:
        raise _Invalid(f"{what} {name}: cannot read: {exc.strerror or exc}") from None
    if _sha256(data) != sha256:
        raise _Invalid(f"{what} {name}: sha256 does not match the manifest")
    return data


def _compare(shipped: list[tuple[int, ...]], expected: Iterable[Sequence[int]], name: str) -> None:
    have = certcnf.normalize(shipped)
    want = certcnf.normalize(expected)
    missing = sorted(want - have)
    extra = sorted(have - want)
    if missing:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise _Invalid(
            f"{name}: clause '{' '.join(map(str, missing[0]))} 0' of the encoding is missing{more}"
        )
    if extra:
        more = f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""
        raise _Invalid(
            f"{name}: clause '{' '.join(map(str, extra[0]))} 0' is not in the encoding{more}"
        )


def _rules_clauses(ctx: _CheckContext, name: Any, rules: RuleSet) -> list[tuple[int, ...]]:
    """The checked rule clauses of a rules file (cached per process)."""
    key = (str(name), rules)
    cached = ctx.rules_cache.get(key)
    if cached is not None:
        return cached
    info = ctx.rules_files.get(name) if isinstance(name, str) else None
    if not isinstance(info, dict):
        raise _Invalid(f"rules CNF {name!r} is not listed in the manifest's rules_files")
    data = _read_checked(Path(ctx.base), name, info.get("sha256"), "rules CNF")
    try:
        num_vars, clauses = certcnf.parse_dimacs(data.decode("ascii"), name)
    except (certcnf.DimacsError, UnicodeDecodeError) as exc:
        raise _Invalid(str(exc)) from None
    n = rules.shape.size
    if num_vars != n**3:
        raise _Invalid(f"{name}: declares {num_vars} variables; the encoding has {n**3}")
    _compare(clauses, certcnf.rule_clauses(rules), name)
    ctx.rules_cache[key] = clauses
    return clauses


def _parse_grid(text: Any, shape: Shape, what: str) -> tuple[int, ...]:
    if not isinstance(text, str):
        raise _Invalid(f"{what} missing")
    try:
        return Grid.parse(text, shape=shape).values
    except ValueError as exc:
        raise _Invalid(f"{what} unreadable: {str(exc).splitlines()[0]}") from None


def _parse_puzzle(
    text: Any, shape: Shape
) -> tuple[tuple[int, ...], tuple[frozenset[int], ...] | None]:
    """The givens of an entry's puzzle, and its candidates when it is a pencilmark line
    (n**3 characters; None for a plain line)."""
    n = shape.size
    if isinstance(text, str) and len(text) == n**3 and n**3 != shape.cell_count:
        try:
            puzzle = read_pencilmark_line(text, shape=shape)
        except ValueError as exc:
            raise _Invalid(f"puzzle unreadable: {str(exc).splitlines()[0]}") from None
        return puzzle.givens.values, puzzle.candidates
    return _parse_grid(text, shape, "puzzle"), None


def _clash_problem(rules: RuleSet, givens: Sequence[int], clash: Any) -> str | None:
    if not (isinstance(clash, list) and len(clash) == 2 and all(isinstance(c, int) for c in clash)):
        return f"clash must be two cell indices, got {clash!r}"
    a, b = clash
    nc = len(givens)
    if not (0 <= a < nc and 0 <= b < nc) or a == b:
        return f"clash cells {a}, {b} are not two cells of the grid"
    if not givens[a] or givens[a] != givens[b]:
        return f"cells {a} and {b} do not hold the same given"
    for rule in rules.rules:
        if isinstance(rule, AllDifferent) and any(a in u and b in u for u in rule.units):
            return None
        if isinstance(rule, Different) and ((a, b) in rule.pairs or (b, a) in rule.pairs):
            return None
    return f"no rule forbids cells {a} and {b} to hold the same digit"


def _check_entry(ctx: _CheckContext, entry: Any) -> tuple[str, str | None]:
    """(verdict, None when valid else the reason)."""
    if not isinstance(entry, dict):
        return "?", "manifest entry is not an object"
    verdict = entry.get("verdict")
    if not isinstance(verdict, str):
        return "?", "manifest entry without a verdict"
    try:
        if not entry.get("certified"):
            raise _Invalid(f"not certified: {entry.get('error') or 'no certificate'}")
        try:
            rules = rules_from_json(entry.get("rules"))
        except (ValueError, TypeError) as exc:
            raise _Invalid(f"rules cannot be rebuilt: {exc}") from None
        reason = certcnf.uncertifiable(rules)
        if reason is not None:
            raise _Invalid(reason)
        shape = rules.shape
        n = shape.size
        givens, candidates = _parse_puzzle(entry.get("puzzle"), shape)
        if verdict == "contradictory":
            problem = _clash_problem(rules, givens, entry.get("clash"))
            if problem is not None:
                raise _Invalid(f"contradictory: {problem}")
            return verdict, None
        if verdict == "multiple":
            w = entry.get("witnesses")
            if not isinstance(w, list) or len(w) != 2:
                raise _Invalid("multiple: needs two witnesses")
            grids = [_parse_grid(g, shape, f"witness {k + 1}") for k, g in enumerate(w)]
            if grids[0] == grids[1]:
                raise _Invalid("multiple: the two witnesses are the same grid")
            for k, g in enumerate(grids):
                problem = certcnf.solution_problem(rules, givens, g, candidates)
                if problem is not None:
                    raise _Invalid(f"multiple: witness {k + 1} is not a solution: {problem}")
            return verdict, None
        if verdict not in ("unique", "unsolvable"):
            raise _Invalid(f"verdict {verdict!r} has no certificate")
        expected = certcnf.given_clauses(n, givens)
        if candidates is not None:
            expected += certcnf.candidate_clauses(n, candidates)
        if verdict == "unique":
            solution = _parse_grid(entry.get("solution"), shape, "solution")
            problem = certcnf.solution_problem(rules, givens, solution, candidates)
            if problem is not None:
                raise _Invalid(f"the solution is wrong: {problem}")
            expected.append(certcnf.blocking_clause(n, givens, solution))
        rule_part = _rules_clauses(ctx, entry.get("rules_cnf"), rules)
        files = entry.get("files")
        if not isinstance(files, dict) or not all(
            isinstance(files.get(k), dict) for k in ("cnf", "proof")
        ):
            raise _Invalid("manifest entry lists no cnf and proof files")
        base = Path(ctx.base)
        cnf_name = files["cnf"].get("path")
        cnf_data = _read_checked(base, cnf_name, files["cnf"].get("sha256"), "puzzle CNF")
        proof_name = files["proof"].get("path")
        proof = _read_checked(base, proof_name, files["proof"].get("sha256"), "proof")
        try:
            num_vars, puzzle_part = certcnf.parse_dimacs(cnf_data.decode("ascii"), cnf_name)
        except (certcnf.DimacsError, UnicodeDecodeError) as exc:
            raise _Invalid(str(exc)) from None
        if num_vars != n**3:
            raise _Invalid(f"{cnf_name}: declares {num_vars} variables; the encoding has {n**3}")
        _compare(puzzle_part, expected, cnf_name)
        # A refutation ends with the empty clause. drat-trim also accepts a proof whose
        # lemmas merely propagate to a conflict; a certificate must say it outright, so a
        # truncated proof is refused whichever checker runs.
        if proof.rstrip().rsplit(b"\n", 1)[-1].strip() != b"0":
            raise _Invalid(f"proof {proof_name}: truncated: it does not end with the empty clause")
        problem = _check_proof(ctx, rule_part, puzzle_part, n**3, proof, proof_name)
        if problem is not None:
            raise _Invalid(problem)
        return verdict, None
    except _Invalid as exc:
        return verdict, str(exc)


def _check_proof(
    ctx: _CheckContext,
    rule_part: list[tuple[int, ...]],
    puzzle_part: list[tuple[int, ...]],
    num_vars: int,
    proof: bytes,
    name: str,
) -> str | None:
    if ctx.checker == "drat-trim":
        return _check_drat_trim(rule_part + puzzle_part, num_vars, proof, name)
    if ctx.checker == "native":
        return _check_native(rule_part, puzzle_part, num_vars, proof, name)
    return _check_dratify(rule_part, puzzle_part, num_vars, proof, name, ctx.checker)


#: The rule clauses as dratify's internal literals, by id of the checked list (per process).
_INTERNAL: dict[int, tuple[list[tuple[int, ...]], list[tuple[int, ...]]]] = {}


def _internal(clauses: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    from dratify import from_dimacs

    return [tuple(map(from_dimacs, c)) for c in clauses]


def _dratify_engine(checker: str) -> str:
    if checker == "dratify-python":
        return "python"
    import dratify

    if not dratify.native_available():
        # cdclkit-native (the 'certify' extra) embeds dratify's Rust checker and offers
        # it through dratify's own seam: the same checks, about 5x faster here.
        with contextlib.suppress(ImportError):
            import cdclkit_native

            dratify.register_native(cdclkit_native)
    return "auto"


def _check_dratify(
    rule_part: list[tuple[int, ...]],
    puzzle_part: list[tuple[int, ...]],
    num_vars: int,
    proof: bytes,
    name: str,
    checker: str,
) -> str | None:
    import dratify

    cached = _INTERNAL.get(id(rule_part))
    if cached is None or cached[0] is not rule_part:
        cached = _INTERNAL[id(rule_part)] = (rule_part, _internal(rule_part))
    formula = dratify.CNF(num_vars)
    # Set directly rather than through CNF.add: the clauses were parsed and compared with
    # the encoding already (no tautology, no repeated literal to normalise), and adding
    # 12,000 clauses one by one per puzzle would cost more than the check.
    formula.clauses = cached[1] + _internal(puzzle_part)
    try:
        text = proof.decode("ascii")
        result = dratify.check_proof(formula, text, engine=_dratify_engine(checker))
    except (ValueError, UnicodeDecodeError) as exc:
        return f"proof {name} unreadable: {str(exc).splitlines()[0]}"
    if result.ok:
        return None
    reason = f"proof {name} rejected by dratify: {result.reason}"
    if result.failed_step >= 0:
        clause = " ".join(map(str, map(dratify.to_dimacs, result.failed_clause or ())))
        reason += f" (step {result.failed_step}: '{clause} 0')"
    return reason


#: Seconds drat-trim may take on one proof.
DRAT_TRIM_SECONDS = 600
#: Seconds the native checker may take on one proof (then: not checked, with the reason).
NATIVE_SECONDS = 600.0

#: Per thread: the native checker of each checked rules clause list, by its id (the list
#: is kept alive by the check context, and kept here too so that the id stays its own).
_NATIVE = threading.local()


def _native_checker(rule_part: list[tuple[int, ...]], num_vars: int) -> Any:
    # The checker is no solver: sudoku_model/drat.c shares no code with the backtracker
    # or any encoder.
    from .drat import DratChecker

    cache: dict[int, tuple[list[tuple[int, ...]], int, DratChecker]] | None
    cache = getattr(_NATIVE, "checkers", None)
    if cache is None:
        cache = _NATIVE.checkers = {}
    known = cache.get(id(rule_part))
    if known is None or known[0] is not rule_part or known[1] != num_vars:
        known = cache[id(rule_part)] = (rule_part, num_vars, DratChecker(num_vars, rule_part))
    return known[2]


def _check_native(
    rule_part: list[tuple[int, ...]],
    puzzle_part: list[tuple[int, ...]],
    num_vars: int,
    proof: bytes,
    name: str,
) -> str | None:
    from .drat import DRAT_MALFORMED, DRAT_UNKNOWN

    try:
        result = _native_checker(rule_part, num_vars).check(
            puzzle_part, proof, seconds=NATIVE_SECONDS
        )
    except MemoryError:
        return f"proof {name}: not checked: the native checker ran out of memory"
    if result.valid:
        return None
    if result.status == DRAT_MALFORMED:
        return f"proof {name} unreadable: {result.reason}"
    if result.status == DRAT_UNKNOWN:
        return f"proof {name}: not checked within {NATIVE_SECONDS:g} s: {result.reason}"
    reason = f"proof {name} rejected by the native checker: {result.reason}"
    if result.step >= 0:
        reason += f" (step {result.step}: '{' '.join(map(str, (*result.clause, 0)))}')"
    return reason


def _check_drat_trim(
    clauses: list[tuple[int, ...]], num_vars: int, proof: bytes, name: str
) -> str | None:
    exe = shutil.which("drat-trim")
    if exe is None:
        return "drat-trim is not on PATH"
    with tempfile.TemporaryDirectory(prefix="sudoku-cert-") as tmp:
        cnf_path = Path(tmp) / "formula.cnf"
        proof_path = Path(tmp) / "proof.drat"
        cnf_path.write_bytes(_dimacs(clauses, num_vars, []))
        proof_path.write_bytes(proof)
        try:
            done = subprocess.run(
                [exe, str(cnf_path), str(proof_path), "-t", str(DRAT_TRIM_SECONDS)],
                capture_output=True,
                text=True,
                timeout=DRAT_TRIM_SECONDS + 10,
            )
        except subprocess.TimeoutExpired:
            return f"proof {name}: drat-trim took more than {DRAT_TRIM_SECONDS} s"
    lines = done.stdout.splitlines()
    if "s VERIFIED" in lines:
        return None
    said = [ln for ln in lines if ln.startswith("s ")] or lines[-1:] or ["no answer"]
    return f"proof {name} rejected by drat-trim: {said[0]}"


def _check_task(
    settings: tuple[str, dict[str, Any], str], entries: list[Any]
) -> list[tuple[str, str | None, float]]:
    base, rules_files, checker = settings
    # One context per process and collection: the rules files are checked once each.
    ctx = _CONTEXTS.get((base, checker))
    if ctx is None or ctx.rules_files != rules_files:
        ctx = _CONTEXTS[(base, checker)] = _CheckContext(base, rules_files, checker)
    out = []
    for entry in entries:
        start = time.process_time()
        verdict, reason = _check_entry(ctx, entry)
        out.append((verdict, reason, time.process_time() - start))
    return out


_CONTEXTS: dict[tuple[str, str], _CheckContext] = {}


def check_certificates(
    path: str | os.PathLike[str],
    *,
    checker: str = DEFAULT_CHECKER,
    jobs: int = 1,
    on_wait: Callable[[], None] | None = None,
) -> Iterator[CertificateCheck]:
    """Check every entry of a certificate directory (or manifest file), in order:
    each :class:`CertificateCheck` is valid, or names the exact reason it is not.
    ``seconds`` is the CPU time of that entry's check in the process that ran it.

    Raises:
        CertificateFormatError: for a manifest that cannot be read at all.
        ValueError: for an unknown checker, or ``drat-trim`` not on PATH.
        Interrupted: after a signal inside :func:`~sudoku_model.executor.stop_on_signals`.
    """
    if checker not in CHECKERS:
        raise ValueError(f"unknown checker {checker!r}; known: {', '.join(CHECKERS)}")
    if checker == "drat-trim" and shutil.which("drat-trim") is None:
        raise ValueError("--checker drat-trim: drat-trim is not on PATH")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    base, manifest = load_manifest(path)
    settings = (str(base), manifest["rules_files"], checker)
    executor = executor_for(jobs=jobs, python_work=True)
    entries = manifest["puzzles"]
    for chunk, answers in executor.map(
        partial(_check_task, settings), chunks(entries, CHUNK), on_wait=on_wait
    ):
        for entry, (verdict, reason, seconds) in zip(chunk, answers):
            d = entry if isinstance(entry, dict) else {}
            index = d.get("index")
            line = d.get("line")
            source = d.get("source")
            yield CertificateCheck(
                index if isinstance(index, int) else -1,
                verdict,
                reason is None,
                reason or "",
                seconds,
                source if isinstance(source, str) else "",
                line if isinstance(line, int) else 0,
            )
