"""The bulk path of `sudoku verify`: plain classic 9x9 lines read and answered in C (as
columns) and written by the one serializer must give the very bytes of the general path
(only the measured ``seconds`` differ), whatever the lines around them; and it must really
be taken."""

from __future__ import annotations

import gzip
import re
import threading
from pathlib import Path

import pytest

import sudoku_model.verify as v
import sudoku_model.verify.bulk as vb
import sudoku_model.verify.text as vt
from sudoku_model import records
from sudoku_model.cli import main
from sudoku_model.data import bundled_path
from sudoku_model.errors import SearchInterrupted
from sudoku_model.geometry import Shape
from sudoku_model.solving import PLAIN_KINDS, Backend, VerdictKind, get_backend

SECONDS = re.compile(r'"seconds":[-+.e0-9]+,"stats":')


def seventeen(k: int) -> list[str]:
    with gzip.open(bundled_path("17-clue"), "rt", encoding="utf-8") as f:
        lines = [s.strip() for s in f if not s.startswith("#")]
    return lines[:k]


def run_verify(monkeypatch, args: list[str], *, bulk: bool) -> tuple[int, bytes, int]:
    """(exit code, output bytes with seconds blanked, chunks the bulk path answered)."""
    taken = [0]
    real = vb._bulk_chunk

    def spy(config, lines):
        chunk = real(config, lines)
        taken[0] += chunk is not None
        return chunk

    with monkeypatch.context() as m:
        m.setattr(vb, "_bulk_chunk", spy)
        if not bulk:
            m.setattr(vb, "_bulk_backend", lambda *a, **k: None)
        code = main(["verify", *args, "-q"])
    out = Path(args[args.index("-o") + 1]).read_bytes()
    return code, SECONDS.sub(b'"seconds":0,"stats":'.decode(), out.decode()).encode(), taken[0]


def same_both_ways(monkeypatch, tmp_path, inputs: list[str], *extra: str) -> tuple[bytes, int]:
    results = []
    for bulk in (True, False):
        out = str(tmp_path / f"out-{bulk}.jsonl")
        Path(out).unlink(missing_ok=True)  # a fresh output (verify never overwrites records)
        results.append(run_verify(monkeypatch, [*inputs, "-o", out, *extra], bulk=bulk))
    (code1, bytes1, taken1), (code2, bytes2, taken2) = results
    assert taken2 == 0
    assert code1 == code2
    assert bytes1 == bytes2
    return bytes1, taken1


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_17_clue_same_bytes_and_bulk_taken(monkeypatch, tmp_path, jobs):
    path = tmp_path / "17.txt"
    path.write_text("# a comment first\n" + "\n".join(seventeen(3000)) + "\n")
    out, taken = same_both_ways(monkeypatch, tmp_path, [str(path)], "--jobs", jobs)
    assert out.count(b"\n") == 3000 and out.count(b'"verdict":"unique"') == 3000
    assert taken == len([32, 64, 128, 256, 512, 512, 512, 512, 472])  # every chunk


def test_top95_same_bytes(monkeypatch, tmp_path):
    out, taken = same_both_ways(monkeypatch, tmp_path, [str(bundled_path("top95"))])
    assert out.count(b'"verdict":"unique"') == 95 and taken == 2  # chunks of 32 and 63


def test_multi_solution_list_same_bytes(monkeypatch, tmp_path):
    """One or two clues deleted from 17-clue puzzles: every one has 2+ solutions, records
    carry witnesses and differing cells; a node budget of 5 leaves some without
    witnesses (the second search ran out) and some unknown."""
    lines = []
    for k, p in enumerate(seventeen(700)):
        cells = [i for i, ch in enumerate(p) if ch != "."]
        drop = cells[k % 17 : k % 17 + 1 + k % 2]
        lines.append("".join("." if i in drop else ch for i, ch in enumerate(p)))
    path = tmp_path / "multi.txt"
    path.write_text("\n".join(lines) + "\n")
    out, taken = same_both_ways(monkeypatch, tmp_path, [str(path)])
    assert out.count(b'"verdict":"multiple"') == 700 and out.count(b"differing_cells") == 700
    assert taken == 5
    out, _ = same_both_ways(monkeypatch, tmp_path, [str(path)], "--budget-nodes", "5")
    assert b'"verdict":"unknown"' in out


