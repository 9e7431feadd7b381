"""A corpus of bad puzzle inputs, written on demand (issue 13, "a bad-input corpus").

Each case mixes good puzzles (taken from the bundled collections) with one kind of damage,
and says what a reader must make of it: how many good puzzles must still be read, how many
malformed records are expected, and whether the whole file is refused with a
:class:`~sudoku_model.ParseError` instead. Readers and every CLI subcommand that reads
puzzles are driven through the same corpus.

The 10 MB line is generated here and never committed. Interface (stable; other test files
copy this module)::

    cases = write_bad_inputs(tmp_path)        # list[BadInput]
    for case in cases:
        case.path, case.what, case.good, case.bad, case.raises
"""

from __future__ import annotations

import gzip
import json
import random
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sudoku_model.data import bundled_path

__all__ = ["BadInput", "write_bad_inputs"]


@dataclass(frozen=True)
class BadInput:
    """One damaged input file.

    Attributes:
        name: a short identifier (use it as a pytest id).
        path: the file (or directory) written.
        what: what the damage is, in words.
        good: how many good puzzles the reader must still read from it.
        bad: how many malformed records it must yield (None: at least one, number not fixed).
        raises: True when the whole file must be refused with a ParseError (no records).
        options: reader options the case needs (for instance a format), usually none.
    """

    name: str
    path: Path
    what: str
    good: int
    bad: int | None
    raises: bool
    options: dict[str, Any] = field(default_factory=dict)


