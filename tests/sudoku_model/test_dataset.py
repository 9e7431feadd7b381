"""Data sets (issue 20 item 2): labels, splits by equivalence class, the manifest, and the
check that catches a wrong answer, a non-unique puzzle and a cross-split isomorph."""

from __future__ import annotations

import csv
import hashlib
import json
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from sudoku_model import Puzzle, RuleSet, Shape, get_backend
from sudoku_model.canon import canonical_key
from sudoku_model.dataset import (
    SPLITS,
    Candidate,
    assign_splits,
    backtrack_count,
    build_dataset,
    check_dataset,
    derived_seed,
    label_puzzles,
    labelled_puzzles,
    random_transform,
    read_manifest,
)
from sudoku_model.errors import ParseError
from sudoku_model.grid import Grid
from sudoku_model.logic import grade

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from dataset_faults import plant, read_rows, rehash, write_rows  # noqa: E402

TOP95_1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
#: A hardest-list puzzle the native core cannot solve without guessing.
GUESSER = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97.."
SEED = 5


def build(directory: Path, count: int = 40, **options: object) -> dict[str, object]:
    seeds = {k: derived_seed(SEED, k) for k in ("generate", "split", "guesses")}
    made = labelled_puzzles(
        "generate", count=count, make_seed=seeds["generate"], guess_seed=seeds["guesses"]
    )
    layout = str(options.pop("layout", "quiz-answer"))
    ratios = options.pop("ratios", (0.6, 0.2, 0.2))
    return build_dataset(
        directory, made, layout=layout, ratios=ratios, seed=SEED, seeds=seeds, **options
    )


# -- labels ------------------------------------------------------------------------------
@pytest.mark.parametrize("box", [(3, 3), (2, 3), (2, 2)])
def test_random_transform_is_a_group_element_that_keeps_the_class(box: tuple[int, int]) -> None:
    shape = Shape(*box)
    rng = random.Random(3)
    rules = RuleSet.classic(shape)
    solution = get_backend("native").random_solution(rules, rng)
    assert solution is not None
    seen = set()
    for _ in range(20):
        t = random_transform(shape, rng)
        assert t.is_valid_for(shape)
        moved = t.apply(solution)
        seen.add(moved)
        assert canonical_key(moved) == canonical_key(solution)
    assert len(seen) > 15  # random, not a fixed permutation


def test_backtrack_count_is_reproducible_and_depends_on_the_seed() -> None:
    puzzle = Puzzle.parse(GUESSER)
    counts = {backtrack_count(puzzle, seed=s) for s in range(12)}
    assert backtrack_count(puzzle, seed=4) == backtrack_count(puzzle, seed=4)
    assert all(isinstance(c, int) and c > 0 for c in counts)  # a hard puzzle needs guesses
    assert len(counts) > 1  # the transformation changes the branching
    easy = Puzzle.parse("1.3..4.2.1.3..2.")
    assert backtrack_count(easy, seed=1) == 0


def test_labels_drop_what_cannot_be_in_a_data_set() -> None:
    solved = get_backend("native").solve(Puzzle.parse(TOP95_1)).solution
    assert solved is not None
    wrong = Grid(solved.shape, [solved.values[1], solved.values[0], *solved.values[2:]])
    candidates = [
        Candidate(Puzzle.parse(TOP95_1), solved),
        Candidate(Puzzle.parse(TOP95_1), wrong),
        Candidate(Puzzle.parse("." * 81)),
        Candidate(Puzzle.parse("11" + "." * 79)),
    ]
    out = label_puzzles(candidates, guess_seed=1)
    assert [lab.status for lab in out] == ["ok", "wrong-solution", "multiple", "contradictory"]
    ok = out[0]
    assert ok.solution == solved
    assert ok.level == grade(Puzzle.parse(TOP95_1)).level  # what `sudoku rate` says
    assert ok.guesses == backtrack_count(Puzzle.parse(TOP95_1), seed=1)
    assert ok.canonical == canonical_key(Puzzle.parse(TOP95_1))