def odd_file(tmp_path: Path) -> Path:
    """Malformed and odd lines, comments, blank lines, CRLF line ends, '0' blanks, clashes,
    an unsolvable puzzle: every kind of line the bulk path must hand back or get right."""
    good = seventeen(400)
    c43 = [ln.split(":") for ln in bundled_path("counts-43").read_text().splitlines()]
    unsolvable = next(p for p, c, *_ in c43 if c == "0")
    clash = "11" + good[0][2:]
    lines = ["# header comment", ""]
    for k, p in enumerate(good):
        lines.append(p)
        if k % 37 == 5:
            lines.append(p[:80])  # too short
        if k % 41 == 7:
            lines.append(p[:80] + "x")  # a bad symbol
        if k % 43 == 9:
            lines.append("# comment between puzzles")
        if k % 47 == 11:
            lines.append(p.replace(".", "0"))  # '0' blanks: plain too
        if k % 53 == 13:
            lines.append(clash)
        if k % 59 == 17:
            lines.append(unsolvable)
        if k % 61 == 19:
            lines.append("")
        if k % 67 == 23:
            lines.append(p + "1")  # 82 characters
    path = tmp_path / "odd.txt"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode())
    return path


def test_odd_lines_crlf_and_comments_same_bytes(monkeypatch, tmp_path):
    path = odd_file(tmp_path)
    out, taken = same_both_ways(monkeypatch, tmp_path, [str(path)])
    for word in ("malformed", "contradictory", "unsolvable", "unique"):
        assert f'"verdict":"{word}"'.encode() in out
    assert taken >= 1  # chunks with malformed lines among plain ones stay in bulk


def test_lines_that_are_puzzles_but_not_plain_fall_back(monkeypatch, tmp_path):
    """A puzzle with a comment (and its published solution), other blanks, leading
    spaces, a 4x4 puzzle: valid puzzles the C reader does not read, so their chunks take
    the general path; the chunks around them stay in bulk."""
    good = seventeen(200)
    c43 = [ln.split(":") for ln in bundled_path("counts-43").read_text().splitlines()]
    p, count, solution = next(x for x in c43 if x[1] == "1")
    lines = good[:40] + [
        f"{p}:{count}:{solution}",
        good[40] + "  # a comment",
        good[41].replace(".", "_"),
        "  " + good[42],
        "1.3..4.2.1.4..2.",
    ]
    lines += good[43:]
    path = tmp_path / "notplain.txt"
    path.write_text("\n".join(lines) + "\n")
    out, taken = same_both_ways(monkeypatch, tmp_path, [str(path)])
    assert b'"published_solution":"matches"' in out and b'"rules"' not in out[:0]
    assert taken == 2  # the chunks of 32 and 128 lines; the one of 64 falls back


