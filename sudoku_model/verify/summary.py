"""The counts of a run: verdicts, disagreements, published solutions, time."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..solving import (
    VerdictKind,
)
from .results import _K, VerifyResult

# -- summary -------------------------------------------------------------------------------
VERDICT_ORDER = tuple(_K)


@dataclass
class VerifySummary:
    """Counts per verdict, disagreements, undecided cross-checks, published-solution
    matches and mismatches, time and rate of a run."""

    counts: dict[VerdictKind, int] = field(default_factory=lambda: {k: 0 for k in _K})
    disagreements: int = 0
    not_minimal: int = 0
    resumed: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    undecided: int = 0
    published_matches: int = 0
    published_mismatches: int = 0

    def add(
        self,
        verdict: VerdictKind,
        *,
        disagreement: bool = False,
        not_minimal: bool = False,
        undecided: bool = False,
        published: str | None = None,
    ) -> None:
        """Count one result (``published``: its ``published_solution`` word, if any)."""
        self.counts[verdict] += 1
        self.disagreements += disagreement
        self.not_minimal += not_minimal
        self.undecided += undecided
        if published is not None:
            if published == "mismatch":
                self.published_mismatches += 1
            else:
                self.published_matches += 1

    def merge(self, other: VerifySummary) -> None:
        """Add the counts of another summary (of a chunk) to these."""
        for k, n in other.counts.items():
            self.counts[k] += n
        self.disagreements += other.disagreements
        self.not_minimal += other.not_minimal
        self.undecided += other.undecided
        self.published_matches += other.published_matches
        self.published_mismatches += other.published_mismatches

    def add_result(self, r: VerifyResult) -> None:
        self.add(
            r.verdict,
            disagreement=r.disagreement is not None,
            not_minimal=bool(r.redundant),
            undecided=bool(r.undecided),
            published=r.published,
        )

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def all_unique(self) -> bool:
        """The run's answer is "yes": every puzzle unique, no disagreement, no published
        solution that mismatches."""
        return (
            self.counts[_K.UNIQUE] == self.total
            and not self.disagreements
            and not self.published_mismatches
        )

    def table(self, *, computed: int | None = None) -> str:
        """A small readable table: one line per verdict that occurred, then totals."""
        total = self.total
        width = max(8, len(f"{total:,}"))
        lines = []
        for k in VERDICT_ORDER:
            n = self.counts[k]
            if n or k is _K.UNIQUE:
                pct = 100.0 * n / total if total else 0.0
                lines.append(f"  {k.value:<13} {n:>{width},}  {pct:5.1f}%")
        lines.append(f"  {'total':<13} {total:>{width},}")
        if self.disagreements:
            lines.append(f"  {'DISAGREEMENTS':<13} {self.disagreements:>{width},}")
        if self.undecided:
            lines.append(
                f"  {'undecided':<13} {self.undecided:>{width},}  "
                "(a backend answered unknown: not checked, no disagreement)"
            )
        if self.published_matches or self.published_mismatches:
            lines.append(
                f"  {'published ok':<13} {self.published_matches:>{width},}  "
                "(the solution in the input is right)"
            )
        if self.published_mismatches:
            lines.append(
                f"  {'PUBLISHED':<13} {self.published_mismatches:>{width},}  "
                "MISMATCHES: the solution in the input is wrong (see published_cells)"
            )
        if self.not_minimal:
            lines.append(f"  {'not minimal':<13} {self.not_minimal:>{width},}")
        done = (total - self.resumed) if computed is None else computed
        rate = done / self.seconds if self.seconds > 0 else 0.0
        tail = f"  {done:,} verified in {self.seconds:.2f} s ({rate:,.0f} puzzles/s)"
        if self.resumed:
            tail += f"; {self.resumed:,} already in the output (resumed)"
        if self.interrupted:
            tail += "; INTERRUPTED (resume with --resume)"
        lines.append(tail)
        return "\n".join(lines)
