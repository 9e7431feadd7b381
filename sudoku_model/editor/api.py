"""The editor's JSON API, without HTTP: :class:`EditorService` answers ``handle(endpoint,
payload)`` for the page (through :mod:`sudoku_model.editor.server`) and for the notebook
widget (through :mod:`sudoku_model.widgets`), so both share one validated API.

Every request is checked before any work (:mod:`sudoku_model.editor.wire`): a malformed
one gets a 4xx reply ``{"error": {"code", "message", "field"}}``, never a traceback.

Budgets and cancellation
------------------------
Every request that searches runs as a :class:`Job` with a budget in seconds (the
endpoint's default from :data:`BUDGETS`, or the request's ``budget_seconds``, at most
:data:`MAX_BUDGET_SECONDS`). Each solver call gets what is left of it, and a timer
interrupts the job's backends when it runs out, so a workflow of many calls (generate,
minimise, solve) ends in time too. A spent budget is an answer (``"budget_exhausted":
true``, verdict ``unknown``), not an error.

At most ``max_searches`` (:data:`MAX_SEARCHES`) searching requests run at once; one more
waits up to :data:`SEARCH_WAIT_SECONDS` for a place (after superseding its client's
previous request, whose place frees within 0.1 s), then gets 503 ``busy``.

A request may carry ``client`` (an id the page draws once) and ``seq`` (a number it
increases with every request). A newer request of the same client on the same endpoint
*supersedes* the one in flight: its backends are interrupted
(:meth:`~sudoku_model.solving.Backend.interrupt`, within 0.1 s) and it is answered 409
``superseded``; a request older than one already seen is answered 409 ``stale`` at once.
``cancel`` stops a client's jobs. Each job takes its backends from a pool, so an interrupt
stops that job's searches only.

Endpoints (``payload`` fields; every ``puzzle`` is a wire object, :mod:`.wire`):

* ``config``: what the page offers (sizes, variants, symmetries, levels, formats).
* ``layout`` {puzzle}: how to draw its rules.
* ``status`` {puzzle, limit=2}: clashes, then the count of solutions of the grid as it
  stands, up to ``limit``: ``count_text`` is ``0``, ``1`` or ``at least 2``; verdict.
* ``hint`` {puzzle}: the easiest logic step, its cells and one line of explanation.
* ``solve`` {puzzle}: logic steps, then search when logic stalls (``method`` says which).
* ``candidates`` {puzzle}: per empty cell, the digits no peer holds.
* ``generate`` {box|size, variants, regions, symmetry, level, seed}: a new unique puzzle.
* ``minimise`` {puzzle, seed}: drop the clues the unique puzzle does not need.
* ``check`` {puzzle}: is ``values`` a solution of ``givens``, and if not, where not.
* ``load`` {text, format, index, name}: a puzzle from text in any toolkit format.
* ``save`` {puzzle, format, solution}: the puzzle as text in a toolkit format.
* ``print`` {puzzle, format=pdf|svg, solution}: a printable page (bytes, not JSON).
* ``cancel`` {client, channel}: stop that client's job(s).
"""

from __future__ import annotations

import io
import os
import random
import re
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..errors import ParseError, SearchInterrupted, SudokuError
from ..geometry import Shape
from ..grid import Grid
from ..puzzle import Puzzle
from ..rules import VARIANTS, RuleSet
from ..solving import Backend, Budget, VerdictKind, get_backend
from .wire import (
    RULE_FIELDS,
    ApiError,
    EditedPuzzle,
    bad,
    decode_puzzle,
    decode_rules,
    encode_puzzle,
    layout,
)

__all__ = [
    "BACKEND_PREFERENCE",
    "BUDGETS",
    "MAX_BUDGET_SECONDS",
    "MAX_LIMIT",
    "MAX_SEARCHES",
    "SEARCH_WAIT_SECONDS",
    "MAX_TEXT_CHARS",
    "EditorService",
    "Job",
    "Reply",
]

