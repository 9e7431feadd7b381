"""Compare backends on the same puzzles: time per puzzle, answers, and every disagreement.

Each backend answers every puzzle (``task`` = ``solve``, ``unique`` or ``count``), ``repeat``
times, interleaved puzzle by puzzle so that a noisy machine slows all backends alike. The
time of one call is the ``seconds`` of its result: wall time measured the same way for every
backend by :class:`~sudoku_model.solving.Backend`. A puzzle's time for a backend is the
median of its repeats; the summary gives the median, 90th percentile and maximum of those
over the puzzles.

Before timing, each backend answers the first puzzle once untimed (``warmup``): loading a
solver or building a model is a one-off cost, reported apart as ``first_call_seconds``
rather than mixed into the first puzzle's time.

Answers are checked, not trusted: every solution a backend returns must pass the model's
checker (else the answer is ``wrong-solution``), two witnesses must differ. Backends
agree on a puzzle when their definite answers are the same word (``unknown``, a spent
budget, is no answer and disagrees with nothing); every puzzle where they do not is listed
in :attr:`Comparison.disagreements`, never averaged away.

>>> from sudoku_model import Puzzle
>>> result = compare([Puzzle.parse(".2..3....1....4.")], backends=["native"])  # doctest: +SKIP
>>> result.agreed, result.summary()[0].solved                                 # doctest: +SKIP
(True, 1)
"""

from __future__ import annotations

import math
import os
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .grid import Grid
from .puzzle import Puzzle
from .solving import Backend, Budget, SolveStatus, VerdictKind, evidence_problem

__all__ = [
    "TASKS",
    "answer_order",
    "Run",
    "PuzzleEntry",
    "BackendSummary",
    "Disagreement",
    "Comparison",
    "compare",
    "load_puzzles",
    "percentile",
    "require_pandas",
]

TASKS = ("solve", "unique", "count")
#: Answers that are no answer: they never disagree with anything.
NO_ANSWER = frozenset({"unknown", "unsupported", "error"})


@dataclass(frozen=True)
class Run:
    """One timed call: ``answer`` is a verdict word (``solved``, ``unique``, ``3`` ...);
    ``engine`` the engine that gave it (a routing backend's, e.g. ``auto``'s, names one of
    its engines; empty when no answer came)."""

    puzzle_index: int
    backend: str
    repeat: int
    seconds: float
    answer: str
    detail: str = ""
    engine: str = ""


@dataclass(frozen=True)
class PuzzleEntry:
    """A compared puzzle and where it came from."""

    index: int
    puzzle: Puzzle
    source: str = ""
    line: int = 0

    @property
    def text(self) -> str:
        return self.puzzle.to_line()


@dataclass(frozen=True)
class BackendSummary:
    """Figures of one backend over all compared puzzles.

    Times are over puzzles the backend answered (not ``unsupported``, not ``error``), each
    puzzle's time the median of its repeats. ``solved`` counts puzzles where it produced at
    least one (valid) solution; ``unknown`` those where the budget ran out; ``answers`` how
    often each answer word came.
    """

    backend: str
    version: str
    puzzles: int
    median_seconds: float
    p90_seconds: float
    max_seconds: float
    total_seconds: float
    solved: int
    unknown: int
    unsupported: int
    errors: int
    first_call_seconds: float
    answers: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Disagreement:
    """A puzzle on which the backends' definite answers differ (or one is wrong)."""

    puzzle_index: int
    puzzle: str
    answers: dict[str, str]
    source: str = ""
    line: int = 0

    def describe(self) -> str:
        where = f"{self.source}:{self.line}" if self.source else f"#{self.puzzle_index + 1}"
        parts = ", ".join(f"{b}={a}" for b, a in self.answers.items())
        return f"{where} {self.puzzle}: {parts}"


