"""Faults planted in a built data set, for the tests of ``dataset check`` (library and
command line)."""

from __future__ import annotations

import csv
import hashlib
import json
import random
from pathlib import Path

from sudoku_model import Puzzle
from sudoku_model.canon import canonical_key
from sudoku_model.dataset import backtrack_count, random_transform, read_manifest
from sudoku_model.geometry import Shape
from sudoku_model.grid import Grid
from sudoku_model.mlformats import LAYOUTS


def read_rows(path: Path) -> list[list[str]]:
    with open(path, newline="") as f:
        return list(csv.reader(f))


def write_rows(path: Path, rows: list[list[str]]) -> None:
    with open(path, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def rehash(root: Path) -> None:
    manifest = json.loads((root / "manifest.json").read_text())
    for name in manifest["files"]:
        manifest["files"][name] = hashlib.sha256((root / name).read_bytes()).hexdigest()
    (root / "manifest.json").write_text(json.dumps(manifest))


def plant(root: Path, layout: str) -> None:
    """A wrong answer (train row 1), a non-unique puzzle (train row 2: a clue removed from
    a minimal puzzle) and a randomly transformed copy of train row 3 in place of test row 1,
    every label made to agree and the manifest hashes recomputed: only the three faults
    remain."""
    spec = LAYOUTS[layout]
    first = 0 if spec.header is None else 1
    p, s = spec.roles.index("puzzle"), spec.roles.index("solution")
    guess_seed = read_manifest(root)["seeds"]["guesses"]
    train, train_labels = read_rows(root / "train.csv"), read_rows(root / "train.labels.csv")
    test, test_labels = read_rows(root / "test.csv"), read_rows(root / "test.labels.csv")

    def relabel(labels: list[str], puzzle: Puzzle) -> None:
        labels[1] = puzzle.givens.to_line()
        labels[2] = str(puzzle.clues)
        labels[4] = str(backtrack_count(puzzle, seed=guess_seed))
        labels[5] = canonical_key(puzzle)

    answer = list(train[first][s])
    answer[0], answer[1] = answer[1], answer[0]
    train[first][s] = "".join(answer)

    puzzle = Puzzle.parse(train[first + 1][p])
    cell = puzzle.givens.filled_cells()[0]
    values = list(puzzle.givens.values)
    values[cell] = 0
    loose = Puzzle(Grid(puzzle.shape, values), puzzle.rules)
    train[first + 1][p] = loose.givens.to_line(blank=spec.blank)
    relabel(train_labels[2], loose)

    t = random_transform(Shape(3, 3), random.Random(9))
    source = Puzzle.parse(train[first + 2][p])
    copy = Puzzle(t.apply(source.givens), source.rules)
    assert copy.givens != source.givens
    test[first][p] = copy.givens.to_line(blank=spec.blank)
    test[first][s] = t.apply(Grid.parse(train[first + 2][s])).to_line()
    relabel(test_labels[1], copy)
    if "rating" in spec.roles:
        r = spec.roles.index("rating")
        train[first + 1][r] = train_labels[2][4]
        test[first][r] = test_labels[1][4]
    if "clues" in spec.roles:
        train[first + 1][spec.roles.index("clues")] = str(loose.clues)
    for path, table in [
        (root / "train.csv", train),
        (root / "train.labels.csv", train_labels),
        (root / "test.csv", test),
        (root / "test.labels.csv", test_labels),
    ]:
        write_rows(path, table)
    rehash(root)