def _lines(name: str) -> list[str]:
    text = Path(bundled_path(name)).read_text(encoding="utf-8")
    return [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


def _solved() -> list[tuple[str, str]]:
    """(puzzle, solution) pairs: the unique puzzles of counts-43 carry their solution."""
    pairs = []
    for ln in _lines("counts-43"):
        parts = ln.split(":")
        if len(parts) == 3 and parts[1] == "1":
            pairs.append((parts[0], parts[2]))
    return pairs


def _sixteen() -> list[tuple[str, str]]:
    """16x16 (puzzle, solution) pairs in the 1-9A-G alphabet with ``0`` blanks.

    Made from a pattern solution of the 4x4-box grid with its symbols shuffled and half of
    the cells removed at random, so the corpus needs no data file outside the package.
    """
    symbols = "123456789ABCDEFG"
    rng = random.Random(16)
    out = []
    for _ in range(5):
        perm = list(range(16))
        rng.shuffle(perm)
        rows = []
        for r in range(16):
            rows.append("".join(symbols[perm[(4 * (r % 4) + r // 4 + c) % 16]] for c in range(16)))
        solution = "".join(rows)
        puzzle = "".join(ch if rng.random() < 0.5 else "0" for ch in solution)
        out.append((puzzle, solution))
    return out


def _to_zero_based(text: str) -> str:
    """1-9A-G with ``0`` blanks -> 0-F with ``.`` blanks."""
    default, zero = "123456789ABCDEFG", "0123456789ABCDEF"
    return "".join("." if ch == "0" else zero[default.index(ch)] for ch in text)


def write_bad_inputs(directory: str | Path) -> list[BadInput]:
    """Write every case into ``directory`` (created if needed) and return them."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    rng = random.Random(13)
    top = _lines("top95")
    good20 = top[:20]
    body20 = "".join(p + "\n" for p in good20)
    pairs = _solved()
    cases: list[BadInput] = []

    def add(
        name: str,
        data: bytes | str,
        what: str,
        good: int,
        bad: int | None,
        raises: bool = False,
        **options: Any,
    ) -> None:
        path = d / name
        if isinstance(data, str):
            data = data.encode("utf-8")
        path.write_bytes(data)
        cases.append(BadInput(name, path, what, good, bad, raises, dict(options)))

    add("empty.txt", b"", "an empty file", 0, 0, raises=True)
    directory_case = d / "a-directory.txt"
    directory_case.mkdir(exist_ok=True)
    cases.append(BadInput("a-directory.txt", directory_case, "a directory", 0, 0, True))
    add("binary.bin", bytes(rng.randrange(256) for _ in range(4096)), "random bytes", 0, 0, True)
    add(
        "nul-bytes.txt",
        body20[: 82 * 10] + "4....\x00\x00\x00..8.5\n" + body20[82 * 10 :],
        "a line with NUL bytes among good puzzles",
        20,
        1,
    )
    add(
        "invalid-utf8.txt",
        body20.encode() + b"4.....8.5\xff\xfe.3......\xe9\n" + body20.encode(),
        "a line with bytes that are not UTF-8",
        40,
        1,
    )
    add(
        "long-line.txt",
        body20 + "1" * 10_000_000 + "\n" + top[20] + "\n",
        "a 10 MB line between good puzzles",
        21,
        1,
    )
    whole = gzip.compress("".join(p + "\n" for p in top).encode(), 9)
    cut = whole[: len(whole) // 2]
    add(
        "truncated.txt.gz",
        cut,
        "a gzip file cut in half",
        _readable_before_cut(cut),
        None,
    )
    add("empty.txt.gz", gzip.compress(b""), "a gzip file of nothing", 0, 0, raises=True)
    add("gzip-no-suffix.dat", whole, "gzip bytes under a name without .gz", len(top), 0)
    add("crlf.txt", body20.replace("\n", "\r\n"), "CRLF line ends", 20, 0)
    add(
        "tabs.txt",
        "".join(f"\t{p}\t# tab {i}\n" if i % 2 else f"{p}\t{i}\n" for i, p in enumerate(good20)),
        "tabs before the cells and before comments",
        20,
        0,
    )
    add("bom.txt", "\ufeff" + body20, "a UTF-8 byte order mark", 20, 0)
    csv_rows = "".join(f"{p},{s}\n" for p, s in pairs[:10])
    add(
        "lone-cr.csv",
        "puzzle,solution\n" + csv_rows + pairs[10][0][:30] + "\r" + pairs[10][0][30:] + ",\n",
        "a lone carriage return inside a CSV field",
        10,
        2,
    )
    add("title-line.txt", "hard puzzles\n" + body20, "a title line before the puzzles", 20, 1)
    add(
        "truncated-first.txt",
        top[20][:40] + "\n" + body20,
        "a truncated first puzzle",
        20,
        1,
    )
    add(
        "brace-first.txt",
        "{hard ones, from the forum}\n" + body20,
        "a first line starting with { followed by line puzzles",
        20,
        1,
    )
    add(
        "decorated-first.txt",
        "+-------+-------+-------+\n" + body20,
        "a separator line (| + - and spaces only) before line puzzles",
        20,
        0,
    )
    add(
        "pipe-title.txt",
        "| hard + harder |\n" + body20,
        "a first line with | + and spaces that is not a puzzle",
        20,
        1,
    )
    add(
        "open-block.txt",
        "1 2 3\n" + "".join(p + "\n" for p in top[:50]),
        "a block that never closes (1 2 3) followed by line puzzles",
        50,
        1,
    )
    add(
        "zero-width-space.txt",
        body20 + top[20][:10] + "\u200b" + top[20][10:] + "\n",
        "a zero-width space inside a puzzle",
        20,
        1,
    )
    add(
        "grid-36x36.txt",
        body20 + "." * 1296 + "\n",
        "a 36x36 grid (too big)",
        20,
        1,
    )
    add(
        "binary-81.txt",
        bytes(rng.choice([b for b in range(256) if b not in (10, 13)]) for _ in range(81)),
        "81 random bytes",
        0,
        0,
        True,
    )
    jsonl = [json.dumps({"puzzle": p}) for p in good20[:10]]
    wrong = [
        {"puzzle": top[30], "variants": 5},
        {"puzzle": top[31], "variants": [7]},
        {"puzzle": top[32], "regions": [{}]},
    ]
    jsonl += [json.dumps(o) for o in wrong]
    jsonl.append(json.dumps({"puzzle": top[33], "size": float("inf")}))  # writes Infinity
    jsonl += [json.dumps({"puzzle": p}) for p in good20[10:]]
    add(
        "typed-fields.jsonl",
        "\n".join(jsonl) + "\n",
        'JSONL records with wrongly typed fields ("variants": 5, [7], "regions": [{}], '
        '"size": Infinity)',
        20,
        4,
    )
    sixteen = _sixteen()
    add(
        "sudoku-solution-16.csv",
        "Sudoku,solution\n" + "".join(f"{p},{s}\n" for p, s in sixteen),
        "CSV header Sudoku,solution (16x16, 1-9A-G, 0 blanks)",
        len(sixteen),
        0,
    )
    add(
        "question-answer.csv",
        "source,question,answer,rating\n"
        + "".join(f"bench,{p},{s},{i % 5}\n" for i, (p, s) in enumerate(pairs[:10])),
        "CSV header source,question,answer,rating",
        10,
        0,
    )
    add(
        "headerless-quiz.csv",
        "".join(f"{p.replace('.', '0')},{s}\n" for p, s in pairs[:10]),
        "headerless quiz,answer CSV (0 blanks)",
        10,
        0,
    )
    add(
        "id-puzzle.csv",
        "id,puzzle,solution,clues,difficulty\n"
        + "".join(
            f"{i},{p},{s},{81 - p.count('.')},{i / 10}\n" for i, (p, s) in enumerate(pairs[:10])
        ),
        "CSV header id,puzzle,solution,clues,difficulty",
        10,
        0,
    )
    add(
        "zero-f-16.txt",
        "".join(_to_zero_based(p) + "\n" for p, _ in sixteen),
        "16x16 in the 0-F alphabet with . blanks",
        len(sixteen),
        0,
    )
    # -- files as users have them, and the variant formats
    add(
        "p096.txt",
        "".join(f"Grid {k:02d}\n" + "".join(p[i : i + 9] + "\n" for i in range(0, 81, 9))
                for k, p in enumerate((q.replace(".", "0") for q in good20[:3]), 1)),
        "Project Euler's p096 layout: a Grid NN title line before each block",
        3,
        0,
    )  # fmt: skip
    add(
        "semicolon.csv",
        "puzzle;solution\n" + "".join(f"{p};{s}\n" for p, s in pairs[:10]),
        "CSV with ; between fields",
        10,
        0,
    )
    killer_header = ",ptitle,vol,book,puzzle,puzz_color,puzz_hint,solved,sOrder"
    killer_row = (
        "0,KD,1,1,1,KABBBCDDEEAAFBCGGHIJAFKLMMHIJNNKLOOPPJJJJQQPPPJRRSTUUPPJVWSTXXYZVVWabccYZV"
        'aaabddee,"11,25,14,9,12,15,4,14,6,40,3,15,9,8,12,38,11,15,13,6,4,17,7,13,10,6,26,4,'
        '15,11,12",18465279352679318473918456265327841994136582727894135689542763141283697536'
        "7519248,1"
    )
    add(
        "killer-bad-rows.csv",
        "\n".join(
            [
                killer_header,
                killer_row,
                killer_row + ",more,fields,than,the,header",
                killer_row.replace('"11,25', '"1x,25'),
                killer_row,
            ]
        )
        + "\n",
        "krazydad killer CSV: a row with more fields than the header (kept), one with a "
        "total that is no number",
        3,
        1,
    )
    link = "https://f-puzzles.com/?load="

    def fpuzzles(puzzle: str, **extra: Any) -> str:
        grid = [
            [{"value": int(ch), "given": True} if ch != "." else {} for ch in puzzle[r : r + 9]]
            for r in range(0, 81, 9)
        ]
        return link + quote(json.dumps({"size": 9, "grid": grid, **extra}))

    add(
        "fpuzzles-typed.txt",
        "\n".join(
            [
                fpuzzles(top[0]),
                fpuzzles(top[1], xv=["r1c1"]),
                fpuzzles(top[2]),
                fpuzzles(top[3], ratio=5),
                fpuzzles(top[4]),
            ]
        )
        + "\n",
        'f-puzzles links with a wrongly typed constraint ("xv": ["r1c1"], "ratio": 5)',
        3,
        2,
    )
    bomb = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [bomb.compress(body20[: 82 * 10].encode())]
    parts += [bomb.compress(b"0" * (1 << 20)) for _ in range(24)]
    parts += [bomb.compress(b"\n" + body20[82 * 10 :].encode()), bomb.flush()]
    add(
        "gzip-bomb.txt.gz",
        b"".join(parts),
        "a small gzip file that expands to a 24 MB line between good puzzles",
        20,
        1,
    )
    return cases


def _readable_before_cut(cut: bytes) -> int:
    """How many whole 9x9 puzzle lines a cut gzip stream still yields."""
    text = zlib.decompressobj(wbits=31).decompress(cut).decode("utf-8", "replace")
    return sum(1 for piece in text.split("\n") if len(piece) == 81)
