"""Readers against bad and unusual input (issue 13, items 2, 7-11, 15, 21, 23, 27)."""

from __future__ import annotations

import gzip
import io
import json
import sys
import time
from pathlib import Path

import pytest

from sudoku_model import DEFAULT_ALPHABET, ZERO_BASED_ALPHABET, ParseError, formats
from sudoku_model.data import bundled_path
from sudoku_model.grid import ALPHABETS, LETTER_ALPHABET

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bad_inputs import BadInput, write_bad_inputs  # noqa: E402

TOP = [ln for ln in Path(bundled_path("top95")).read_text().splitlines() if ln.strip()]
P = TOP[0]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[BadInput]:
    return write_bad_inputs(tmp_path_factory.mktemp("bad"))


def test_corpus_every_good_puzzle_read_every_error_located(corpus: list[BadInput]) -> None:
    for case in corpus:
        if case.raises:
            with pytest.raises(ParseError) as info:
                list(formats.iter_records(case.path, **case.options))
            err = info.value
            assert err.source == str(case.path) and err.line >= 1 and err.column >= 1, case.name
            continue
        records = list(formats.iter_records(case.path, **case.options))
        good = [r for r in records if r.ok]
        bad = [r for r in records if not r.ok]
        assert len(good) == case.good, (case.name, [str(r.error) for r in bad])
        if case.bad is None:
            assert bad, case.name
        else:
            assert len(bad) == case.bad, (case.name, [str(r.error) for r in bad])
        for r in bad:
            assert r.error is not None
            assert r.error.source == str(case.path), case.name
            assert r.error.line >= 1 and r.error.column >= 1, (case.name, str(r.error))
            assert len(r.text) < 1000 and len(str(r.error)) < 1000, case.name
        positions = [r.position for r in records]
        assert positions == list(range(len(records))), case.name


def _error_of(corpus: list[BadInput], name: str) -> ParseError:
    (case,) = [c for c in corpus if c.name == name]
    (bad,) = [r for r in formats.iter_records(case.path) if not r.ok]
    assert bad.error is not None
    return bad.error


def test_messages_name_the_problem(corpus: list[BadInput]) -> None:
    err = _error_of(corpus, "grid-36x36.txt")
    assert "36x36" in err.message and "25" in err.message
    err = _error_of(corpus, "zero-width-space.txt")
    assert "U+200B" in err.message and "ZERO WIDTH SPACE" in err.message and err.column == 11
    assert "binary" in _error_of(corpus, "nul-bytes.txt").message
    assert "UTF-8" in _error_of(corpus, "invalid-utf8.txt").message
    err = _error_of(corpus, "long-line.txt")
    assert len(err.text) <= 210 and "10,000,000" in err.message
    with pytest.raises(ParseError, match="binary"):
        list(formats.iter_records([c for c in corpus if c.name == "binary-81.txt"][0].path))
    # a title line before puzzles
    err = _error_of(corpus, "title-line.txt")
    assert "'hard' reads as 4 cells, not a grid (a title or a word?)" in err.message
    assert (err.line, err.column) == (1, 5)


