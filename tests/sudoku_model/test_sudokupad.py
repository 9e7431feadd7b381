"""SudokuPad links and payloads (``fpuzzles``, ``ctc``, ``scl``, ``scf``): what is read,
what is refused and why, on payloads made with the reference lz-string (tests/data/README.md)
and, for ``scf``, on SudokuPad's own blank-grid payload, hand-decoded payloads and payloads
made by an encoder written here from the format's statement (an oracle, not the reader)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sudoku_model import Puzzle
from sudoku_model.cli import main
from sudoku_model.formats import iter_records
from sudoku_model.formats.iss import puzzle_from_iss
from sudoku_model.formats.sudokupad import (
    decode_scf,
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
    assert payload_kind("https://sudokupad.app/scf?puzzleid=" + V["killer_scl"]) == "scl"
    assert looks_like_sudokupad(SCF_BLANK) and payload_kind(SCF_BLANK) == "scf"
    assert looks_like_sudokupad(SCF_BLANK + "*tA title with spaces")
    assert not looks_like_sudokupad("scf ooooooooooooooK")


# -- scf: SudokuPad's legacy compact text ---------------------------------------------------
#: SudokuPad's own blank grid, the puzzle its tools fall back on (SudokuPad/sudokuscanner,
#: src/www/js/tools.js: ``PuzzleTools.decodeSCF('scfoooooooooooooK')``): 13 x "o" (a blank
#: and five more) and "K" (a blank and two more) are 81 blanks.
SCF_BLANK = "scfoooooooooooooK"
ISS = {
    e["name"]: e
    for e in json.loads((Path(__file__).parents[1] / "data" / "iss-examples.json").read_text())
}


def _scf_oracle(givens: str) -> str:
    """The scf text of 81 givens (``.`` or ``0`` blank), written from the format's
    statement: each given (0 for a blank) takes up to five blanks after it, and the
    character at ``digit + 10 * blanks`` of ``0-9A-Za-x`` stands for the run."""
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwx"
    cells = [0 if ch in ".0" else int(ch) for ch in givens]
    assert len(cells) == 81
    out, i = [], 0
    while i < 81:
        digit, blanks = cells[i], 0
        i += 1
        while i < 81 and cells[i] == 0 and blanks < 5:
            blanks, i = blanks + 1, i + 1
        out.append(alphabet[digit + 10 * blanks])
    return "".join(out)


def _iss_givens(name: str) -> str:
    return puzzle_from_iss(ISS[name]["input"]).to_line()


@pytest.mark.parametrize(
    "link",
    [
        "https://sudokupad.app/{p}",
        "https://sudokupad.app/scf?puzzleid={p}",
        "https://app.crackingthecryptic.com/sudoku/{p}",
        "{p}",
    ],
)
def test_sudokupads_blank_scf_grid_is_81_blanks(link: str) -> None:
    puzzle, solution = puzzle_from_sudokupad(link.format(p=SCF_BLANK))
    assert puzzle.to_line() == "." * 81 and puzzle.is_classic and solution is None


def test_a_hand_decoded_scf_payload() -> None:
    # s = 54: a 4 and five blanks; I = 18: an 8 and one blank; F = 15: a 5 and one blank;
    # r = 53: a 3 and five blanks; e = 40: a blank and four more; v = 57: a 7 and five
    # blanks; 0: one blank... (top95's first puzzle), checked against the oracle too.
    payload = "scfsIFrev0quIs0pAGDHPqBs0"
    puzzle, _ = puzzle_from_sudokupad(payload)
    assert puzzle.to_line() == TOP95_1
    assert payload == "scf" + _scf_oracle(TOP95_1)
    assert decode_scf(payload)[0][:12] == "400000805030"


def test_scf_reads_what_the_oracle_writes() -> None:
    for line in (TOP95_1, _iss_givens("Classic sudoku"), "123456789" * 9, "." * 80 + "9"):
        puzzle, _ = puzzle_from_sudokupad("scf" + _scf_oracle(line))
        assert puzzle.to_line() == line.replace("0", ".")


@pytest.mark.parametrize("backend", ["native", "pysat"])
@pytest.mark.parametrize(
    "name, letters, variants",
    [("Sudoku X", "x", ("diagonal",)), ("X-Windoku", "wx", ("diagonal", "windoku"))],
)
def test_x_and_windoku_letters_give_the_published_solutions(
    name: str, letters: str, variants: tuple[str, ...], backend: str
) -> None:
    body = _scf_oracle(_iss_givens(name))
    same = [
        f"scf{body}*{letters}",
        f"scf{body}{letters}",  # the older form: the letters follow the 81st cell
        f"scf{body}*{letters[::-1]}tX**Y: a title*aAn author",
        f"scf{body}*{letters}*aAn author",  # SudokuPad's encoder: a star before the author
        f"https://sudokupad.app/scf{body}*t%2A%2A*{letters}",  # a title of one escaped star
    ]
    puzzles = [puzzle_from_sudokupad(text)[0] for text in same]
    assert tuple(puzzles[0].rules.variants) == variants
    assert all(p == puzzles[0] for p in puzzles)
    assert puzzles[0] == puzzle_from_iss(ISS[name]["input"])
    assert _unique_solution(puzzles[0], backend) == ISS[name]["solution"]


def test_a_title_and_author_without_letters_leave_a_classic() -> None:
    for text in (SCF_BLANK + "**aAn author", SCF_BLANK + "*tA title*aAn author"):
        puzzle, _ = puzzle_from_sudokupad(text)
        assert puzzle.is_classic and puzzle.to_line() == "." * 81


def test_the_windoku_letter_adds_the_four_windows() -> None:
    puzzle, _ = puzzle_from_sudokupad(SCF_BLANK + "*w")
    windows = next(r for r in puzzle.rules.rules if r.name == "windoku")
    assert [sorted(u) for u in windows.units] == [
        [r * 9 + c for r in rows for c in cols]
        for rows in ((1, 2, 3), (5, 6, 7))
        for cols in ((1, 2, 3), (5, 6, 7))
    ]


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("scfoooo", "fill 24 cells, not 81"),
        ("scf*x", "fill 0 cells, not 81"),
        ("scf:oooooooooooooK", "character 1 (':') is not in 0-9A-Za-z"),
        ("scfoooooooooooooKK*x", "run past the 81st cell"),
        ("scfoooooooooooooK*wqk", "letters 'q', 'k'"),
        ("scfoooooooooooooKv", "letter 'v' (it reads w"),
    ],
)
def test_a_malformed_scf_payload_says_why(text: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=re.escape(fragment)):
        puzzle_from_sudokupad(text)


def _scf_file(tmp_path: Path) -> Path:
    path = tmp_path / "scf.txt"
    lines = [
        "https://sudokupad.app/scf" + _scf_oracle(_iss_givens("Sudoku X")) + "*x",
        "scfoooo",
        "scf" + _scf_oracle(_iss_givens("X-Windoku")) + "*wx",
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_file_of_scf_lines_costs_a_bad_line_only_its_record(tmp_path: Path) -> None:
    path = _scf_file(tmp_path)
    records = list(iter_records(path))
    assert [r.error is None for r in records] == [True, False, True]
    assert str(records[1].error).startswith(f"{path}:2:1") and "not 81" in str(records[1].error)


def test_verify_and_show_read_a_file_of_scf_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _scf_file(tmp_path)
    path.write_text("\n".join(ln for ln in path.read_text().splitlines() if ln != "scfoooo"))
    out = tmp_path / "verdicts.jsonl"
    assert main(["verify", str(path), "-o", str(out)]) == 0
    verdicts = [json.loads(line) for line in out.read_text().splitlines()]
    assert [v["verdict"] for v in verdicts] == ["unique", "unique"]
    capsys.readouterr()
    assert main(["show", str(path)]) == 0
    shown = capsys.readouterr().out
    assert "diagonal" in shown and "windoku" in shown
    bad = _scf_file(tmp_path)
    assert main(["verify", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:2:1" in err and "Traceback" not in err