def test_two_inputs_and_resume_same_bytes(monkeypatch, tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("\n".join(seventeen(300)[:150]) + "\n")
    b.write_text("\n".join(seventeen(300)[150:]) + "\n")
    out, _ = same_both_ways(monkeypatch, tmp_path, [str(a), str(b)])
    assert out.count(b'"input":1,') == 150
    # resume after 100 records: the first chunk of the rest starts mid-file (chunks are
    # counted from there, so the batch counters differ from the run in one go)
    full = out.splitlines(keepends=True)
    outputs = []
    for bulk in (True, False):
        path = tmp_path / f"resume-{bulk}.jsonl"
        path.write_bytes(b"".join(full[:100]))
        code, text, _ = run_verify(
            monkeypatch, [str(a), str(b), "-o", str(path), "--resume"], bulk=bulk
        )
        outputs.append((code, text))
    assert outputs[0] == outputs[1] and outputs[0][1].count(b"\n") == 300


def test_plain_kinds_match_the_c_codes():
    """The statuses the C reader gives, read through the primitive as the contract's."""
    native = get_backend("native")
    good = seventeen(1)[0]
    lines = [good, good[:80] + "x", "11" + good[2:], good.replace(good[-1], ".", 1)]
    answer = native.verify_plain_lines("\n".join(lines), len(lines))
    assert answer is not None and answer.size == 3 and answer.evidence_ok
    kinds = [PLAIN_KINDS[c] for c in answer.statuses]
    assert kinds[:3] == [VerdictKind.UNIQUE, None, VerdictKind.CONTRADICTORY]
    assert kinds[3] in (VerdictKind.MULTIPLE, VerdictKind.UNIQUE)
    assert answer.stats["nodes"] >= 1
    # a text that does not split into the lines announced is answered by nobody
    assert native.verify_plain_lines(good + "\n" + good, 1) is None
    assert native.verify_plain_lines(good, 2) is None
    assert len(answer.givens) == len(answer.solutions) == 81 * 4 == len(answer.witnesses) // 2
    assert answer.clues[0] == 81 - good.count(".") - good.count("0") and answer.clues[1] == 0
    assert bytes(answer.givens[:81]) == bytes(
        int(c) if c != "." else 0 for c in good.replace("0", ".")
    )
    with pytest.raises(ValueError):  # the lines that are not plain need their records
        records.verify_bulk_lines(
            source="x",
            input_index=0,
            lines=[1, 2, 3, 4],
            first_position=0,
            statuses=answer.statuses,
            layout=vb._LAYOUT,
            givens=answer.givens,
            clues=answer.clues,
            solutions=answer.solutions,
            witnesses=answer.witnesses,
            shape=Shape(3, 3),
            inserts=[None] * 4,
            backend="native",
            version="",
            options={},
            seconds=0.0,
            stats={},
        )


def test_other_backends_have_no_bulk_path():
    class Plain(Backend):
        name = "plain"

        def _search(self, puzzle, *, limit, budget):  # pragma: no cover - never asked
            raise AssertionError

    from sudoku_model.errors import NotSupported

    with pytest.raises(NotSupported):  # undeclared: the contract's typed refusal
        Plain().verify_plain_lines("", 0)
    assert not Plain.capabilities.bulk_verify
    native = get_backend("native")
    assert native.capabilities.bulk_verify
    slow = type(native)(fast=False)
    assert slow.verify_plain_lines("", 0) is None


def test_interrupted_bulk_call_records_nothing():
    """After interrupt() the call raises SearchInterrupted: no verdict for the chunk."""
    native = get_backend("native")
    text = "\n".join(seventeen(2000))
    native.interrupt()
    try:
        with pytest.raises(SearchInterrupted):
            native.verify_plain_lines(text, 2000)
    finally:
        native.clear_interrupt()
    done: list[object] = []
    worker = threading.Thread(target=lambda: done.append(native.verify_plain_lines(text, 2000)))
    worker.start()
    worker.join()
    assert done and done[0] is not None


@pytest.mark.parametrize(
    "config, fmt, certify",
    [
        (v.VerifyConfig("native", minimal=True), "jsonl", False),
        (v.VerifyConfig("native", canonical=True), "jsonl", False),
        (v.VerifyConfig("native", cross_check=("pysat",)), "jsonl", False),
        (v.VerifyConfig("native"), "jsonl", True),
        (v.VerifyConfig("native"), "csv", False),
        (v.VerifyConfig("pysat"), "jsonl", False),
    ],
    ids=["minimal", "canonical", "cross-check", "certify", "csv", "pysat"],
)
def test_options_the_bulk_path_does_not_cover_take_the_general_path(config, fmt, certify):
    assert vb._bulk_backend(v.VerifyConfig("native"), "jsonl") is not None
    assert vb._bulk_backend(config, fmt, (lambda _: None) if certify else None) is None
    assert not v.reads_raw_lines("serial", config, fmt, on_results=certify)


def test_worker_tasks_take_the_bulk_path_with_the_same_bytes(monkeypatch, tmp_path):
    """A task of a worker process or a Dask worker (unparsed lines of one plain reader) is
    answered in bulk too, with the bytes of the general path."""
    from sudoku_model.formats import iter_records

    path = odd_file(tmp_path)
    config = v.VerifyConfig(backend="native")
    cut = vt._TaskCut(config, "jsonl")
    for item in iter_records(str(path), raw=True):
        if item.__class__.__name__ == "RawLine":
            cut.add_line(0, item)
    task = cut.take()
    assert len(task.texts) > 5
    taken = []
    real = vb._bulk_chunk
    monkeypatch.setattr(vb, "_bulk_chunk", lambda c, lines: taken.append(1) or real(c, lines))
    bulk = vt._text_task(task)
    assert taken == [1]
    monkeypatch.setattr(vb, "_bulk_backend", lambda *a, **k: None)
    general = vt._text_task(task)
    assert taken == [1]
    assert SECONDS.sub("", bulk.text) == SECONDS.sub("", general.text)
    assert bulk.count == general.count == len(task.texts)
    assert bulk.summary.counts == general.summary.counts
    assert bulk.notes == general.notes
    for word in ("malformed", "contradictory", "unique"):
        assert f'"verdict":"{word}"' in bulk.text


# -- the chunked raw feed: plain lines read in blocks ------------------------------------------
def _expanded(items):
    from sudoku_model.formats import RawBlock

    out = []
    for item in items:
        out.extend(item.raw_lines() if type(item) is RawBlock else [item])
    return out


def _blocks_and_lines(src, **options):
    from sudoku_model.formats import RawBlock, iter_records

    blocks = list(iter_records(src, raw=True, blocks=True, **options))
    lines = list(iter_records(src, raw=True, **options))

    # a line too long to read is a malformed Record (errors compare by their text)
    def same(item):
        return (*item[:4], str(item.error)) if hasattr(item, "error") else item

    assert list(map(same, _expanded(blocks))) == list(map(same, lines))
    return [b for b in blocks if type(b) is RawBlock], lines


def test_blocks_give_the_lines_line_reading_gives(tmp_path):
    """Blocks carry the very lines, numbers and positions of one RawLine a line, whatever
    surrounds them: comments, blank and odd lines, CRLF ends, no line end at the end."""
    blocks, lines = _blocks_and_lines(str(odd_file(tmp_path)))
    assert blocks == []  # odd lines every few lines: no block of 512 plain lines
    good = seventeen(3000)
    text = "# c\n" + "\n".join(good[:1000]) + "\n\n# mid\n" + "\n".join(good[1000:])
    path = tmp_path / "plain.txt"
    path.write_text(text)  # no line end after the last line
    blocks, lines = _blocks_and_lines(str(path))
    assert len(lines) == 3000 and sum(b.nlines for b in blocks) >= 2000
    path.write_bytes(text.replace("\n", "\r\n").encode())
    assert _blocks_and_lines(str(path))[0] == blocks  # universal newlines: the same blocks
    # a caller's lines may hold a line end anywhere: never a block then
    joined = [good[k] + "\n" + good[k + 1] + "\n" for k in range(0, 1200, 2)]
    assert _blocks_and_lines(joined, fmt="line")[0] == []
    # another reader than the plain one: lines, not blocks
    assert _blocks_and_lines(str(path), variants=["diagonal"])[0] == []


def test_blocks_of_gzip_bom_cr_and_endless_lines(tmp_path):
    """Blocks read a gzip file, a byte order mark, CR line ends and a line of a megabyte
    without any line end (read in pieces, joined once) as line reading does."""
    import gzip

    good = seventeen(2000)
    text = "\ufeff" + "\n".join(good[:700]) + "\n" + "x" * 1_000_000 + "\n" + "\n".join(good[700:])
    gz = tmp_path / "p.txt.gz"
    gz.write_bytes(gzip.compress(text.encode()))
    blocks, lines = _blocks_and_lines(str(gz))
    assert len(lines) == 2001 and sum(b.nlines for b in blocks) >= 1400
    cr = tmp_path / "cr.txt"
    cr.write_bytes(text.replace("\n", "\r").encode())
    assert [b[1:] for b in _blocks_and_lines(str(cr))[0]] == [b[1:] for b in blocks]
    endless = tmp_path / "endless.txt"
    # 164 blank lines: 82 characters each pair, a line end every 82: no plain line
    endless.write_text("\n".join(good[:600]) + "\n" * 165 + "1" * 3_000_000)
    blocks, lines = _blocks_and_lines(str(endless))
    assert len(lines) == 601 and "a line of 3,000,000 characters" in str(lines[-1].error)


def test_block_chunks_have_the_sizes_of_chunks():
    from sudoku_model.executor import chunks
    from sudoku_model.formats import LineReader, RawBlock, RawLine
    from sudoku_model.gridtext import DEFAULT_ALPHABET

    reader = LineReader("x", None, DEFAULT_ALPHABET, ())
    good = seventeen(2000)
    items, position = [], 0
    for k, size in enumerate([1, 700, 3, 1, 512, 40, 1, 200]):
        if size == 1:
            items.append((k // 5, RawLine(reader, position + 1, good[position], position)))
        else:
            text = "\n".join(good[position : position + size])
            items.append((k // 5, RawBlock(reader, position + 1, text, size, position)))
        position += size
    got = list(vb._block_chunks(items, 256))
    want = list(chunks(_expanded(item for _, item in items), 256))
    assert [len(_expanded(item for _, item in c)) for c in got] == [len(c) for c in want]
    assert [_expanded(item for _, item in c) for c in got] == want
    assert [{i for i, _ in c} for c in got][-1] == {1}


def test_the_command_reads_blocks_where_it_can():
    config = v.VerifyConfig("native")
    assert v.reads_raw_blocks("serial", config, "jsonl")
    assert v.reads_raw_blocks("threads", config, "jsonl")
    assert v.reads_raw_blocks("processes", config, "jsonl")  # tasks carry blocks too
    assert v.reads_raw_blocks("dask", config, "jsonl")
    assert not v.reads_raw_blocks("serial", config, "csv")
    assert not v.reads_raw_blocks("serial", config, "jsonl", on_results=True)


def test_resume_inside_a_block_same_bytes(monkeypatch, tmp_path):
    """A resumed run whose first record to verify lies inside a block: the skipped lines
    are checked one by one, the rest of the block is verified, and the output is that of
    the general path."""
    path = tmp_path / "p.txt"
    path.write_text("\n".join(seventeen(1500)) + "\n")
    out, taken = same_both_ways(monkeypatch, tmp_path, [str(path)])
    assert taken == 6  # 32, 64, 128, 256, 512, 508
    full = out.splitlines(keepends=True)
    outputs = []
    for bulk in (True, False):
        resumed = tmp_path / f"resume-{bulk}.jsonl"
        resumed.write_bytes(b"".join(full[:700]))
        outputs.append(
            run_verify(monkeypatch, [str(path), "-o", str(resumed), "--resume"], bulk=bulk)[:2]
        )
    assert outputs[0] == outputs[1] and outputs[0][1].count(b"\n") == 1500


def test_non_ascii_names_and_lines_same_bytes(monkeypatch, tmp_path):
    """bulk9_records copies an all-ASCII chunk into its str and decodes any other: a file
    name and malformed lines beyond ASCII keep the bytes of the general path."""
    good = seventeen(700)
    lines = good[:300] + [good[300][:80] + "é", "ü" * 81] + good[300:]
    path = tmp_path / "grüße-数独.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, taken = same_both_ways(monkeypatch, tmp_path, [str(path)])
    assert taken == 5 and "grüße-数独".encode() in out and "é".encode() in out
    plain = tmp_path / "plain.txt"
    plain.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, taken = same_both_ways(monkeypatch, tmp_path, [str(plain)])
    assert taken == 5 and "é".encode() in out


@pytest.mark.parametrize("fixed", [None, 7, 100])
def test_worker_tasks_cut_from_blocks_equal_tasks_cut_from_lines(tmp_path, fixed):
    """Tasks for worker processes and Dask made from blocks hold the lines, numbers,
    positions and bytes that tasks made line by line hold, cut at the same places, and
    give the same records (blocks split across tasks, lines that are not plain between)."""
    from sudoku_model.formats import iter_records

    lines = seventeen(700)
    lines[300:300] = ["# a comment", "", "not a puzzle", lines[5] + " # commented"]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    config = v.VerifyConfig(backend="native")

    def tasks(blocks: bool) -> list:
        items = ((0, r) for r in iter_records(str(path), raw=True, blocks=blocks))
        return list(vt._text_tasks(items, config, "jsonl", vt._TaskSizer("dask", fixed)))

    by_block, by_line = tasks(True), tasks(False)
    assert any(t.sizes for t in by_block)  # blocks were really carried
    assert len(by_block) == len(by_line) > 3
    for a, b in zip(by_block, by_line):
        assert (a.reader is None) == (b.reader is None)
        assert (a.input, a.first, a.lines, a.nbytes) == (b.input, b.first, b.lines, b.nbytes)
        assert a.line_texts() == b.line_texts() and len(a.records) == len(b.records)
    for a, b in list(zip(by_block, by_line))[::3]:
        ca, cb = vt._text_task(a), vt._text_task(b)
        assert SECONDS.sub("", ca.text) == SECONDS.sub("", cb.text)
        assert ca.count == cb.count and ca.notes == cb.notes
