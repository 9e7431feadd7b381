"""SudokuPad links and payloads (``fpuzzles``, ``ctc``, ``scl``): what is read, what is
refused and why, on payloads made with the reference lz-string (tests/data/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_model import Puzzle
from sudoku_model.formats import iter_records
from sudoku_model.formats.sudokupad import (
    looks_like_sudokupad,
    payload_kind,
    puzzle_from_sudokupad,
    unzip_scl,
)
from sudoku_model.solving import get_backend

V = json.loads((Path(__file__).parents[1] / "data" / "sudokupad-vectors.json").read_text())
TOP95_1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _unique_solution(puzzle: Puzzle, backend: str = "native") -> str:
    verdict = get_backend(backend).check_unique(puzzle)
    assert verdict.kind.value == "unique"
    assert verdict.solution is not None
    return "".join(map(str, verdict.solution.values))


@pytest.mark.parametrize(
    "link",
    [
        "https://sudokupad.app/{p}",
        "https://sudokupad.app/?puzzleid={p}",
        "https://app.crackingthecryptic.com/sudoku/{p}",
        "{p}",
    ],
)
def test_a_classic_ctc_payload_reads_from_every_link_form(link: str) -> None:
    puzzle, solution = puzzle_from_sudokupad(link.format(p=V["classic_ctc"]))
    assert puzzle.is_classic and puzzle.to_line() == TOP95_1
    assert solution is not None
    assert _unique_solution(puzzle) == "".join(map(str, solution.values))


def test_the_uri_safe_alphabet_reads_the_same_puzzle() -> None:
    assert puzzle_from_sudokupad(V["classic_uri"]) == puzzle_from_sudokupad(V["classic_ctc"])


@pytest.mark.parametrize("backend", ["native", "pysat"])
def test_a_zipped_killer_is_unique_with_its_published_solution(backend: str) -> None:
    puzzle, solution = puzzle_from_sudokupad(V["killer_scl"])
    assert [r.name for r in puzzle.rules.rules][-1] == "killer"
    assert puzzle.clues == 0 and solution is not None
    assert _unique_solution(puzzle, backend) == V["killer_solution"]
    assert "".join(map(str, solution.values)) == V["killer_solution"]


def test_a_jigsaw_keeps_its_regions() -> None:
    puzzle, solution = puzzle_from_sudokupad(V["jigsaw_scl"])
    assert puzzle.rules.regions == (0, 0, 0, 1, 2, 0, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3)
    assert puzzle.to_line() == V["jigsaw_givens"]
    assert solution is not None
    assert _unique_solution(puzzle) == "".join(map(str, solution.values))


def test_unzip_restores_the_long_keys() -> None:
    data = unzip_scl(V["jigsaw_zipped"])
    assert set(data) == {"cells", "regions", "metadata"}
    assert data["cells"][2][3] == {"value": 2} and data["cells"][0][0] == {}
    assert len(data["regions"]) == 4 and data["regions"][0][0] == [0, 0]


def test_unzip_keeps_strings_and_colours() -> None:
    data = unzip_scl("{ca:[{v:'it\\'s: a, b:c',c1:#0,c2:FFAA00,r:t,x:f}]}")
    assert data == {
        "cages": [
            {
                "value": "it's: a, b:c",
                "borderColor": "#000000",
                "backgroundColor": "#FFAA00",
                "rounded": True,
                "x": False,
            }
        ]
    }


def test_an_fpuzzles_payload_goes_through_the_fpuzzles_reader() -> None:
    puzzle, _ = puzzle_from_sudokupad("https://sudokupad.app/" + V["fpuzzles"])
    assert puzzle.to_line() == "1..............1"
    assert [r.name for r in puzzle.rules.rules][-1] == "killer"


def test_drawn_elements_are_refused_and_listed() -> None:
    with pytest.raises(ValueError) as info:
        puzzle_from_sudokupad(V["drawn_ctc"])
    message = str(info.value)
    for part in ("2 lines", "1 arrows", "1 overlays"):
        assert part in message


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("https://sudokupad.app/abc12xyz", "short SudokuPad puzzle id"),
        ("https://sudokupad.app/scfAAAAAAAAAAAAAAAAAAAAA", "scf"),
        ("sclAAAAAAAAAAAAAAAAAAAAAAAAAA", "lz-string"),
    ],
)
def test_what_cannot_be_read_says_why(text: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        puzzle_from_sudokupad(text)


def test_a_file_of_links_is_inferred_and_bad_lines_cost_only_their_record(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ctc.txt"
    lines = [
        "https://sudokupad.app/" + V["classic_ctc"],
        "https://sudokupad.app/abc12xyz",
        "https://sudokupad.app/" + V["drawn_ctc"],
        "https://sudokupad.app/" + V["killer_scl"],
    ]
    path.write_text("\n".join(lines) + "\n")
    records = list(iter_records(path))
    assert [r.line for r in records] == [1, 2, 3, 4]
    assert [r.error is None for r in records] == [True, False, False, True]
    assert str(records[1].error).startswith(f"{path}:2:1")
    assert records[3].solution is not None


def test_detection() -> None:
    assert looks_like_sudokupad("https://sudokupad.app/" + V["classic_ctc"])
    assert looks_like_sudokupad(V["killer_scl"])
    assert not looks_like_sudokupad(TOP95_1)
    assert not looks_like_sudokupad("scl")
    assert payload_kind("https://sudokupad.app/?puzzleid=" + V["killer_scl"]) == "scl"
    assert payload_kind("https://sudokupad.app/abc12xyz") is None
