"""The removal oracle of the contract: "is the puzzle still unique without these clues?"
asked while clues are removed from one full grid, with the generator's whole removal pass
and its minimality test as declared methods with generic defaults."""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..grid import Grid
from ..puzzle import Puzzle
from ..rules import RuleSet
from .results import Budget, VerdictKind

if TYPE_CHECKING:
    from .contract import Backend


@dataclass(frozen=True)
class RemovalPass:
    """What :meth:`RemovalOracle.remove_groups` did.

    ``givens``: the values after the pass (n*n bytes, 0 = empty). ``answers``: one per
    visited group, in visiting order: True (it went), False (necessary: it stayed), None (a
    budget ran out: it stayed). Groups from ``len(answers)`` on were not visited (the clue
    target was reached first).
    """

    givens: bytes
    answers: tuple[bool | None, ...]

    @property
    def clues(self) -> int:
        """The number of givens left."""
        return len(self.givens) - self.givens.count(0)


#: A caller's shortcut for :meth:`RemovalOracle.remove_groups`: ``shortcut(values, group)``
#: with the group emptied in ``values``; True only when the puzzle is surely still unique
#: (say, every emptied cell is forced by the givens), else False (then the oracle asks).
RemovalShortcut = Callable[[bytearray, Sequence[int]], bool]


class RemovalOracle(abc.ABC):
    """Answers "is the puzzle still unique?" while clues are removed from one full grid S
    (from :meth:`Backend.removal_oracle`): the generator's and ``--minimal``'s question.

    ``still_unique(givens, removed)``: ``givens`` are S with some cells emptied (0), and
    the puzzle was unique before the ``removed`` cells were emptied too. Then it is still
    unique exactly when no solution differs from S in a removed cell, which a backend can
    ask as one search ("the givens + a removed cell != its digit in S"). True: still
    unique; False: another solution exists; None: the budget ran out first (the one
    meaning of "budget spent" for every primitive; never an exception).

    ``cheap_calls`` says that one call costs microseconds (a C search), so a caller should
    not spend Python time on shortcuts first. ``stats`` counts what the oracle did, under
    keys of its own (native: ``fallback_calls``). Use it as a context manager, or call
    :meth:`close`, to free a solver it holds. Not thread-safe.
    """

    cheap_calls: ClassVar[bool] = False

    def __init__(self, rules: RuleSet, solution: Grid, budget: Budget) -> None:
        self.rules = rules
        self.solution = solution
        self.budget = budget
        self.stats: dict[str, int] = {}

    @abc.abstractmethod
    def still_unique(self, givens: Sequence[int], removed: Sequence[int]) -> bool | None:
        """See the class docstring.

        Raises:
            ValueError: when ``givens`` has not one value per cell.
            SearchInterrupted: after :meth:`Backend.interrupt`.
        """

    #: True when :meth:`remove_groups` and :meth:`all_necessary` run the whole pass in
    #: one call of the backend's own (native: C), ignoring the caller's shortcut.
    bulk_removal: ClassVar[bool] = False

    def remove_groups(
        self,
        givens: Sequence[int],
        groups: Sequence[Sequence[int]],
        *,
        target: int | None = None,
        shortcut: RemovalShortcut | None = None,
    ) -> RemovalPass:
        """The removal pass of the generator: the ``groups`` (disjoint cell groups, e.g.
        the orbits of a symmetry, in the order the caller drew) are visited in turn, each
        emptied and left empty when the puzzle stays unique without it
        (:meth:`still_unique`), else put back. Before a group the pass stops once at most
        ``target`` clues are left (None: visit every group). ``givens`` (S with some cells
        emptied, unique) is not changed.

        This default is the Python loop, one :meth:`still_unique` per group after the
        caller's ``shortcut`` (see :data:`RemovalShortcut`); a backend overrides it (and
        sets :attr:`bulk_removal`) to run the same pass in one call. Every correct oracle
        gives the same result, since each answer is a fact about the puzzle; only a
        budget that runs out (answer None, the group stays) can make two differ.

        Raises:
            ValueError: when ``givens`` has not one value per cell.
            SearchInterrupted: after the backend's ``interrupt()``.
        """
        self._check(givens)
        values = bytearray(givens)
        clues = len(values) - values.count(0)
        answers: list[bool | None] = []
        known = self.solution.values
        for group in groups:
            if target is not None and clues <= target:
                break
            for c in group:
                values[c] = 0
            if shortcut is not None and shortcut(values, group):
                answer: bool | None = True
            else:
                answer = self.still_unique(values, group)
            answers.append(answer)
            if answer is True:
                clues -= len(group)
            else:
                for c in group:
                    values[c] = known[c]
        return RemovalPass(bytes(values), tuple(answers))

    def all_necessary(self, givens: Sequence[int], groups: Iterable[Sequence[int]]) -> bool | None:
        """Whether every group is necessary: False as soon as one could go (the puzzle
        stays unique without it), None when a budget stopped some test and none could go,
        True otherwise (``givens`` is a unique subset of S holding every group; the
        minimality test). The default asks :meth:`still_unique` per group.

        Raises:
            ValueError: when ``givens`` has not one value per cell.
            SearchInterrupted: after the backend's ``interrupt()``.
        """
        self._check(givens)
        values = bytearray(givens)
        known = self.solution.values
        unknown = False
        for group in groups:
            for c in group:
                values[c] = 0
            answer = self.still_unique(values, group)
            for c in group:
                values[c] = known[c]
            if answer is True:
                return False
            if answer is None:
                unknown = True
        return None if unknown else True

    def note_necessary(self, cells: Iterable[int]) -> None:
        """A hint from the caller: these clues were shown necessary and stay givens of
        this grid from now on (an oracle may make them fixed constraints of its own; the
        default ignores it). Answers never depend on it."""
        return None

    def _check(self, givens: Sequence[int]) -> None:
        if len(givens) != self.rules.shape.cell_count:
            raise ValueError(
                f"givens has {len(givens)} values; the grid has {self.rules.shape.cell_count} cells"
            )

    def close(self) -> None:
        """Free what the oracle holds (nothing, by default)."""
        return None

    def __enter__(self) -> RemovalOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _CheckUniqueOracle(RemovalOracle):
    """The default removal oracle: one ``check_unique(puzzle, solution=S)`` per call."""

    def __init__(self, backend: Backend, rules: RuleSet, solution: Grid, budget: Budget) -> None:
        super().__init__(rules, solution, budget)
        self.backend = backend

    def still_unique(self, givens: Sequence[int], removed: Sequence[int]) -> bool | None:
        self._check(givens)
        puzzle = Puzzle(Grid._trusted(self.rules.shape, tuple(givens)), self.rules)
        kind = self.backend.check_unique(puzzle, solution=self.solution, budget=self.budget).kind
        if kind is VerdictKind.UNIQUE:
            return True
        return False if kind is VerdictKind.MULTIPLE else None