@dataclass
class Comparison:
    """Everything a comparison measured; see :func:`compare`."""

    task: str
    limit: int
    repeat: int
    budget: Budget
    backends: list[str]
    versions: dict[str, str]
    failures: dict[str, str]
    puzzles: list[PuzzleEntry]
    runs: list[Run]
    first_call_seconds: dict[str, float]
    skipped: list[str] = field(default_factory=list)

    # -- per puzzle --------------------------------------------------------------------
    def answer(self, puzzle_index: int, backend: str) -> str:
        """The backend's answer for a puzzle over its repeats (``inconsistent(a|b)`` when
        repeats gave different definite answers)."""
        return self._answers()[(puzzle_index, backend)]

    def seconds(self, puzzle_index: int, backend: str) -> float:
        """Median over the repeats of one puzzle's time for one backend."""
        return self._times()[(puzzle_index, backend)]

    def _answers(self) -> dict[tuple[int, str], str]:
        cached = getattr(self, "_answer_cache", None)
        if cached is not None and cached[0] == len(self.runs):
            return cached[1]
        by_key: dict[tuple[int, str], list[str]] = {}
        for run in self.runs:
            by_key.setdefault((run.puzzle_index, run.backend), []).append(run.answer)
        out = {}
        for key, answers in by_key.items():
            definite = list(dict.fromkeys(a for a in answers if a not in NO_ANSWER))
            if len(definite) == 1:
                out[key] = definite[0]
            elif definite:
                out[key] = "inconsistent(" + "|".join(definite) + ")"
            else:
                out[key] = answers[0]
        self._answer_cache = (len(self.runs), out)
        return out

    def _engines(self) -> dict[tuple[int, str], str]:
        """The engines that answered each (puzzle, backend), over its repeats."""
        by_key: dict[tuple[int, str], list[str]] = {}
        for run in self.runs:
            if run.engine:
                by_key.setdefault((run.puzzle_index, run.backend), []).append(run.engine)
        return {k: ", ".join(dict.fromkeys(v)) for k, v in by_key.items()}

    def _times(self) -> dict[tuple[int, str], float]:
        by_key: dict[tuple[int, str], list[float]] = {}
        for run in self.runs:
            by_key.setdefault((run.puzzle_index, run.backend), []).append(run.seconds)
        return {k: statistics.median(v) for k, v in by_key.items()}

    @property
    def disagreements(self) -> list[Disagreement]:
        """Every puzzle where two backends gave different definite answers, or one gave a
        wrong one (an invalid solution, inconsistent repeats)."""
        answers = self._answers()
        unique_solutions: dict[int, set[str]] = {}
        unique_solutions_by: dict[tuple[int, str], str] = {}
        for run in self.runs:
            if run.answer == "unique" and run.detail:
                unique_solutions.setdefault(run.puzzle_index, set()).add(run.detail)
                unique_solutions_by[(run.puzzle_index, run.backend)] = run.detail
        out = []
        for entry in self.puzzles:
            per_backend = {
                b: answers[(entry.index, b)] for b in self.backends if (entry.index, b) in answers
            }
            definite = {a for a in per_backend.values() if a not in NO_ANSWER}
            wrong = any(a.startswith(("wrong", "inconsistent")) for a in definite)
            if len(unique_solutions.get(entry.index, ())) > 1:
                wrong = True
                per_backend = {
                    b: (f"{a} {unique_solutions_by[(entry.index, b)]}" if a == "unique" else a)
                    for b, a in per_backend.items()
                }
            if len(definite) > 1 or wrong:
                out.append(
                    Disagreement(entry.index, entry.text, per_backend, entry.source, entry.line)
                )
        return out

    @property
    def agreed(self) -> bool:
        """True when no puzzle has a disagreement (backends that failed to load aside)."""
        return not self.disagreements

    # -- per backend -------------------------------------------------------------------
    def summary(self) -> list[BackendSummary]:
        """One :class:`BackendSummary` per loaded backend, in the order given."""
        answers = self._answers()
        times = self._times()
        out = []
        for backend in self.backends:
            mine = [
                (i.index, answers[(i.index, backend)])
                for i in self.puzzles
                if (i.index, backend) in answers
            ]
            timed = sorted(
                times[(i, backend)] for i, a in mine if a not in ("unsupported", "error")
            )
            counts = Counter(a for _, a in mine)
            solved = sum(1 for _, a in mine if _has_solution(self.task, a))
            out.append(
                BackendSummary(
                    backend=backend,
                    version=self.versions.get(backend, "unknown"),
                    puzzles=len(mine),
                    median_seconds=statistics.median(timed) if timed else math.nan,
                    p90_seconds=percentile(timed, 90) if timed else math.nan,
                    max_seconds=timed[-1] if timed else math.nan,
                    total_seconds=sum(timed),
                    solved=solved,
                    unknown=counts.get("unknown", 0),
                    unsupported=counts.get("unsupported", 0),
                    errors=counts.get("error", 0),
                    first_call_seconds=self.first_call_seconds.get(backend, math.nan),
                    answers=dict(sorted(counts.items(), key=lambda kv: answer_order(kv[0]))),
                )
            )
        return out

    # -- export ------------------------------------------------------------------------
    def rows(self) -> list[dict[str, Any]]:
        """One record per (puzzle, backend): the data behind the summary, ready for a
        table (fields: :mod:`sudoku_model.records`, command ``compare``)."""
        from .records import head, puzzle_fields

        answers = self._answers()
        times = self._times()
        engines = self._engines()
        disagree = {d.puzzle_index for d in self.disagreements}
        out = []
        for entry in self.puzzles:
            for backend in self.backends:
                key = (entry.index, backend)
                if key not in answers:
                    continue
                row = head("compare", entry.source, entry.line)
                row.update(puzzle_fields(entry.puzzle))
                out.append(
                    {
                        **row,
                        "puzzle_index": entry.index,
                        "size": entry.puzzle.size,
                        "backend": backend,
                        "task": self.task,
                        "seconds": times[key],
                        "answer": answers[key],
                        "engine": engines.get(key, ""),
                        "agreed": entry.index not in disagree,
                    }
                )
        return out

    def summary_rows(self) -> list[dict[str, Any]]:
        """The summary as plain dicts (``answers`` flattened to text)."""
        out = []
        for s in self.summary():
            d = asdict(s)
            d["answers"] = ", ".join(f"{k} {v}" for k, v in s.answers.items())
            out.append(d)
        for name, reason in self.failures.items():
            out.append({"backend": name, "version": "", "puzzles": 0, "failed_to_load": reason})
        return out

    def to_json(self) -> dict[str, Any]:
        """Everything as JSON-ready data: options, summary, failures, disagreements and the
        records (``rows``)."""
        from .records import head

        return {
            **head("compare"),  # schema and command, as every record starts
            "task": self.task,
            "limit": self.limit,
            "repeat": self.repeat,
            "budget_seconds": self.budget.seconds,
            "backends": self.backends,
            "failed_to_load": self.failures,
            "skipped_inputs": self.skipped,
            "agreed": self.agreed,
            "summary": [asdict(s) for s in self.summary()],
            "disagreements": [asdict(d) for d in self.disagreements],
            "rows": self.rows(),
        }

    def to_dataframe(self, which: str = "rows") -> Any:
        """A pandas DataFrame of ``rows`` (one per puzzle and backend), ``runs`` (every
        timed call) or ``summary`` (one per backend).

        Raises:
            ImportError: when pandas is missing (naming the ``notebooks`` extra).
            ValueError: for another ``which``.
        """
        pd = require_pandas()
        if which == "rows":
            return pd.DataFrame(self.rows())
        if which == "runs":
            return pd.DataFrame([asdict(r) for r in self.runs])
        if which == "summary":
            return pd.DataFrame([asdict(s) for s in self.summary()]).set_index("backend")
        raise ValueError(f"which must be rows, runs or summary, not {which!r}")

    def table(self) -> str:
        """The summary as a plain-text table for a terminal."""
        head = [
            "backend",
            "median",
            "p90",
            "max",
            "total",
            "solved",
            "unknown",
            "unsupp.",
            "errors",
            "1st call",
        ]
        body = []
        for s in self.summary():
            body.append(
                [
                    s.backend,
                    _ms(s.median_seconds),
                    _ms(s.p90_seconds),
                    _ms(s.max_seconds),
                    _seconds(s.total_seconds),
                    str(s.solved),
                    str(s.unknown),
                    str(s.unsupported),
                    str(s.errors),
                    _ms(s.first_call_seconds),
                ]
            )
        widths = [max(len(r[k]) for r in [head] + body) for k in range(len(head))]
        lines = [
            "  ".join(
                c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(row, widths))
            )
            for row in [head] + body
        ]
        lines.insert(1, "  ".join("-" * w for w in widths))
        for name, reason in self.failures.items():
            lines.append(f"{name}: FAILED TO LOAD: {reason}")
        return "\n".join(lines)

    def plot(self, path: str | os.PathLike[str] | None = None, *, ax: Any = None) -> Any:
        """Distribution of time per puzzle for each backend: a box plot on a log scale,
        every puzzle a dot. Saves to ``path`` (PNG, SVG, PDF by extension) when given;
        returns the matplotlib Figure (or draws on ``ax``).

        Raises:
            ImportError: when matplotlib is missing (naming the ``notebooks`` extra).
        """
        try:
            from matplotlib.figure import Figure
        except ImportError as exc:
            raise ImportError(
                "plots need matplotlib: pip install 'sudoku-model[notebooks]'"
            ) from exc
        times = self._times()
        answers = self._answers()
        data, labels = [], []
        for backend in self.backends:
            values = [
                times[(e.index, backend)] * 1e3
                for e in self.puzzles
                if (e.index, backend) in times
                and answers[(e.index, backend)] not in ("unsupported", "error")
            ]
            if values:
                data.append(values)
                labels.append(backend)
        fig = None
        if ax is None:
            fig = Figure(figsize=(1.6 + 1.3 * max(1, len(data)), 4.2), layout="constrained")
            ax = fig.add_subplot()
        if data:
            ax.boxplot(data, whis=(10, 90), showfliers=False)
            ax.set_xticks(range(1, len(labels) + 1), labels, rotation=20)
            for k, values in enumerate(data, start=1):
                # deterministic jitter so the picture does not change run to run
                xs = [k + 0.25 * (((i * 0.6180339887) % 1.0) - 0.5) for i in range(len(values))]
                ax.scatter(xs, values, s=6, alpha=0.35, color="tab:blue", linewidths=0)
            ax.set_yscale("log")
        ax.set_ylabel("time per puzzle (ms)")
        ax.set_title(
            f"{self.task}: {len(self.puzzles)} puzzles, median of {self.repeat} "
            f"run(s); whiskers 10-90%",
            fontsize=10,
        )
        if path is not None and fig is not None:
            fig.savefig(os.fspath(path), dpi=120)
        return fig if fig is not None else ax.figure


