"""``sudoku generate``: unique (and by default minimal) puzzles of any shape and variant.

Examples::

    sudoku generate --count 10 --seed 1                 # ten minimal 9x9 puzzles
    sudoku generate --size 16 --symmetry rot180         # a symmetric 16x16 puzzle
    sudoku generate --clues 22 --count 5 --jobs 2       # stop at 22 clues
    sudoku generate --pattern heart.txt --solutions     # givens exactly on a mask
    sudoku generate --from "1...........2..."           # complete my partial grid
    sudoku generate --variant diagonal --to jsonl
    sudoku generate --level hard --count 5              # graded by the logical solver
    sudoku generate --level expert,extreme --jobs 2     # either level
    sudoku generate --variant killer --to json          # a killer: cages, no givens
    sudoku generate --variant renban --seed 1           # renban lines (also whisper,
                                                        # palindrome, kropki-negative)
    sudoku generate --pencilmark --count 5 --seed 1     # minimal pencilmark puzzles

Each puzzle is reported with its clue count and whether it is minimal (a comment in the
line and block formats, columns in CSV, fields in JSON), and with ``--level`` its level,
score and hardest technique; ``--plain`` writes the bare puzzles. A batch ends with a
clue-count histogram on stderr (and a level histogram with ``--level``).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import IO, Any

from ..solving import DEFAULT_BACKEND
from .common import (
    EXIT_NO,
    EXIT_OK,
    CliError,
    add_budget_options,
    add_input_options,
    budget_from,
    is_terminal,
    iter_inputs,
    open_output,
    refuse_output_over_inputs,
)

FORMATS = ("line", "block", "csv", "json", "jsonl")
SYMMETRY_NAMES = (
    "none",
    "rot180",
    "rot90",
    "mirror",
    "flip",
    "diagonal",
    "antidiagonal",
    "biaxial",
    "bidiagonal",
    "dihedral",
)
LEVEL_NAMES = ("easy", "medium", "hard", "expert", "extreme")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "generate",
        help="generate unique, minimal puzzles",
        description="Generate puzzles that are unique by construction: a random full grid, "
        "then its clues removed in random order while the puzzle stays unique. "
        "Without --clues or --pattern every puzzle is minimal (each clue is "
        "necessary). --variant killer draws cages on each full grid; --variant renban, "
        "whisper or palindrome draws lines (3 to 8 touching cells) until the puzzle is "
        "unique, and kropki-negative gives every kropki dot with the negative constraint; "
        "their givens are then removed while the puzzle stays unique. "
        "The same --seed gives the same puzzles whatever --jobs.",
        epilog="Top-down removal is biased toward few clues (minimal 9x9 puzzles average "
        "about 24.4 clues this way, against about 26.6 in the real distribution), "
        "and full grids are random but not uniform over all grids. A minimal 9x9 puzzle "
        "takes well under a millisecond, 16x16 a few hundredths of a second, 25x25 from "
        "seconds to minutes; without a progress bar (one "
        "puzzle, or stderr not a terminal) a line on stderr every 5 s says how far the "
        "run is.",
    )
    p.add_argument(
        "-n", "--count", type=int, default=1, metavar="N", help="how many puzzles (default 1)"
    )
    p.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="seed of the batch (default: random, printed on stderr); puzzle i "
        "uses a seed derived from (S, i)",
    )
    g = p.add_argument_group("what to generate")
    # The names are spelled out here (not imported) to keep `sudoku --help` light; a
    # test checks them against sudoku_model.generate.SYMMETRIES.
    g.add_argument(
        "--symmetry",
        default="none",
        metavar="NAME",
        help=f"remove clues in symmetric groups: {', '.join(SYMMETRY_NAMES)} "
        "(default none); the result is group-minimal and is reported "
        "minimal only when every single clue is necessary",
    )
    g.add_argument(
        "--clues",
        type=int,
        metavar="K",
        help="stop removing at K clues (at most K with a symmetry), so the "
        "puzzle may not be minimal; grids whose pass ends above K are "
        "retried (see --max-tries)",
    )
    g.add_argument(
        "--pattern",
        metavar="FILE",
        help="a mask of the given cells (a grid where any non-blank character "
        "marks a given); grids are retried until the mask is unique",
    )
    g.add_argument(
        "--from",
        dest="start",
        metavar="PUZZLE|FILE",
        help="complete this partial grid: its clues stay, the other cells are "
        "filled at random and removed while the puzzle stays unique",
    )
    g.add_argument(
        "--regions",
        metavar="FILE",
        help="jigsaw regions: n lines of n labels (one character per cell)",
    )
    g.add_argument(
        "--level",
        action="append",
        metavar="LEVEL",
        help=f"keep only puzzles the logical solver grades at this level "
        f"({', '.join(LEVEL_NAMES)}; repeat it or give a comma list to "
        "accept several): each try makes a puzzle and grades it. Levels are "
        "calibrated on classic 9x9, where minimal puzzles come out about "
        "42%% easy, 20%% medium, 11%% hard, 12%% expert, 16%% extreme; "
        "other shapes and variants are graded the same way",
    )
    g.add_argument(
        "--max-tries",
        type=int,
        metavar="T",
        help="full grids tried per puzzle before giving up (default 20; 2000 "
        "with --clues or --pattern); with --level, puzzles made and graded "
        "per kept puzzle (default easy 40, medium 150, hard 200, expert "
        "200, extreme 200; the smallest of the levels asked for)",
    )
    _add_killer_options(g)
    o = p.add_argument_group("output")
    o.add_argument(
        "--to",
        default=None,
        choices=FORMATS,
        help="output format (default line; jsonl for puzzles with rules beyond classic "
        "sudoku: variants, jigsaw regions, killer cages, a non-standard box, which only the "
        "JSON formats hold, so that the output reads back as the puzzles made)",
    )
    o.add_argument("--solutions", action="store_true", help="include the solutions")
    o.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    o.add_argument(
        "--plain",
        action="store_true",
        help="bare puzzles, without the clue count, minimality and level of each",
    )
    o.add_argument(
        "-q", "--quiet", action="store_true", help="no progress bar and no summary on stderr"
    )
    p.add_argument(
        "--backend",
        default=DEFAULT_BACKEND,
        metavar="NAME",
        help=f"solver backend (default: {DEFAULT_BACKEND}; see `sudoku backends`)",
    )
    p.add_argument(
        "-j", "--jobs", type=int, default=1, metavar="N", help="worker processes (default 1)"
    )
    # --pencilmark: candidate puzzles, run by cli/generate_pencilmark.py
    g.add_argument(
        "--pencilmark",
        action="store_true",
        help="minimal pencilmark puzzles: a random full grid with every other candidate "
        "eliminated, then eliminations undone in random order while the puzzle stays "
        "unique; written as candidate lines (729 characters at 9x9, '.' for an "
        "eliminated digit). --clues K stops at K eliminations",
    )
    # --unbiased: the sampler of sudoku_model.unbiased, run by cli/unbiased.py
    g.add_argument(
        "--unbiased",
        action="store_true",
        help="weighted minimal classic 9x9 puzzles: an importance sample, each puzzle with "
        "the log of its exact weight. Counted once each they are biased toward fewer clues "
        "(mean about 24.3, against 26.58 for all minimal puzzles): statistics over them "
        "must be weighted by exp(log_weight). The weighted estimate of the clue-count "
        "distribution, with 95%% intervals, goes to stderr",
    )
    add_input_options(p)
    add_budget_options(p)
    _describe_budget_seconds(p)
    p.set_defaults(func=run)


def _describe_budget_seconds(p: argparse.ArgumentParser) -> None:
    """``--budget-seconds`` of generate is a deadline per puzzle, not per search."""
    for action in p._actions:
        if action.dest == "budget_seconds":
            action.help = (
                "wall-clock deadline per puzzle: every search made for a puzzle gets at most "
                "the time left, and those still running at the deadline are stopped; clues "
                "whose test was cut stay (the puzzle is unique, its minimality unknown), and "
                "a puzzle without a full grid by then ends the run (exit 1). Default: no "
                "deadline, each search stops after 60 s"
            )
        elif action.dest in ("budget_nodes", "budget_conflicts"):
            what = "search-node" if action.dest == "budget_nodes" else "conflict"
            action.help = f"{what} limit per search (each clue test, each full grid)"


# -- inputs --------------------------------------------------------------------------------
def _read_text(path: str, what: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as exc:
        raise CliError(f"{what} {path}: cannot read: {exc.strerror or exc}") from None


def _spec_from(args: argparse.Namespace) -> Any:
    from ..errors import ShapeError
    from ..formats import read_char_grid
    from ..generate import GenerationSpec, ImpossibleRequestError, parse_pattern
    from ..geometry import Shape
    from ..rules import RuleSet
    from .common import input_options

    killer = _killer_options(args)  # takes "killer" out of --variant
    drawn = _drawn_options(args)  # takes renban, whisper, palindrome, kropki-negative out
    opts = input_options(args)
    shape: Shape | None = opts["shape"]
    variants = list(opts["variants"])
    start = None
    start_rules = None
    if args.start is not None:
        records = list(iter_inputs(args.start, args))
        if len(records) != 1:
            raise CliError(f"--from {args.start!r}: expected one puzzle, found {len(records)}")
        if records[0].error is not None:
            raise records[0].error
        start_rules = records[0].puzzle.rules
        start = records[0].puzzle.givens
        if shape is not None and start.shape != shape:
            raise CliError(f"--from is a {start.shape.name} grid, not {shape.name}")
        shape = start.shape
    pattern = None
    if args.pattern is not None:
        shape, pattern = parse_pattern(
            _read_text(args.pattern, "--pattern"), shape=shape, source=args.pattern
        )
    regions = None
    if args.regions is not None:
        shape, labels = read_char_grid(
            _read_text(args.regions, "--regions"), source=args.regions, shape=shape
        )
        index: dict[str, int] = {}
        regions = [index.setdefault(x, len(index)) for x in labels]
    if shape is None:
        shape = Shape(3, 3)
    try:
        if start_rules is not None and not variants and regions is None:
            rules = start_rules
        else:
            rules = RuleSet.build(shape, variants, regions)
    except (ValueError, ShapeError) as exc:
        raise CliError(str(exc)) from None
    if start is not None and start.clues:
        from ..puzzle import Puzzle

        clash = Puzzle(start, rules).conflicts()
        if clash:
            raise CliError("--from: the givens clash: " + clash[0].describe(shape))
    graded = args.level is not None
    try:
        # With --level, --max-tries counts graded puzzles; each keeps its own grid tries.
        spec = GenerationSpec(
            rules,
            symmetry=args.symmetry,
            clues=args.clues,
            pattern=pattern,
            start=start,
            max_tries=None if graded else args.max_tries,
            level=tuple(args.level) if graded else None,
            level_tries=args.max_tries if graded else None,
            killer=killer,
            drawn=drawn,
            max_seconds=getattr(args, "budget_seconds", None),
        )
    except ImpossibleRequestError:
        raise
    except ValueError as exc:  # an unknown symmetry name
        raise CliError(str(exc)) from None
    _output_format(args, spec)
    return spec


# -- killer puzzles -------------------------------------------------------------
def _add_killer_options(g: argparse._ArgumentGroup) -> None:
    g.add_argument(
        "--max-cage",
        type=int,
        default=None,
        metavar="K",
        help="with --variant killer: the most cells a cage may have (default 5, or n when smaller)",
    )


def _killer_options(args: argparse.Namespace) -> Any:
    """``--variant killer`` (alone or in a comma list, with other variants as the base
    rules): the killer options, and ``args.variant`` without it; None otherwise."""
    from ..generate import KillerOptions

    variants: list[str] = []
    killer = False
    for value in getattr(args, "variant", None) or []:
        for name in value.split(","):
            if name.strip().lower() in ("killer", "killer-sudoku", "sumdoku"):
                killer = True
            elif name:
                variants.append(name)
    if not killer:
        if args.max_cage is not None:
            raise CliError("--max-cage needs --variant killer")
        return None
    args.variant = variants
    return KillerOptions() if args.max_cage is None else KillerOptions(max_cage=args.max_cage)


#: ``--variant`` names of the marks drawn on a full grid, by the kind they make.
DRAWN_NAMES = {
    "renban": "renban",
    "whisper": "whisper",
    "whispers": "whisper",
    "german-whispers": "whisper",
    "palindrome": "palindrome",
    "palindromes": "palindrome",
    "kropki-negative": "kropki-negative",
    "negative-kropki": "kropki-negative",
}


def _drawn_options(args: argparse.Namespace) -> Any:
    """``--variant renban`` (``whisper``, ``palindrome``, ``kropki-negative``), alone or in
    a comma list with other variants as the base rules: the drawn options, and
    ``args.variant`` without it; None otherwise."""
    from ..generate import DrawnOptions

    variants: list[str] = []
    kinds: list[str] = []
    for value in getattr(args, "variant", None) or []:
        for name in value.split(","):
            kind = DRAWN_NAMES.get(name.strip().lower())
            if kind is not None:
                kinds.append(kind)
            elif name:
                variants.append(name)
    if not kinds:
        return None
    if len(set(kinds)) > 1:
        raise CliError(f"--variant: one of {', '.join(sorted(set(kinds)))} at a time")
    args.variant = variants
    return DrawnOptions(kinds[0])


def _output_format(args: argparse.Namespace, spec: Any) -> None:
    """``--to`` defaults to line, or to jsonl when the puzzles have rules the text formats
    cannot name (:func:`_rules_beyond_lines`); the text formats are refused for those, so
    that the output always reads back as the puzzles that were made."""
    extra = _rules_beyond_lines(spec)
    if args.to is None:
        args.to = "jsonl" if extra else "line"
    elif extra and args.to not in ("json", "jsonl"):
        raise CliError(f"--to {args.to} cannot hold {extra}: use --to json or jsonl (the default)")


def _rules_beyond_lines(spec: Any) -> str | None:
    """What the line, block and CSV formats would lose of the puzzles of ``spec`` (None
    when nothing): a reader takes such text for classic puzzles with the standard box,
    so killer cages, variants, jigsaw regions, other rules and a box other than the
    standard one of the size need a format that holds them (the JSON puzzle format)."""
    from ..geometry import shape_for_size

    rules = spec.rules
    if spec.killer is not None:
        return "killer cages"
    if spec.drawn is not None:
        return "the dots" if spec.drawn.kind == "kropki-negative" else "the lines"
    if rules.constraint_rules:
        return "the rules' cages and marks"
    if not rules.is_classic:
        kinds = [v for v in rules.variants if v != "classic"]
        return "the rules (" + (", ".join(kinds) or "extra units") + ")"
    if rules.shape != shape_for_size(rules.shape.size):
        return f"the {rules.shape.box_rows}x{rules.shape.box_cols} boxes"
    return None


# -- output --------------------------------------------------------------------------------
class _Writer:
    """Writes puzzles as they come; annotated with clue count and minimality unless
    ``plain`` (then :func:`sudoku_model.formats.write_records` does the writing)."""

    def __init__(
        self,
        out: IO[str],
        fmt: str,
        *,
        solutions: bool,
        plain: bool,
        alphabet: Any,
        graded: bool = False,
    ) -> None:
        self.out, self.fmt, self.solutions, self.plain = out, fmt, solutions, plain
        self.alphabet = alphabet
        self.graded = graded and not plain
        self.count = 0
        self._json_items: list[dict[str, Any]] = []
        self._records: Any = None
        if not plain and fmt in ("json", "jsonl"):
            from ..records import open_writer

            self._records = open_writer(out, fmt)
        if fmt == "csv":
            header = (
                ["puzzle", "solution"]
                if plain
                else ["puzzle", "solution", "clues", "minimal", "seed"]
            )
            if self.graded:
                header += ["level", "score", "hardest", "level_tries"]
            import csv

            self._csv = csv.writer(out, lineterminator="\n")
            self._csv.writerow(header)

    def write(self, made: Any) -> None:
        from ..formats import format_block, puzzle_to_json, write_records

        puzzle = made.puzzle
        solution = made.solution if self.solutions else None
        alphabet = self.alphabet
        fmt = self.fmt
        if fmt == "csv":
            row = [
                puzzle.givens.to_line(alphabet=alphabet),
                solution.to_line(alphabet=alphabet) if solution else "",
            ]
            if not self.plain:
                row += [made.clues, _minimal_word(made.minimal), made.seed]
            if self.graded:
                row += [made.level, f"{made.score:.2f}", made.hardest, made.level_tries]
            self._csv.writerow(row)
        elif self._records is not None:  # json, jsonl: one record per puzzle
            self._records.write(made.to_json(solution=self.solutions, alphabet=alphabet))
        elif fmt == "json":
            self._json_items.append(puzzle_to_json(puzzle, solution=solution, alphabet=alphabet))
        elif self.plain:
            if fmt == "block" and self.count:
                self.out.write("\n")
            write_records([(puzzle, solution)], fmt, self.out, alphabet=alphabet)
        elif fmt == "line":
            text = puzzle.givens.to_line(alphabet=alphabet)
            if solution is not None:
                text += " " + solution.to_line(alphabet=alphabet)
            self.out.write(f"{text}  # {made.describe()}\n")
        elif fmt == "block":
            if self.count:
                self.out.write("\n")
            self.out.write(f"# puzzle {made.index + 1}: {made.describe()}\n")
            self.out.write(format_block(puzzle.givens, alphabet=alphabet) + "\n")
            if solution is not None:
                self.out.write("\n" + format_block(solution, alphabet=alphabet) + "\n")
        else:
            raise AssertionError(f"unhandled format {fmt}")  # FORMATS are all handled above
        self.count += 1
        if self.count % 64 == 0:
            self.out.flush()

    def close(self) -> None:
        if self._records is not None:
            self._records.close()
        elif self.fmt == "json":
            import json

            json.dump(self._json_items, self.out, indent=1)
            self.out.write("\n")
        self.out.flush()


def _minimal_word(minimal: bool | None) -> str:
    return "unknown" if minimal is None else ("yes" if minimal else "no")


class _Progress:
    """A one-line progress bar on a terminal (stderr), redrawn at most ten times a second."""

    def __init__(self, total: int, stream: IO[str], enabled: bool) -> None:
        self.total, self.stream, self.enabled = total, stream, enabled
        self.start = time.perf_counter()
        self._last = 0.0

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if done < self.total and now - self._last < 0.1:
            return
        self._last = now
        width = 30
        filled = width * done // max(1, self.total)
        rate = done / max(now - self.start, 1e-9)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} {rate:.1f}/s "
        )
        self.stream.flush()

    def finish(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * 60 + "\r")
            self.stream.flush()


#: Seconds between two heartbeat lines on stderr (see :class:`_Heartbeat`).
HEARTBEAT_SECONDS = 5.0


class _Heartbeat:
    """A line on stderr every :data:`HEARTBEAT_SECONDS` while puzzles are being made, when
    no progress bar shows that the run is alive (stderr not a terminal, or one puzzle):
    a large puzzle can take minutes. Written from a thread of its own, which ends with the
    context."""

    def __init__(self, total: int, done: Any, stream: IO[str], enabled: bool) -> None:
        import threading

        self.total, self.done, self.stream = total, done, stream
        self.enabled = enabled
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="generate-heartbeat", daemon=True)

    def __enter__(self) -> _Heartbeat:
        self.start = time.perf_counter()
        if self.enabled:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(HEARTBEAT_SECONDS):
            seconds = time.perf_counter() - self.start
            print(
                f"sudoku generate: {self.done()} of {self.total} puzzles made after "
                f"{seconds:.0f} s",
                file=self.stream,
                flush=True,
            )


def _summary(
    made: list[Any], seed: int, backend: str, seconds: float, spec: Any, stream: IO[str]
) -> None:
    from ..generate import bias_note, clue_histogram

    minimal = sum(1 for m in made if m.minimal)
    unknown = sum(1 for m in made if m.minimal is None)
    counts = [m.clues for m in made]
    mean = sum(counts) / len(counts)
    print(
        f"generated {len(made)} puzzles with {backend} (seed {seed}) in {seconds:.2f} s; "
        f"{minimal} minimal"
        + (f", {unknown} unknown" if unknown else "")
        + f"; clues min {min(counts)} mean {mean:.2f} max {max(counts)}",
        file=stream,
    )
    hist = clue_histogram(made)
    top = max(hist.values())
    print("clues  puzzles", file=stream)
    for clues, k in hist.items():
        bar = "#" * max(1, round(40 * k / top))
        print(f"{clues:5d}  {k:7d}  {bar}", file=stream)
    for what, counts in (
        ("cages", [m.cages for m in made if m.cages is not None]),
        ("lines", [m.lines for m in made if m.lines is not None]),
        ("dots", [m.dots for m in made if m.dots is not None]),
    ):
        if counts:  # the marks carry these puzzles; the givens are what the marks left
            mean = sum(counts) / len(counts)
            print(f"{what} min {min(counts)} mean {mean:.2f} max {max(counts)}", file=stream)
            return
    note = bias_note(spec)
    if note is not None:
        print(f"note: {note}", file=stream)


def _level_summary(made: list[Any], failed: Any, stream: IO[str]) -> None:
    """Levels of the kept puzzles, and of every puzzle graded on the way (the rates)."""
    from ..generate import level_histogram

    kept = level_histogram(made)
    tried = level_histogram(made, every_try=True)
    if failed is not None:  # the tries of the puzzle that could not be made count too
        for name, k in failed.items():
            tried[name] = tried.get(name, 0) + k
    total = sum(tried.values())
    print(f"levels: {sum(kept.values())} puzzles kept out of {total} graded", file=stream)
    print("level    kept  graded  share", file=stream)
    for name in (*LEVEL_NAMES, "unknown"):
        if name in tried:
            print(
                f"{name:7s} {kept.get(name, 0):5d}  {tried[name]:6d}  "
                f"{100 * tried[name] / total:4.1f}%",
                file=stream,
            )


# -- the command ---------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    import contextlib
    import os

    from ..executor import Interrupted, stop_on_signals
    from ..generate import GenerationError, generate
    from ..grid import ALPHABETS, DEFAULT_ALPHABET
    from ..puzzle import Puzzle
    from .common import get_backend_or_exit

    if getattr(args, "unbiased", False):  # the unbiased sampler
        from .unbiased import run_unbiased

        return run_unbiased(args)
    if getattr(args, "pencilmark", False):  # candidate puzzles
        from .generate_pencilmark import run_pencilmark

        return run_pencilmark(args)
    if args.count < 0:
        raise CliError(f"--count must be non-negative, got {args.count}")
    if args.jobs < 1:
        raise CliError(f"--jobs must be at least 1, got {args.jobs}")
    budget = budget_from(args)  # a bad budget is named before the spec is checked
    spec = _spec_from(args)
    backend = get_backend_or_exit(args.backend)  # fails early, with the reason
    reason = backend.supports(Puzzle.empty(spec.rules.shape, spec.rules))
    if reason:
        raise CliError(reason)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "big") >> 1
    if args.seed is None and not args.quiet:
        print(f"seed: {seed}", file=sys.stderr)
    alphabet = ALPHABETS[args.alphabet] if args.alphabet else DEFAULT_ALPHABET
    progress = _Progress(
        args.count,
        sys.stderr,
        enabled=args.count > 1 and not args.quiet and is_terminal(sys.stderr),
    )
    made: list[Any] = []
    start = time.perf_counter()
    source = backend if args.jobs == 1 else args.backend
    code = EXIT_OK
    failed_levels = None
    with contextlib.ExitStack() as stack:
        # Every option is checked above: opening (and truncating) the output comes last.
        refuse_output_over_inputs(args.output, [args.start, args.pattern, args.regions])
        out = open_output(args.output) if args.output else sys.stdout
        if out is not sys.stdout:
            stack.callback(out.close)
        writer = _Writer(
            out,
            args.to,
            solutions=args.solutions,
            plain=args.plain,
            alphabet=alphabet,
            graded=spec.level is not None,
        )
        try:
            heartbeat = _Heartbeat(
                args.count,
                lambda: len(made),
                sys.stderr,
                enabled=not args.quiet and not progress.enabled,
            )
            # a signal stops the run cleanly (sudoku_model.executor)
            with stop_on_signals(linger=True), heartbeat:
                for puzzle in generate(
                    spec, count=args.count, seed=seed, backend=source, jobs=args.jobs, budget=budget
                ):
                    writer.write(puzzle)
                    made.append(puzzle)
                    progress.update(len(made))
        except Interrupted as exc:
            code = exc.exit_code
            progress.finish()
            print(f"sudoku generate: interrupted after {len(made)} puzzles", file=sys.stderr)
        except GenerationError as exc:
            progress.finish()
            print(f"sudoku: puzzle {len(made) + 1}: {exc}", file=sys.stderr)
            failed_levels = getattr(exc, "levels_seen", None)
            code = EXIT_NO
        finally:
            progress.finish()
            writer.close()
    if made and not args.quiet and (len(made) > 1 or code != EXIT_OK):
        _summary(made, seed, backend.engine_name(), time.perf_counter() - start, spec, sys.stderr)
    if spec.level is not None and not args.quiet and (len(made) > 1 or code != EXIT_OK):
        _level_summary(made, failed_levels, sys.stderr)
    return code
