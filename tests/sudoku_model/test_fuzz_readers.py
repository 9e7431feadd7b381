"""Fuzzing every puzzle reader: a seeded mutation loop over the bundled
collections. Whatever the input, a reader raises nothing but ParseError, every malformed
record says file:line:col, and no input takes more than a second.

The default run drives a few thousand cases; the ``slow`` test (run by CI) over 100,000.
A case is one mutated input driven through one reader.
"""

from __future__ import annotations

import gzip
import json
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sudoku_model import ParseError, formats
from sudoku_model.data import bundled_path

#: Characters that mean something to some reader, and some that mean nothing to any.
SPICE = list("0123456789ABCDEFGHIPQYZabz.-_*#;:, \t|+=\"'{}[]\r\n\\") + [
    "\x00",
    "\x7f",
    "\ufeff",
    "\u200b",
    "\ufffd",
    "é",
    "\U0001f600",
    "Infinity",
    "null",
]


def _seeds() -> list[str]:
    texts = []
    for name in ("top95", "counts-43", "hardest", "easy50"):
        lines = Path(bundled_path(name)).read_text(encoding="utf-8").splitlines()
        texts.extend(lines[:30])
    p = texts[0][:81]
    sixteen = "1234567890ABCDEFG" * 15 + "1"
    texts += [
        json.dumps({"puzzle": p, "variants": ["diagonal"]}),
        json.dumps({"box": [2, 3], "puzzle": "1.3..4.2.1.4..2.5....6.3.1.4..2.5...6"[:36]}),
        json.dumps([p, {"puzzle": p, "solution": p}]),
        json.dumps({"puzzles": [p, p]}),
        json.dumps(
            {"size": 9, "regions": "1" * 81, "puzzle": [p[i : i + 9] for i in range(0, 81, 9)]}
        ),
        "puzzle,solution\n" + p + "," + p,
        "id,quiz,answer,rating\n1," + p + "," + p + ",3",
        formats.format_block(formats.parse_line(p)[0]),
        "+-------+-------+\n| 1 2 | 3 4 |\n+---+",
        "1 2 3\n" + p,
        sixteen[:256],
        # the variant formats: killer CSV, f-puzzles (JSON and link), variant JSON
        ",ptitle,puzz_color,puzz_hint,solved\n0,t,K" + "AB" * 40 + 'C,"3,4",',
        json.dumps({"size": 4, "grid": [[{}] * 4] * 4, "xv": [{"cells": ["r1c1", "r1c2"]}]}),
        "https://f-puzzles.com/?load="
        + json.dumps({"size": 4, "grid": [[{}] * 4] * 4, "ratio": [{"cells": ["r1c1", "r2c1"]}]}),
        json.dumps(
            {
                "puzzle": p,
                "constraints": [
                    {"type": "killer", "cages": [{"cells": ["r1c1", "r1c2"], "sum": 3}]},
                    {"type": "arrow", "arrows": [{"circle": ["r5c5"], "shaft": ["r6c6"]}]},
                ],
            }
        ),
    ]
    return texts


def _mutate(rng: random.Random, seeds: list[str]) -> str:
    text = rng.choice(seeds)
    if rng.random() < 0.3:
        text += "\n" + rng.choice(seeds)
    for _ in range(rng.choice((0, 1, 1, 2, 3, 5, 8))):
        kind = rng.random()
        i = rng.randrange(len(text) + 1)
        if kind < 0.35:
            text = text[:i] + rng.choice(SPICE) + text[i:]
        elif kind < 0.6 and text:
            text = text[:i] + text[i + 1 :]
        elif kind < 0.8 and text:
            text = text[:i] + rng.choice(SPICE) + text[i + 1 :]
        elif kind < 0.9:
            text = text[:i]  # truncated
        else:
            j = rng.randrange(len(text) + 1)
            text = text[:i] + text[min(i, j) : max(i, j)] + text[i:]  # duplicated slice
    return text


def _check_records(records: list[formats.Record]) -> None:
    for rec in records:
        assert (rec.puzzle is None) == (rec.error is not None)
        assert rec.position >= 0
        if rec.error is not None:
            err = rec.error
            assert err.line >= 1 and err.column >= 1, str(err)
            assert len(rec.text) < 2000 and len(err.text) < 2000


def _readers(text: str, tmp: Path, rng: random.Random) -> list[tuple[str, Callable[[], object]]]:
    lines = text.splitlines(keepends=True)
    out: list[tuple[str, Callable[[], object]]] = [
        (f"iter_records fmt={fmt}", lambda fmt=fmt: list(formats.iter_records(lines, fmt=fmt)))
        for fmt in formats.FORMATS
    ]
    out += [
        ("read_puzzle", lambda: formats.read_puzzle(text)),
        ("parse_line", lambda: formats.parse_line(text)),
        ("parse_block", lambda: formats.parse_block(lines)),
    ]
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        obj = text
    out.append(("puzzle_from_json", lambda: formats.puzzle_from_json(obj)))
    if rng.random() < 0.02:
        # through a file: bytes, gzip whole or cut, under names that do or do not say so
        data = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.5:
            data = gzip.compress(data)
            data = data[: rng.randrange(len(data) + 1)]
        path = tmp / rng.choice(("f.txt", "f.gz", "f.csv", "f.json", "f.jsonl", "f"))
        path.write_bytes(data)
        out.append(("iter_records(path)", lambda: list(formats.iter_records(path))))
    return out


def _fuzz(cases: int, seed: int, tmp: Path, *, max_seconds: float | None = None) -> int:
    """Runs CASES mutated inputs through every reader; with MAX_SECONDS, also asserts that
    no reader call takes longer (no input may make a reader crawl)."""
    rng = random.Random(seed)
    seeds = _seeds()
    done = 0
    while done < cases:
        text = _mutate(rng, seeds)
        for what, call in _readers(text, tmp, rng):
            start = time.perf_counter()
            try:
                result = call()
            except ParseError as exc:
                assert exc.line >= 0 and exc.column >= 0
            except Exception as exc:  # the test's point: nothing else may escape
                raise AssertionError(f"{what} raised {exc!r} on {text!r}") from exc
            else:
                if isinstance(result, list):
                    _check_records(result)
            took = time.perf_counter() - start
            if max_seconds is not None:
                assert took < max_seconds, f"{what} took {took:.2f} s on {text[:200]!r}"
            done += 1
    return done


def test_fuzz_readers_fast(tmp_path: Path) -> None:
    assert _fuzz(4_000, seed=1, tmp=tmp_path) >= 4_000


@pytest.mark.timing
def test_fuzz_readers_take_under_a_second_a_call(tmp_path: Path) -> None:
    assert _fuzz(4_000, seed=1, tmp=tmp_path, max_seconds=1.0) >= 4_000


@pytest.mark.slow
def test_fuzz_readers_100k(tmp_path: Path) -> None:
    assert _fuzz(100_000, seed=2, tmp=tmp_path) >= 100_000