def answer_order(answer: str) -> tuple[int, int, str]:
    """Sort key for answers: counts as numbers (``2`` before ``10``), a lower bound
    ``>=N`` after every exact count, then the words (``error``, ``unique``, ...)
    alphabetically.

    >>> sorted(["10", "unknown", "2", ">=50", "0", "102"], key=answer_order)
    ['0', '2', '10', '102', '>=50', 'unknown']
    """
    if answer.isdigit():
        return (0, int(answer), "")
    if answer.startswith(">=") and answer[2:].isdigit():
        return (1, int(answer[2:]), "")
    return (2, 0, answer)


def _has_solution(task: str, answer: str) -> bool:
    if task == "solve":
        return answer == "solved"
    if task == "unique":
        return answer in ("unique", "multiple")
    return answer.lstrip(">=").isdigit() and int(answer.lstrip(">=")) > 0


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) of sorted values, interpolated linearly between the
    closest ranks (numpy's default method).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 90)
    3.7

    Raises:
        ValueError: for no values.
    """
    if not sorted_values:
        raise ValueError("percentile of no values")
    pos = (len(sorted_values) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def _ms(seconds: float) -> str:
    return "-" if math.isnan(seconds) else f"{seconds * 1e3:.3f} ms"


def _seconds(seconds: float) -> str:
    return f"{seconds:.3f} s"


def require_pandas() -> Any:
    """The pandas module.

    Raises:
        ImportError: naming the extra to install when pandas is missing.
    """
    try:
        import pandas
    except ImportError as exc:
        raise ImportError("data frames need pandas: pip install 'sudoku-model[notebooks]'") from exc
    return pandas


# -- answering -----------------------------------------------------------------------------
def _answer(
    backend: Backend, puzzle: Puzzle, task: str, limit: int, budget: Budget
) -> tuple[float, str, str, str]:
    """(seconds, answer, detail, engine) of one call; wrong solutions are caught here."""
    if task == "solve":
        res = backend.solve(puzzle, budget=budget)
        if res.status is SolveStatus.SOLVED:
            ok = res.solution is not None and puzzle.is_solution(res.solution)
            return res.seconds, "solved" if ok else "wrong-solution", "", res.backend
        return res.seconds, str(res.status), "", res.backend
    if task == "unique":
        verdict = backend.check_unique(puzzle, budget=budget)
        kind, engine = verdict.kind, verdict.backend
        if evidence_problem(puzzle, verdict) is not None:
            wrong = "wrong-solution" if kind is VerdictKind.UNIQUE else "wrong-witness"
            return verdict.seconds, wrong, "", engine
        if kind is VerdictKind.UNIQUE and verdict.solution is not None:
            # the solution rides along: two "unique" answers with different grids disagree
            return verdict.seconds, "unique", verdict.solution.to_line(), engine
        return verdict.seconds, str(kind), "", engine
    result = backend.count(puzzle, limit=limit, budget=budget)
    engine = result.backend
    sols: Sequence[Grid] = result.solutions
    if len(set(sols)) != len(sols) or not all(puzzle.is_solution(g) for g in sols):
        return result.seconds, "wrong-solution", "", engine
    if result.contradictory:
        return result.seconds, "contradictory", "", engine
    if result.complete:
        return result.seconds, str(result.count), "", engine
    if result.count >= limit:
        return result.seconds, f">={limit}", "", engine
    return result.seconds, "unknown", f"{result.count} found before the budget ran out", engine


def load_puzzles(
    source: str | os.PathLike[str], *, first: int | None = None, **options: Any
) -> list[PuzzleEntry]:
    """Puzzles of a file or a bundled collection (``bundled:top95`` or ``top95``), the
    ``first`` N only when given. Options go to :func:`sudoku_model.formats.iter_records`.

    Raises:
        ParseError: at a malformed line (a comparison needs every puzzle readable).
        KeyError: for an unknown bundled name.
        OSError: for an unreadable file.
    """
    from .data import resolve_input
    from .formats import iter_records

    text = os.fspath(source)
    path, name = resolve_input(text, bare_names=True)
    label = text if name is None else f"bundled:{name}"
    out: list[PuzzleEntry] = []
    for rec in iter_records(path, source=label, **options):
        if first is not None and len(out) >= first:
            break
        if rec.error is not None or rec.puzzle is None:
            raise rec.error or ValueError(f"{label}:{rec.line}: no puzzle")
        out.append(PuzzleEntry(len(out), rec.puzzle, rec.source, rec.line))
    return out


def compare(
    puzzles: Iterable[Puzzle | PuzzleEntry | str],
    *,
    backends: Sequence[str | Backend] | None = None,
    task: str = "solve",
    limit: int = 1000,
    repeat: int = 1,
    budget: Budget | None = None,
    warmup: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> Comparison:
    """Answer every puzzle with every backend and time it.

    Args:
        puzzles: puzzles, :class:`PuzzleEntry` items (from :func:`load_puzzles`) or lines.
        backends: names (``native``, ``pysat:glucose4`` ...) or backend objects; every
            registered backend when None. A name that fails to load is recorded in
            :attr:`Comparison.failures` with the reason, and the others go on.
        task: ``solve`` (one solution), ``unique`` (check_unique) or ``count`` (up to
            ``limit`` solutions).
        repeat: timed calls per puzzle and backend (the median is kept).
        budget: per call; :data:`~sudoku_model.solving.DEFAULT_BUDGET` when None.
        warmup: answer the first puzzle once untimed before timing (one-off setup).
        progress: called with (puzzles done, puzzles in all) after each puzzle.

    Raises:
        ValueError: for an unknown task, a repeat or limit below 1, or no puzzle.
    """
    from .solving import DEFAULT_BUDGET, available_backends, get_backend

    if task not in TASKS:
        raise ValueError(f"task must be one of {', '.join(TASKS)}, not {task!r}")
    if repeat < 1 or limit < 1:
        raise ValueError("repeat and limit must be at least 1")
    entries: list[PuzzleEntry] = []
    for item in puzzles:
        if isinstance(item, PuzzleEntry):
            entries.append(PuzzleEntry(len(entries), item.puzzle, item.source, item.line))
        elif isinstance(item, Puzzle):
            entries.append(PuzzleEntry(len(entries), item))
        else:
            entries.append(PuzzleEntry(len(entries), Puzzle.parse(str(item))))
    if not entries:
        raise ValueError("no puzzle to compare")
    budget = DEFAULT_BUDGET if budget is None else budget

    loaded: list[Backend] = []
    names: list[str] = []
    failures: dict[str, str] = {}
    versions: dict[str, str] = {}
    for spec in available_backends() if backends is None else backends:
        if isinstance(spec, Backend):
            backend = spec
        else:
            try:
                backend = get_backend(spec)
            except Exception as exc:  # any load failure is reported, never dropped silently
                failures[spec] = f"{type(exc).__name__}: {exc}"
                continue
        if backend.name in names:
            continue
        loaded.append(backend)
        names.append(backend.name)
        try:
            versions[backend.name] = backend.version()
        except Exception as exc:  # a version query must not stop the comparison
            versions[backend.name] = f"unknown ({exc})"

    first_call: dict[str, float] = {}
    if warmup:
        for backend in loaded:
            one = _timed_answer(backend, entries[0].puzzle, task, limit, budget)
            first_call[backend.name] = one[0]
    runs: list[Run] = []
    for entry in entries:
        for r in range(repeat):
            for backend in loaded:
                seconds, answer, detail, engine = _timed_answer(
                    backend, entry.puzzle, task, limit, budget
                )
                runs.append(Run(entry.index, backend.name, r, seconds, answer, detail, engine))
        if progress is not None:
            progress(entry.index + 1, len(entries))
    return Comparison(
        task=task,
        limit=limit,
        repeat=repeat,
        budget=budget,
        backends=names,
        versions=versions,
        failures=failures,
        puzzles=entries,
        runs=runs,
        first_call_seconds=first_call,
    )


def _timed_answer(
    backend: Backend, puzzle: Puzzle, task: str, limit: int, budget: Budget
) -> tuple[float, str, str, str]:
    reason = backend.supports(puzzle)
    if reason is not None:
        return math.nan, "unsupported", reason, ""
    try:
        return _answer(backend, puzzle, task, limit, budget)
    except Exception as exc:  # a crashing backend is a finding of the comparison
        return math.nan, "error", f"{type(exc).__name__}: {exc}", ""