def test_a_lone_line_of_words_is_no_grid(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("this is not a puzzle\n")
    (record,) = formats.iter_records(path)
    err = record.error
    assert err is not None
    assert "a line of 16 cells with no block rows after it is not a grid" in err.message
    assert (err.line, err.column) == (1, 1)


def test_truncated_gzip_reports_after_every_readable_record(corpus: list[BadInput]) -> None:
    (case,) = [c for c in corpus if c.name == "truncated.txt.gz"]
    records = list(formats.iter_records(case.path))
    last = records[-1]
    assert last.error is not None and "truncated" in last.error.message
    assert [r.puzzle.givens.to_line() for r in records if r.ok] == TOP[: case.good]


def test_gzip_by_magic_and_bom(tmp_path: Path) -> None:
    path = tmp_path / "plain-name.txt"
    path.write_bytes(gzip.compress(("\ufeff" + P + "\n").encode()))
    (rec,) = formats.iter_records(path)
    assert rec.ok and rec.puzzle.givens.to_line() == P
    multi = tmp_path / "two-members.gz"
    multi.write_bytes(gzip.compress(f"{P}\n".encode()) + gzip.compress(f"{TOP[1]}\n".encode()))
    assert [r.ok for r in formats.iter_records(multi)] == [True, True]


# -- item 2: alphabets --------------------------------------------------------------------
def test_zero_based_sixteen_is_inferred_and_read_right(corpus: list[BadInput]) -> None:
    zero = [c for c in corpus if c.name == "zero-f-16.txt"][0]
    default = [c for c in corpus if c.name == "sudoku-solution-16.csv"][0]
    want = [r.puzzle.givens for r in formats.iter_records(default.path)]
    got = list(formats.iter_records(zero.path))
    assert [r.puzzle.givens for r in got] == want
    assert all(r.alphabet is ZERO_BASED_ALPHABET for r in got)
    assert all(r.alphabet is DEFAULT_ALPHABET for r in formats.iter_records(default.path))
    # the default alphabet given explicitly: refused, naming the option, never guessed
    with pytest.raises(ParseError, match="--alphabet 0-F"):
        list(formats.iter_records(zero.path, alphabet=DEFAULT_ALPHABET))
    # given explicitly, the 0-F alphabet is used as told
    assert [
        r.puzzle.givens for r in formats.iter_records(zero.path, alphabet=ALPHABETS["0-F"])
    ] == want


def test_letter_alphabets() -> None:
    assert ALPHABETS["A-P"] is LETTER_ALPHABET and ALPHABETS["A-Y"] is LETTER_ALPHABET
    letters = "ABCDEFGHIJKLMNOP"
    rows = ["".join(letters[(4 * (r % 4) + r // 4 + c) % 16] for c in range(16)) for r in range(16)]
    line = "".join(rows)
    line = "." + line[1:]
    (rec,) = formats.iter_records([line])
    assert rec.ok and rec.alphabet is LETTER_ALPHABET
    assert (
        rec.puzzle.givens.values[1] == 2
        and rec.puzzle.givens.to_line(alphabet=rec.alphabet) == line
    )
    with pytest.raises(ParseError, match="--alphabet A-P"):
        list(formats.iter_records([line], alphabet=DEFAULT_ALPHABET))
    big = "".join(
        "ABCDEFGHIJKLMNOPQRSTUVWXY"[(5 * (r % 5) + r // 5 + c) % 25]
        for r in range(25)
        for c in range(25)
    )
    (rec,) = formats.iter_records([big])
    assert rec.ok and rec.alphabet is LETTER_ALPHABET and rec.puzzle.givens.values[0] == 1


# -- items 7, 8: format per file, positions -----------------------------------------------
def test_one_odd_first_line_does_not_decide_the_format() -> None:
    for first in ("hard puzzles", P[:40], "{hard}", "| a + b |", "1 2 3", "4 . . 8"):
        records = list(formats.iter_records([first] + TOP[:10]))
        assert [r.ok for r in records] == [False] + [True] * 10, first
    # a pretty-printed JSON object is still JSON, a block file still blocks
    doc = json.dumps({"puzzle": P, "variants": ["diagonal"]}, indent=2)
    (rec,) = formats.iter_records(io.StringIO(doc))
    assert rec.ok and "diagonal" in rec.puzzle.rules.variants
    block = formats.format_block(formats.parse_line(P)[0])
    recs = list(formats.iter_records(io.StringIO("title\n" + block + "\n\n" + block)))
    assert [r.ok for r in recs][-2:] == [True, True]


def test_json_array_records_have_distinct_lines_and_positions() -> None:
    doc = json.dumps([P, {"puzzle": TOP[1]}, TOP[2]], indent=1)
    recs = list(formats.iter_records(io.StringIO(doc), source="a.json"))
    assert [r.position for r in recs] == [0, 1, 2]
    assert [r.line for r in recs] == [2, 3, 6]


# -- items 9, 15: typed fields, nothing but ParseError -------------------------------------
@pytest.mark.parametrize(
    ("obj", "field"),
    [
        ({"puzzle": P, "variants": 5}, "variants"),
        ({"puzzle": P, "variants": [7]}, "variants"),
        ({"puzzle": P, "regions": [{}]}, "regions"),
        ({"puzzle": P, "size": float("inf")}, "size"),
        ({"puzzle": P, "size": True}, "size"),
        ({"puzzle": P, "box": ["3", 3]}, "box"),
        ({"puzzle": [1, 2]}, "puzzle"),
        ({"puzzle": [[None] * 9] * 9}, "puzzle"),
        ({"puzzle": P, "solution": 5}, "solution"),
    ],
)
def test_wrongly_typed_json_field_is_named(obj: dict, field: str) -> None:
    with pytest.raises(ParseError, match=f'"{field}"'):
        formats.puzzle_from_json(obj)
    line = json.dumps(obj)
    recs = list(formats.iter_records(io.StringIO(f"{line}\n{json.dumps(P)}\n"), source="x.jsonl"))
    assert [r.ok for r in recs] == [False, True]


def test_only_parse_error_escapes_the_known_crashes() -> None:
    with pytest.raises(ParseError):
        list(formats.iter_records(["+"]))
    recs = list(formats.iter_records(["------+------", P]))
    assert [r.ok for r in recs] == [True]
    (rec,) = formats.iter_records(["puzzle,solution", "a\rb,c"])
    assert rec.error is not None and rec.error.line == 2
    with pytest.raises(ParseError):
        formats.read_puzzle("puzzle,solu")
    with pytest.raises(ParseError, match="cannot read"):
        list(formats.iter_records(io.TextIOWrapper(io.BytesIO(P.encode() + b"\n\xff\n"))))


# -- item 11 -------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["auto", "block"])
def test_a_block_that_never_closes_is_read_in_linear_time(fmt: str) -> None:
    lines = ["1 2 3"] + [P] * 10_000
    start = time.perf_counter()
    recs = list(formats.iter_records(lines, fmt=fmt))
    assert time.perf_counter() - start < 5.0
    assert sum(r.ok for r in recs) == 10_000 and len(recs) == 10_001


# -- item 23 -------------------------------------------------------------------------------
def test_csv_headers_from_the_wild_keep_extra_columns(corpus: list[BadInput]) -> None:
    by_name = {c.name: c for c in corpus}
    recs = list(formats.iter_records(by_name["question-answer.csv"].path))
    assert all(r.ok and r.solution is not None for r in recs)
    assert recs[3].extra == {"source": "bench", "rating": "3"}
    recs = list(formats.iter_records(by_name["id-puzzle.csv"].path))
    assert recs[2].extra is not None and recs[2].extra["id"] == "2"
    assert set(recs[2].extra) == {"id", "clues", "difficulty"}
    recs = list(formats.iter_records(by_name["headerless-quiz.csv"].path))
    assert len(recs) == 10 and all(r.solution is not None and r.extra is None for r in recs)
    recs = list(formats.iter_records(io.StringIO(f"QUIZZES,Solutions\n{P},\n"), source="k.csv"))
    assert recs[0].ok and recs[0].solution is None


def test_records_remember_their_alphabet_across_pickling(corpus: list[BadInput]) -> None:
    import pickle

    zero = [c for c in corpus if c.name == "zero-f-16.txt"][0]
    rec = next(formats.iter_records(zero.path))
    back = pickle.loads(pickle.dumps(rec))
    assert back.alphabet is ZERO_BASED_ALPHABET and back.puzzle == rec.puzzle
    assert back.puzzle.givens.to_line(alphabet=back.alphabet) == rec.text


def test_a_count_and_solution_comment_is_a_published_solution() -> None:
    # tdoku's test lists write `puzzle:count:solution`; the solution is the record's
    records = list(formats.iter_records(bundled_path("counts-43")))
    published = [r for r in records if r.solution is not None]
    assert len(published) == 18 and all(r.puzzle.is_solution(r.solution) for r in published)
    p, _, rest = records[0].text.partition(":")
    count, _, grid = rest.partition(":")
    wrong = grid[1] + grid[0] + grid[2:]  # two cells swapped: a full grid, not the solution
    (rec,) = formats.iter_records([f"{p}:{count}:{wrong}"], source="t")
    assert rec.solution is not None and not rec.puzzle.is_solution(rec.solution)
    (rec,) = formats.iter_records([f"{p}:{count}:{grid[:40]}"], source="t")  # not a grid: a comment
    assert rec.solution is None and rec.comment == f"{count}:{grid[:40]}"
