"""Benchmark of the editor's live count: server-side time from a keystroke to the updated
count, replaying the typing of puzzles clue by clue.

    python tests/benchmarks/bench_editor.py                        # 9x9 and 16x16
    python tests/benchmarks/bench_editor.py --sizes 9 --count 100 --http
    python tests/benchmarks/bench_editor.py --sizes 16 --mode solve

Targets: p95 <= 50 ms on 9x9, <= 200 ms on 16x16.

Each keystroke is one ``status`` request, as the page sends it after every change: the
puzzle as it stands, a client id and a growing sequence number (so a request supersedes the
one before, as on the page; here they run one after the other). ``--mode set`` types the
clues of each puzzle one by one, in reading order (a setter entering a puzzle: the count
goes from "at least 2" to 1 at the last clue); ``--mode solve`` starts from the givens and
types the solution's digits into the empty cells (a solver at work). 9x9 puzzles are the
first of the bundled 17-clue list (the hardest case for a count: few clues), 16x16 ones
minimal puzzles made by the generator from a fixed seed. Times are the request's own
(``EditorService.handle``: validation, clash check, count under its budget, reply),
measured as wall time and as process CPU time (the solver may run in a helper thread;
prefer CPU on a shared machine); ``--http`` adds the loopback HTTP round trip of a real
server (wall time only).
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import time
from collections.abc import Iterator

from sudoku_model import Grid, Puzzle, RuleSet, get_backend, shape_for_size
from sudoku_model.data import resolve_input
from sudoku_model.editor import EditorServer, EditorService, encode_puzzle
from sudoku_model.formats import iter_records
from sudoku_model.generate import GenerationSpec, engine_for, generate_one, puzzle_seed

TARGETS_MS = {9: 50.0, 16: 200.0}
DEFAULT_COUNTS = {4: 100, 6: 100, 9: 100, 16: 5, 25: 1}


def puzzles(size: int, count: int, seed: int) -> list[tuple[Puzzle, Grid]]:
    """(puzzle, solution) pairs to type."""
    native = get_backend("native")
    if size == 9:
        out = []
        for rec in iter_records(resolve_input("bundled:17-clue")[0]):
            if rec.puzzle is None:
                continue
            solution = native.solve(rec.puzzle).solution
            assert solution is not None
            out.append((rec.puzzle, solution))
            if len(out) == count:
                break
        return out
    spec = GenerationSpec(RuleSet.classic(shape_for_size(size)))
    engine = engine_for(native)
    made = [generate_one(spec, engine, seed=puzzle_seed(seed, i), index=i) for i in range(count)]
    return [(m.puzzle, m.solution) for m in made]


def keystrokes(puzzle: Puzzle, solution: Grid, mode: str) -> Iterator[dict[str, object]]:
    """The wire puzzle after each keystroke."""
    base = encode_puzzle(puzzle)
    if mode == "set":
        givens = [0] * len(base["givens"])
        for cell, digit in enumerate(puzzle.givens.values):
            if digit:
                givens[cell] = digit
                yield {**base, "givens": list(givens), "values": list(givens)}
        return
    values = list(puzzle.givens.values)
    for cell in puzzle.givens.empty_cells():
        values[cell] = solution.values[cell]
        yield {**base, "values": list(values)}


def percentile(data: list[float], q: float) -> float:
    ordered = sorted(data)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="9,16", help="comma list of grid sizes (default 9,16)")
    parser.add_argument("--count", type=int, help="puzzles per size (default: 100 9x9, 5 16x16)")
    parser.add_argument("--mode", choices=["set", "solve"], default="set")
    parser.add_argument("--seed", type=int, default=2024, help="generator seed (not 9x9)")
    parser.add_argument("--http", action="store_true", help="through a loopback HTTP server")
    args = parser.parse_args()
    service = EditorService()
    server = EditorServer(service).start() if args.http else None
    conn = None
    if server is not None:
        conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=600)
    seq = 0
    try:
        for size in [int(s) for s in args.sizes.split(",")]:
            count = args.count or DEFAULT_COUNTS.get(size, 5)
            pairs = puzzles(size, count, args.seed)
            service.handle("status", {"puzzle": encode_puzzle(pairs[0][0])})  # warm-up
            wall: list[float] = []
            cpu: list[float] = []
            unknown = 0
            for puzzle, solution in pairs:
                for state in keystrokes(puzzle, solution, args.mode):
                    seq += 1
                    payload = {"puzzle": state, "client": "bench", "seq": seq}
                    start, start_cpu = time.perf_counter(), time.process_time()
                    if conn is not None:
                        conn.request(
                            "POST",
                            "/api/status",
                            json.dumps(payload),
                            {"Content-Type": "application/json"},
                        )
                        response = conn.getresponse()
                        reply = json.loads(response.read())
                        status = response.status
                    else:
                        answer = service.handle("status", payload)
                        reply, status = answer.json or {}, answer.status
                    wall.append(time.perf_counter() - start)
                    cpu.append(time.process_time() - start_cpu)
                    assert status == 200, reply
                    unknown += reply.get("verdict") == "unknown"
            ms = [w * 1000 for w in wall]
            line = (
                f"{size}x{size} {args.mode}: {len(pairs)} puzzles, {len(ms)} keystrokes; "
                f"wall p50 {percentile(ms, 0.5):.2f} ms, p95 {percentile(ms, 0.95):.2f} ms, "
                f"max {max(ms):.1f} ms, mean {statistics.fmean(ms):.2f} ms"
            )
            if conn is None:
                cms = [c * 1000 for c in cpu]
                line += (
                    f"; CPU p50 {percentile(cms, 0.5):.2f} ms, p95 {percentile(cms, 0.95):.2f} ms"
                )
            target = TARGETS_MS.get(size)
            if target is not None:
                line += f"; target p95 <= {target:g} ms"
            if unknown:
                line += f"; {unknown} answered unknown (budget)"
            print(line, flush=True)
    finally:
        if conn is not None:
            conn.close()
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