#: Default budget in seconds of each endpoint that searches.
BUDGETS: dict[str, float] = {
    "status": 2.0,
    "hint": 5.0,
    "solve": 10.0,
    "generate": 30.0,
    "minimise": 30.0,
}
#: The most a request may ask for.
MAX_BUDGET_SECONDS = 120.0
#: The largest ``limit`` a status request may count to.
MAX_LIMIT = 1_000_000
#: The most searching requests (the endpoints of :data:`BUDGETS`) that run at once.
MAX_SEARCHES = 4
#: How long a searching request waits for one of those places before a 503 ``busy``.
SEARCH_WAIT_SECONDS = 2.0
#: The longest text ``load`` reads (characters).
MAX_TEXT_CHARS = 2_000_000
#: Backends tried in order; the first that supports the rules answers (``auto``: native,
#: with SAT for what its routing table sends there).
BACKEND_PREFERENCE = ("auto", "pysat", "cpsat")
#: Most logic steps a ``solve`` reply lists.
MAX_STEPS_SHOWN = 2000

T = TypeVar("T")

_CLIENT = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


@dataclass
class Reply:
    """An answer: an HTTP status and a JSON body, or bytes of ``content_type``."""

    status: int
    json: dict[str, Any] | None = None
    body: bytes | None = None
    content_type: str = "application/json"
    filename: str | None = None


class _Pool:
    """Idle backend instances by name, so that a job owns its instances while solvers
    stay loaded between requests, and the jobs being stopped.

    An interrupt is not always private to one instance: the native backend's C core has
    one stop flag per process, so stopping one job's native search stops every native
    search, and giving any native instance back (``clear_interrupt``) clears the flag for
    all. So the pool keeps the set of jobs stopped but not finished: whenever a job
    finishes, those are interrupted again, and a search stopped although its own job was
    not (:meth:`Job.call`) waits until that set is empty and runs again.
    """

    def __init__(self) -> None:
        self._free: dict[str, list[Backend]] = {}
        self._lock = threading.Lock()
        self._quiet = threading.Condition(self._lock)
        self._stopping: set[Job] = set()

    def take(self, name: str) -> Backend:
        with self._lock:
            free = self._free.get(name)
            if free:
                return free.pop()
        return get_backend(name)

    def give(self, name: str, backend: Backend) -> None:
        backend.clear_interrupt()
        with self._lock:
            self._free.setdefault(name, []).append(backend)

    def stopping(self, job: Job) -> None:
        with self._lock:
            self._stopping.add(job)
            self._quiet.notify_all()  # a job waiting in wait_quiet may be this one

    def finished(self, job: Job) -> None:
        """After ``job`` gave its backends back (which may have cleared a shared stop
        flag): interrupt the jobs still being stopped again."""
        with self._lock:
            self._stopping.discard(job)
            pending = list(self._stopping)
            if not pending:
                self._quiet.notify_all()
        for other in pending:
            other.interrupt_again()

    def wait_quiet(self, timeout: float, job: Job) -> None:
        """Wait (at most ``timeout`` seconds) until no job is being stopped, or until
        ``job`` itself is (it then waits for nothing: only its own end would empty the
        set)."""
        with self._quiet:
            self._quiet.wait_for(lambda: not self._stopping or job in self._stopping, timeout)