# -- splits ------------------------------------------------------------------------------
def test_a_class_never_crosses_splits_and_the_ratios_hold() -> None:
    rng = random.Random(1)
    keys = [f"k{rng.randrange(300)}" for _ in range(2000)]
    split = assign_splits(keys, [0.8, 0.1, 0.1], seed=2)
    home: dict[str, int] = {}
    for key, s in zip(keys, split):
        assert home.setdefault(key, s) == s
    sizes = Counter(split)
    assert abs(sizes[0] / 2000 - 0.8) < 0.03
    assert abs(sizes[1] / 2000 - 0.1) < 0.03


def test_stratified_splits_follow_the_ratios_in_every_stratum() -> None:
    keys = [str(i) for i in range(600)]
    strata = [22 + i % 3 for i in range(600)]
    split = assign_splits(keys, [0.5, 0.25, 0.25], seed=1, strata=strata)
    for stratum in (22, 23, 24):
        counts = Counter(s for s, t in zip(split, strata) if t == stratum)
        assert counts == {0: 100, 1: 50, 2: 50}


def test_a_zero_ratio_gets_nothing_and_bad_ratios_are_refused() -> None:
    assert set(assign_splits([str(i) for i in range(50)], [0.7, 0.3, 0.0], seed=1)) == {0, 1}
    with pytest.raises(ValueError, match="sum to 1"):
        assign_splits(["a"], [0.5, 0.2, 0.2], seed=1)
    with pytest.raises(ValueError, match="different strata"):
        assign_splits(["a", "a"], [1.0, 0.0, 0.0], seed=1, strata=[22, 23])


# -- build and check ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("dataset")
    build(root, layout="source-question-answer-rating", stratify="clues")
    return root


def test_a_built_data_set_has_its_files_manifest_and_labels(built: Path) -> None:
    manifest = read_manifest(built)
    assert manifest["toolkit"].startswith("sudoku-model ")
    assert manifest["seed"] == SEED and set(manifest["seeds"]) == {"generate", "split", "guesses"}
    assert sum(s["count"] for s in manifest["splits"].values()) == manifest["count"] == 40
    assert "not available" in manifest["labels"]["se_rating"]
    for name, digest in manifest["files"].items():
        assert hashlib.sha256((built / name).read_bytes()).hexdigest() == digest
    with open(built / "train.csv") as f:
        rows = list(csv.reader(f))
    with open(built / "train.labels.csv") as f:
        labels = list(csv.DictReader(f))
    assert rows[0] == ["source", "question", "answer", "rating"]
    assert len(rows) - 1 == len(labels) == manifest["splits"]["train"]["count"]
    for row, lab in zip(rows[1:], labels):
        puzzle = Puzzle.parse(row[1])
        assert row[0] == "generate" and row[3] == lab["guesses"]
        assert int(lab["clues"]) == puzzle.clues and lab["level"] in (
            "easy",
            "medium",
            "hard",
            "expert",
            "extreme",
        )
        assert lab["canonical"] == canonical_key(puzzle)
        assert get_backend("native").check_unique(puzzle).solution == Grid.parse(row[2])


def test_a_built_data_set_passes_its_check(built: Path) -> None:
    report = check_dataset(built)
    assert report.ok, report.problems
    assert sum(report.counts.values()) == 40


def test_the_same_seed_builds_the_same_files(built: Path, tmp_path: Path) -> None:
    again = build(tmp_path, layout="source-question-answer-rating", stratify="clues")
    assert again["files"] == read_manifest(built)["files"]


@pytest.mark.parametrize("layout", ["quiz-answer", "source-question-answer-rating"])
def test_the_check_names_the_three_planted_faults(tmp_path: Path, layout: str) -> None:
    build(tmp_path, layout=layout)
    plant(tmp_path, layout)
    report = check_dataset(tmp_path)
    assert not report.malformed
    assert set(report.reasons()) == {"wrong-answer", "not-unique", "cross-split"}, report.problems
    where = {p.reason: p.where for p in report.problems}
    first = 1 if layout == "quiz-answer" else 2
    assert where["wrong-answer"].endswith(f"train.csv:{first}")
    assert where["not-unique"].endswith(f"train.csv:{first + 1}")
    assert where["cross-split"].endswith(f"test.csv:{first}")


