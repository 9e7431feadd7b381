"""The rating loop of ``sudoku rate`` (:mod:`sudoku_model.rating`): ratings come back in
input order, chunk by chunk, malformed records unrated, the same with worker processes."""

from __future__ import annotations

from typing import Any

import pytest

from sudoku_model.formats import iter_records
from sudoku_model.rating import rate_stream


def _clues(job: Any) -> dict[str, Any]:
    return {"clues": job.clues}


def test_ratings_in_input_order_with_malformed_records_unrated(tmp_path) -> None:
    lines = ["1" + "." * 15, "bad!", "12" + "." * 14, "123" + "." * 13] * 5
    src = tmp_path / "p.txt"
    src.write_text("\n".join(lines) + "\n")
    for jobs in (1, 2):
        records = iter_records(str(src))
        rated = list(rate_stream(records, _clues, lambda rec: rec.puzzle, jobs=jobs, chunk=3))
        assert len(rated[0]) == 1 and all(len(c) <= 3 for c in rated)
        pairs = [pair for c in rated for pair in c]
        assert [rec.line for rec, _ in pairs] == list(range(1, len(lines) + 1))
        got = [None if r is None else r["clues"] for _, r in pairs]
        assert got == [1, None, 2, 3] * 5
        assert all((r is None) == (rec.error is not None) for rec, r in pairs)


def test_bad_jobs_is_refused() -> None:
    with pytest.raises(ValueError, match="jobs"):
        next(rate_stream([], _clues, lambda rec: rec, jobs=0))