@dataclass(eq=False)
class Job:
    """One request at work: its budget, its backends, and why it was stopped (None while
    it may run; ``superseded``, ``cancelled`` or ``budget``)."""

    endpoint: str
    seconds: float
    pool: _Pool
    client: str | None = None
    seq: int | None = None
    started: float = field(default_factory=time.perf_counter)
    reason: str | None = None
    done: bool = False
    _backends: list[tuple[str, Backend]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def deadline(self) -> float:
        return self.started + self.seconds

    def left(self) -> float:
        """Seconds of budget left (0 when spent)."""
        return max(0.0, self.deadline - time.perf_counter())

    def budget(self) -> Budget:
        """The budget of the next solver call: what is left of the job's."""
        return Budget(seconds=self.left())

    def backend(self, rules: RuleSet) -> Backend:
        """A backend of the pool that supports ``rules`` (:data:`BACKEND_PREFERENCE`),
        owned by this job until it ends.

        Raises:
            ApiError: 422 when no installed backend supports the rules.
            SearchInterrupted: when the job was already stopped.
        """
        self.check()
        probe = Puzzle.empty(rules.shape, rules)
        reasons = []
        for name in BACKEND_PREFERENCE:
            try:
                backend = self.pool.take(name)
            except (SudokuError, ImportError, ValueError) as exc:
                reasons.append(f"{name}: {exc}")
                continue
            reason = backend.supports(probe)
            if reason is not None:
                self.pool.give(name, backend)
                reasons.append(reason)
                continue
            with self._lock:
                self._backends.append((name, backend))
                if self.reason is not None:
                    backend.interrupt()
            return backend
        raise ApiError(422, "unsupported", "no backend supports these rules: " + "; ".join(reasons))

    def call(self, search: Callable[[Budget], T]) -> T:
        """``search(budget)`` with what is left of the budget; run again when it was
        stopped by another job's interrupt (a process-wide stop flag, see :class:`_Pool`)
        while this job was not.

        Raises:
            SearchInterrupted: when this job was stopped (or its budget is spent).
        """
        while True:
            try:
                return search(self.budget())
            except SearchInterrupted:
                if self.reason is not None or self.left() <= 0:
                    raise
                self.pool.wait_quiet(self.left(), self)
                if self.reason is not None:  # stopped while it waited
                    raise

    def stop(self, reason: str) -> bool:
        """Interrupt the job's searches (True when it was running and is now stopped)."""
        with self._lock:
            if self.done or self.reason is not None:
                return False
            self.reason = reason
            self.pool.stopping(self)
            for _, backend in self._backends:
                backend.interrupt()
            return True

    def interrupt_again(self) -> None:
        with self._lock:
            if not self.done:
                for _, backend in self._backends:
                    backend.interrupt()

    def check(self) -> None:
        """Raise :class:`SearchInterrupted` once the job is stopped (between steps of a
        workflow that does not run in a backend)."""
        if self.reason is not None:
            raise SearchInterrupted(f"{self.endpoint}: {self.reason}")
        if time.perf_counter() > self.deadline:
            self.stop("budget")
            raise SearchInterrupted(f"{self.endpoint}: budget")

    def finish(self) -> None:
        """Give the backends back (interrupts cleared); no later :meth:`stop` touches
        them."""
        with self._lock:
            self.done = True
            owned, self._backends = self._backends, []
        for name, backend in owned:
            self.pool.give(name, backend)
        self.pool.finished(self)


def _budget_exhausted(job: Job, **extra: Any) -> Reply:
    body = {
        "budget_exhausted": True,
        "verdict": "unknown",
        "message": f"the budget of {job.seconds:g} s was spent before an answer",
    }
    body.update(extra)
    return Reply(200, body)


class EditorService:
    """The editor's API (see the module notes). Thread-safe: the server answers
    requests from several threads at once.

    Args:
        initial: the puzzle the page opens with (an empty 9x9 grid when None).
        initial_solution: its solution when the file carried one.
        max_searches: the most searching requests run at once.

    Raises:
        ValueError: when ``max_searches`` is below 1.
    """

    def __init__(
        self,
        initial: Puzzle | None = None,
        initial_solution: Grid | None = None,
        *,
        max_searches: int = MAX_SEARCHES,
    ) -> None:
        if max_searches < 1:
            raise ValueError(f"max_searches must be at least 1, got {max_searches}")
        self.max_searches = max_searches
        self._searches = threading.BoundedSemaphore(max_searches)
        self.initial = initial
        self.initial_solution = initial_solution
        self._pool = _Pool()
        self._lock = threading.Lock()
        self._latest: dict[tuple[str, str], Job] = {}
        self._seen: dict[tuple[str, str], int] = {}
        self._handlers: dict[str, Callable[[dict[str, Any], Job], Reply]] = {
            "status": self._status,
            "hint": self._hint,
            "solve": self._solve,
            "candidates": self._candidates,
            "generate": self._generate,
            "minimise": self._minimise,
            "check": self._check,
            "load": self._load,
            "save": self._save,
            "print": self._print,
            "layout": self._layout,
        }

    # -- entry point -------------------------------------------------------------------
    def handle(self, endpoint: str, payload: Any) -> Reply:
        """Answer one request. Never raises: every failure is a reply with a 4xx or 5xx
        status and an ``error`` object."""
        try:
            if endpoint == "config":
                return Reply(200, self.config())
            if endpoint == "cancel":
                return self._cancel(payload)
            handler = self._handlers.get(endpoint)
            if handler is None:
                known = ", ".join(sorted([*self._handlers, "config", "cancel"]))
                raise ApiError(404, "not_found", f"no endpoint {endpoint!r}; known: {known}")
            if not isinstance(payload, dict):
                raise bad("the request body must be a JSON object")
            with self._job(endpoint, payload) as job:
                try:
                    return handler(payload, job)
                except SearchInterrupted:
                    if job.reason in ("superseded", "cancelled"):
                        return Reply(
                            409,
                            {
                                "error": {
                                    "code": job.reason,
                                    "message": f"{endpoint} request {job.seq} was {job.reason}",
                                }
                            },
                        )
                    if endpoint == "status":
                        return _budget_exhausted(
                            job, count=0, complete=False, count_text="unknown", clash_cells=[]
                        )
                    return _budget_exhausted(job)
        except ApiError as exc:
            return Reply(exc.status, exc.to_json())
        except Exception as exc:  # noqa: BLE001 - one line to the client, never a traceback
            print(f"sudoku edit: internal error in {endpoint}: {exc!r}", file=sys.stderr)
            return Reply(
                500,
                {"error": {"code": "internal", "message": f"internal error: {type(exc).__name__}"}},
            )

    @contextmanager
    def _job(self, endpoint: str, payload: dict[str, Any]) -> Iterator[Job]:
        seconds = BUDGETS.get(endpoint, 2.0)
        if payload.get("budget_seconds") is not None:
            raw = payload["budget_seconds"]
            if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not raw >= 0:
                raise bad('"budget_seconds" must be a non-negative number', "budget_seconds")
            if raw > MAX_BUDGET_SECONDS:
                raise bad(f'"budget_seconds" is at most {MAX_BUDGET_SECONDS:g}', "budget_seconds")
            seconds = float(raw)
        client, seq = payload.get("client"), payload.get("seq")
        if client is not None and (not isinstance(client, str) or not _CLIENT.match(client)):
            raise bad('"client" must be 1 to 64 letters, digits or "_.:-"', "client")
        if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int) or seq < 0):
            raise bad('"seq" must be a non-negative whole number', "seq")
        if (client is None) != (seq is None):
            raise bad('"client" and "seq" go together', "seq")
        job = Job(endpoint, seconds, self._pool, client, seq)
        key = (client, endpoint) if client is not None else None
        if key is not None:
            assert seq is not None
            with self._lock:
                seen = self._seen.get(key)
                if seen is not None and seq <= seen:
                    raise ApiError(
                        409,
                        "stale",
                        f"{endpoint} request {seq} is not newer than request {seen}",
                        "seq",
                    )
                self._seen[key] = seq
                previous = self._latest.get(key)
                self._latest[key] = job
            if previous is not None:
                previous.stop("superseded")
        # A backstop: each solver call has its own budget and should answer first (with
        # what it found); the timer ends what does not (a workflow of many calls).
        timer = threading.Timer(seconds * 1.1 + 0.5, job.stop, ("budget",))
        timer.daemon = True
        timer.start()
        searching = False
        try:
            if endpoint in BUDGETS:
                searching = self._searches.acquire(timeout=SEARCH_WAIT_SECONDS)
                if not searching:
                    raise ApiError(
                        503,
                        "busy",
                        f"{self.max_searches} searches are running; try again when one ends",
                    )
            yield job
        finally:
            if searching:
                self._searches.release()
            timer.cancel()
            job.finish()
            if key is not None:
                with self._lock:
                    if self._latest.get(key) is job:
                        del self._latest[key]

    def _cancel(self, payload: Any) -> Reply:
        if not isinstance(payload, dict) or not isinstance(payload.get("client"), str):
            raise bad('cancel needs "client"', "client")
        channel = payload.get("channel")
        if channel is not None and not isinstance(channel, str):
            raise bad('"channel" must be an endpoint name', "channel")
        with self._lock:
            jobs = [
                job
                for (client, endpoint), job in self._latest.items()
                if client == payload["client"] and channel in (None, endpoint)
            ]
        stopped = sum(job.stop("cancelled") for job in jobs)
        return Reply(200, {"cancelled": stopped})

    # -- helpers -----------------------------------------------------------------------
    @staticmethod
    def _edited(payload: dict[str, Any]) -> EditedPuzzle:
        if "puzzle" not in payload:
            raise bad('missing "puzzle"', "puzzle")
        return decode_puzzle(payload["puzzle"])

    @staticmethod
    def _clashes(puzzle: Puzzle) -> list[dict[str, Any]]:
        shape = puzzle.shape
        return [
            {"cells": list(c.cells), "digit": c.digit, "unit": c.unit, "text": c.describe(shape)}
            for c in puzzle.conflicts()
        ]

    def config(self) -> dict[str, Any]:
        """What the page offers, and the puzzle it opens with."""
        from ..formats import FORMATS, WRITABLE_FORMATS
        from ..generate import LEVEL_NAMES, SYMMETRIES

        initial = self.initial or Puzzle.empty(Shape(3, 3))
        return {
            "puzzle": encode_puzzle(initial),
            "solution": list(self.initial_solution.values) if self.initial_solution else None,
            "layout": layout(initial.rules),
            "sizes": [4, 6, 8, 9, 10, 12, 16, 25],
            "variants": [v for v in VARIANTS if v not in ("classic", "jigsaw")],
            "symmetries": list(SYMMETRIES),
            "levels": list(LEVEL_NAMES),
            "read_formats": list(FORMATS),
            "write_formats": list(WRITABLE_FORMATS),
            "budgets": BUDGETS,
            "max_budget_seconds": MAX_BUDGET_SECONDS,
            "max_limit": MAX_LIMIT,
        }

    # -- endpoints ---------------------------------------------------------------------
    def _layout(self, payload: dict[str, Any], job: Job) -> Reply:
        raw = payload.get("puzzle", payload)
        rules = decode_rules(
            {k: v for k, v in raw.items() if k in RULE_FIELDS} if isinstance(raw, dict) else raw
        )
        return Reply(200, {"layout": layout(rules)})

    def _status(self, payload: dict[str, Any], job: Job) -> Reply:
        edit = self._edited(payload)
        limit = payload.get("limit", 2)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 2 <= limit <= MAX_LIMIT:
            raise bad(f'"limit" must be a whole number from 2 to {MAX_LIMIT}', "limit")
        current = edit.current
        filled = current.clues
        body: dict[str, Any] = {
            "filled": filled,
            "empty": current.shape.cell_count - filled,
            "clues": edit.puzzle.clues,
            "limit": limit,
        }
        clashes = self._clashes(current)
        if clashes:
            body.update(
                clashes=clashes,
                clash_cells=sorted({c for x in clashes for c in x["cells"]}),
                count=0,
                complete=True,
                count_text="0",
                verdict=VerdictKind.CONTRADICTORY.value,
                seconds=round(time.perf_counter() - job.started, 6),
            )
            return Reply(200, body)
        backend = job.backend(current.rules)
        result = job.call(lambda budget: backend.count(current, limit=limit, budget=budget))
        count = result.count
        if result.complete:
            text = str(count)
        elif count >= limit:
            text = f"at least {limit}"
        else:
            text = f"at least {count}" if count else "unknown"
        body.update(
            clashes=[],
            clash_cells=[],
            count=count,
            complete=result.complete,
            count_text=text,
            verdict=result.verdict.value,
            budget_exhausted=result.budget_exhausted,
            backend=backend.engine_name(),
            seconds=round(time.perf_counter() - job.started, 6),
        )
        if count == 1 and result.complete and result.solutions:
            body["solution"] = list(result.solutions[0].values)
        return Reply(200, body)

    def _hint(self, payload: dict[str, Any], job: Job) -> Reply:
        from ..logic import TECHNIQUES, TECHNIQUES_BY_KEY, CandidateGrid, iter_steps

        edit = self._edited(payload)
        current = edit.current
        clashes = self._clashes(current)
        if clashes:
            return Reply(
                200, {"step": None, "reason": "the grid breaks a rule: " + clashes[0]["text"]}
            )
        grid = CandidateGrid.from_puzzle(current)
        if grid.broken is not None:
            return Reply(200, {"step": None, "reason": grid.broken})
        if grid.is_solved:
            return Reply(200, {"step": None, "reason": "the grid is complete"})
        step = next(iter_steps(grid, TECHNIQUES, deadline=job.deadline), None)
        job.check()
        if step is None:
            reason = (
                grid.broken
                if grid.broken is not None
                else "no technique applies: only search (Solve) can go on from here"
            )
            return Reply(200, {"step": None, "reason": reason})
        technique = TECHNIQUES_BY_KEY.get(step.technique)
        return Reply(200, {"step": _step_json(step, grid, technique.title if technique else None)})

    def _solve(self, payload: dict[str, Any], job: Job) -> Reply:
        from ..logic import TECHNIQUES, CandidateGrid, iter_steps

        edit = self._edited(payload)
        current = edit.current
        clashes = self._clashes(current)
        if clashes:
            return Reply(
                200,
                {
                    "status": "contradictory",
                    "method": None,
                    "values": None,
                    "message": "the grid breaks a rule: " + clashes[0]["text"],
                    "clash_cells": sorted({c for x in clashes for c in x["cells"]}),
                },
            )
        grid = CandidateGrid.from_puzzle(current)
        steps: list[dict[str, Any]] = []
        count = 0
        if grid.broken is None:
            for step in iter_steps(grid, TECHNIQUES, deadline=job.deadline):
                job.check()
                count += 1
                if len(steps) < MAX_STEPS_SHOWN:
                    steps.append(_step_json(step, grid, None))
        job.check()
        body: dict[str, Any] = {"logic_steps": count, "steps": steps}
        if grid.is_solved:
            body.update(
                status="solved",
                method="logic",
                values=list(grid.values),
                message=f"solved by logic in {count} steps",
            )
            return Reply(200, body)
        if grid.broken is not None:
            body.update(
                status="unsolvable",
                method="logic",
                values=None,
                message=f"no solution: {grid.broken}",
            )
            return Reply(200, body)
        empty = grid.empty
        backend = job.backend(current.rules)
        rest = Puzzle(grid.to_grid(), current.rules)
        result = job.call(lambda budget: backend.solve(rest, budget=budget))
        if result.solution is not None:
            body.update(
                status="solved",
                method="logic+search",
                values=list(result.solution.values),
                message=f"logic stalled after {count} steps with {empty} cells empty; "
                f"search ({backend.name}) finished it",
            )
        elif result.status.value == "unsolvable":
            body.update(
                status="unsolvable",
                method="logic+search",
                values=None,
                message=f"no solution: search ({backend.name}) found none after {count} logic "
                "steps",
            )
        else:
            return _budget_exhausted(job, **body, status="unknown", method="logic+search")
        return Reply(200, body)

    def _candidates(self, payload: dict[str, Any], job: Job) -> Reply:
        edit = self._edited(payload)
        values = edit.values.values
        peers = edit.rules.peers
        digits = range(1, edit.rules.shape.size + 1)
        out: list[list[int]] = []
        for cell, v in enumerate(values):
            if v:
                out.append([])
            else:
                taken = {values[p] for p in peers[cell]}
                out.append([d for d in digits if d not in taken])
        return Reply(200, {"candidates": out})

    def _generate(self, payload: dict[str, Any], job: Job) -> Reply:
        from ..generate import (
            LEVEL_NAMES,
            SYMMETRIES,
            GenerationEngine,
            GenerationError,
            GenerationSpec,
            generate_one,
        )

        options = ("symmetry", "level", "seed", "budget_seconds", "client", "seq")
        unknown = sorted(k for k in payload if k not in RULE_FIELDS + options)
        if unknown:
            raise bad(f"unknown field(s) {', '.join(map(repr, unknown))}", unknown[0])
        rules = decode_rules({k: v for k, v in payload.items() if k in RULE_FIELDS})
        symmetry = payload.get("symmetry", "none")
        if symmetry not in SYMMETRIES:
            raise bad(f"unknown symmetry {symmetry!r}; known: {', '.join(SYMMETRIES)}", "symmetry")
        level = payload.get("level")
        if level is not None and level not in LEVEL_NAMES:
            raise bad(f"unknown level {level!r}; known: {', '.join(LEVEL_NAMES)}", "level")
        seed = payload.get("seed")
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        elif isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise bad('"seed" must be a non-negative whole number', "seed")
        if rules.variants and "jigsaw" in rules.variants and rules.regions is None:
            raise bad("a jigsaw needs regions", "regions")
        try:
            spec = GenerationSpec(rules, symmetry=symmetry, level=level)
        except ValueError as exc:
            raise bad(str(exc)) from None
        backend = job.backend(rules)

        def make(budget: Budget) -> Any:
            # the same seed makes the same puzzle: a run stopped by another job's
            # interrupt starts again from scratch
            engine = GenerationEngine(backend, budget)
            try:
                return generate_one(spec, engine, seed=seed)
            finally:
                engine.close()

        try:
            made = job.call(make)
        except GenerationError as exc:
            job.check()
            raise ApiError(422, "not_found", str(exc)) from None
        job.check()
        return Reply(
            200,
            {
                "puzzle": encode_puzzle(made.puzzle),
                "solution": list(made.solution.values),
                "layout": layout(rules),
                "clues": made.clues,
                "minimal": made.minimal,
                "symmetry": made.symmetry,
                "level": made.level,
                "seed": made.seed,
                "description": made.describe(),
                "seconds": round(time.perf_counter() - job.started, 6),
            },
        )

    def _minimise(self, payload: dict[str, Any], job: Job) -> Reply:
        edit = self._edited(payload)
        puzzle = edit.puzzle
        shape = puzzle.shape
        if puzzle.is_contradictory:
            raise ApiError(422, "not_unique", "the givens break a rule: nothing to minimise")
        backend = job.backend(puzzle.rules)
        verdict = job.call(lambda budget: backend.check_unique(puzzle, budget=budget))
        job.check()
        if verdict.kind is VerdictKind.UNKNOWN:
            return _budget_exhausted(job)
        if verdict.kind is not VerdictKind.UNIQUE or verdict.solution is None:
            raise ApiError(
                422,
                "not_unique",
                f"only a unique puzzle can be minimised; this one is {verdict.kind.value}",
            )
        seed = payload.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise bad('"seed" must be a whole number', "seed")
        solution = verdict.solution
        values = bytearray(puzzle.givens.values)
        order = puzzle.givens.filled_cells()
        random.Random(seed).shuffle(order)
        removed: list[int] = []
        undecided = 0
        oracle = backend.removal_oracle(puzzle.rules, solution, budget=job.budget())
        try:
            # One pass is enough: a clue that is needed stays needed as others go.
            for cell in order:
                job.check()
                digit = values[cell]
                values[cell] = 0
                answer = job.call(lambda _: oracle.still_unique(values, (cell,)))  # noqa: B023
                if answer is True:
                    removed.append(cell)
                    continue
                values[cell] = digit
                if answer is None:
                    undecided += 1
        finally:
            oracle.close()
        smaller = Puzzle(Grid._trusted(shape, tuple(values)), puzzle.rules)
        return Reply(
            200,
            {
                "puzzle": encode_puzzle(smaller),
                "removed": sorted(removed),
                "removed_names": [shape.cell_name(c) for c in sorted(removed)],
                "clues": smaller.clues,
                "minimal": None if undecided else True,
                "solution": list(solution.values),
            },
        )

    def _check(self, payload: dict[str, Any], job: Job) -> Reply:
        edit = self._edited(payload)
        report = edit.puzzle.check(edit.values)
        return Reply(
            200,
            {
                "ok": report.ok,
                "problems": [
                    {"kind": p.kind, "cells": list(p.cells), "message": p.message}
                    for p in report.problems
                ],
            },
        )

    def _load(self, payload: dict[str, Any], job: Job) -> Reply:
        from ..formats import FORMATS, iter_records

        text = payload.get("text")
        if not isinstance(text, str) or not text.strip():
            raise bad('"text" must hold a puzzle (a line, a block, CSV or JSON)', "text")
        if len(text) > MAX_TEXT_CHARS:
            raise ApiError(
                413,
                "too_large",
                f"the text is {len(text):,} characters; at most {MAX_TEXT_CHARS:,}",
            )
        fmt = payload.get("format", "auto")
        if fmt not in FORMATS:
            raise bad(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}", "format")
        name = payload.get("name", "<pasted>")
        if not isinstance(name, str) or len(name) > 200:
            raise bad('"name" must be a short string', "name")
        index = payload.get("index", 0)
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise bad('"index" must be a non-negative whole number', "index")
        # A file name only picks the format by its extension: nothing is opened. One
        # line is read as the command line reads a literal puzzle (a puzzle line, a
        # pencilmark line, an f-puzzles, SudokuPad or ISS string), never as a block.
        if fmt == "auto" and "\n" not in text.strip() and not text.lstrip().startswith(("{", "[")):
            from ..formats.sniff import literal_format
            from ..gridtext import DEFAULT_ALPHABET

            fmt = literal_format(text, DEFAULT_ALPHABET, None)
        chosen = None
        count = 0
        try:
            for rec in iter_records(io.StringIO(text), source=os.path.basename(name), fmt=fmt):
                if count == index:
                    chosen = rec
                count += 1
                if count % 1000 == 0:
                    job.check()
        except ParseError as exc:
            raise ApiError(400, "malformed", str(exc), "text") from None
        if chosen is None:
            raise bad(f"the text holds {count} puzzle(s); there is no index {index}", "index")
        if chosen.error is not None:
            err = chosen.error
            raise ApiError(
                400,
                "malformed",
                str(err),
                "text",
            )
        assert chosen.puzzle is not None
        return Reply(
            200,
            {
                "puzzle": encode_puzzle(chosen.puzzle),
                "solution": list(chosen.solution.values) if chosen.solution else None,
                "layout": layout(chosen.puzzle.rules),
                "count": count,
                "index": index,
                "comment": chosen.comment,
            },
        )

    def _save(self, payload: dict[str, Any], job: Job) -> Reply:
        from ..formats import WRITABLE_FORMATS, write_records

        edit = self._edited(payload)
        fmt = payload.get("format", "line")
        if fmt not in WRITABLE_FORMATS:
            raise bad(f"cannot write {fmt!r}; writable: {', '.join(WRITABLE_FORMATS)}", "format")
        solution = _solution_of(edit) if payload.get("solution") else None
        out = io.StringIO()
        write_records([(edit.puzzle, solution)], fmt, out)
        body: dict[str, Any] = {
            "text": out.getvalue(),
            "filename": f"puzzle.{'txt' if fmt in ('line', 'block') else fmt}",
            "mime": {"csv": "text/csv", "json": "application/json"}.get(fmt, "text/plain"),
        }
        if fmt in ("line", "block", "csv") and not edit.rules.is_classic:
            kept = [v for v in edit.rules.variants if v != "classic"]
            kept += dict.fromkeys(r.name for r in edit.rules.constraint_rules)
            names = ", ".join(kept)
            body["warning"] = (
                f"the {fmt} format keeps no variant rules ({names}); "
                "save as json or jsonl to keep them"
            )
        return Reply(200, body)

    def _print(self, payload: dict[str, Any], job: Job) -> Reply:
        from ..display import book_pages, write_pages

        edit = self._edited(payload)
        fmt = payload.get("format", "pdf")
        if fmt not in ("pdf", "svg"):
            raise bad('"format" is pdf or svg', "format")
        solution = _solution_of(edit) if payload.get("solution") else None
        pages = book_pages(
            [(edit.puzzle, solution, "puzzle")], per_page=1, solutions=bool(solution)
        )
        with tempfile.TemporaryDirectory(prefix="sudoku-edit-") as tmp:
            path = os.path.join(tmp, f"puzzle.{fmt}")
            try:
                written = write_pages(pages if fmt == "pdf" else pages[:1], path)
            except ImportError as exc:
                raise ApiError(501, "unavailable", str(exc)) from None
            with open(written[0], "rb") as f:
                data = f.read()
        kind = "application/pdf" if fmt == "pdf" else "image/svg+xml"
        return Reply(200, body=data, content_type=kind, filename=f"puzzle.{fmt}")


def _solution_of(edit: EditedPuzzle) -> Grid | None:
    """The grid shown, when it is complete and solves the givens."""
    return edit.values if edit.puzzle.is_solution(edit.values) else None


def _step_json(step: Any, grid: Any, title: str | None) -> dict[str, Any]:
    tables = grid.tables
    d: dict[str, Any] = {
        "technique": step.technique,
        "explanation": step.explanation,
        "cells": sorted(set(step.cells) | {c for c, _ in step.placements}),
        "placements": [list(p) for p in step.placements],
        "eliminations": [list(e) for e in step.eliminations],
        "units": [tables.unit_names[u] for u in step.units],
    }
    if title is not None:
        d["title"] = title
    return d