def test_the_check_sees_an_edited_file_and_a_wrong_label(tmp_path: Path) -> None:
    build(tmp_path, count=20)
    labels = read_rows(tmp_path / "validation.labels.csv")
    labels[1][4] = str(int(labels[1][4]) + 1)
    write_rows(tmp_path / "validation.labels.csv", labels)
    report = check_dataset(tmp_path)
    assert set(report.reasons()) == {"hash-mismatch", "label-mismatch"}
    rehash(tmp_path)
    report = check_dataset(tmp_path)
    assert report.reasons() == {"label-mismatch": 1}
    assert "guesses label" in report.problems[0].detail


def test_malformed_files_are_input_errors_with_a_location(tmp_path: Path) -> None:
    build(tmp_path, count=20)
    rows = read_rows(tmp_path / "train.csv")
    rows[2][0] = rows[2][0][:4] + "x" + rows[2][0][5:]
    write_rows(tmp_path / "train.csv", rows)
    report = check_dataset(tmp_path)
    assert [(e.line, e.column) for e in report.malformed] == [(3, 5)]
    (tmp_path / "manifest.json").write_text('{"kind": "sudoku-dataset",\n "layout": ]')
    with pytest.raises(ParseError) as err:
        check_dataset(tmp_path)
    assert (err.value.line, err.value.column) == (2, 12)


def test_unbiased_puzzles_carry_their_weights(tmp_path: Path) -> None:
    seeds = {k: derived_seed(1, k) for k in ("generate", "split", "guesses")}
    made = list(
        labelled_puzzles(
            "unbiased", count=12, make_seed=seeds["generate"], guess_seed=seeds["guesses"]
        )
    )
    assert len(made) == 12 and all(lab.candidate.log_weight is not None for lab in made)
    manifest = build_dataset(
        tmp_path, made, layout="quizzes-solutions", ratios=(0.5, 0.5, 0.0), seed=1, seeds=seeds
    )
    assert manifest["weighted"] and set(manifest["splits"]) == set(SPLITS[:2])
    header = read_rows(tmp_path / "train.labels.csv")[0]
    assert header[-1] == "log_weight"
    assert check_dataset(tmp_path).ok


def test_worker_processes_make_the_same_puzzles_and_labels() -> None:
    def run(jobs: int) -> list[tuple[str, str | None, int | None, str | None]]:
        made = labelled_puzzles("generate", count=6, make_seed=3, guess_seed=4, jobs=jobs)
        return [
            (lab.candidate.puzzle.givens.to_line(), lab.level, lab.guesses, lab.canonical)
            for lab in made
        ]

    assert run(2) == run(1)


def test_levels_and_canonical_labels_are_checked(tmp_path: Path) -> None:
    build(tmp_path, count=12)
    labels = read_rows(tmp_path / "train.labels.csv")
    labels[1][3] = "expert" if labels[1][3] != "expert" else "easy"
    write_rows(tmp_path / "train.labels.csv", labels)
    rehash(tmp_path)
    assert check_dataset(tmp_path).ok  # the level is trusted unless asked for
    report = check_dataset(tmp_path, levels=True)
    assert report.reasons() == {"label-mismatch": 1}
    assert "level label" in report.problems[0].detail
    labels[2][5] = labels[2][5].replace(".", "1", 1)
    write_rows(tmp_path / "train.labels.csv", labels)
    rehash(tmp_path)
    assert "canonical label" in check_dataset(tmp_path).problems[0].detail


def test_a_manifest_names_nothing_outside_its_directory(tmp_path: Path) -> None:
    build(tmp_path, count=4)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    manifest["files"]["../elsewhere.csv"] = "0" * 64
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ParseError, match="must be a file name"):
        check_dataset(tmp_path)


def test_variant_puzzles_have_no_class_and_are_dropped() -> None:
    rules = RuleSet.build(Shape(2, 2), ["diagonal"])
    solution = get_backend("native").random_solution(rules, random.Random(1))
    assert solution is not None
    givens = [v if i not in (0, 5, 10) else 0 for i, v in enumerate(solution.values)]
    unique = Puzzle(Grid(Shape(2, 2), givens), rules)
    (lab,) = label_puzzles([Candidate(unique)], guess_seed=1, levels=False)
    assert lab.status == "canonical-unknown"
