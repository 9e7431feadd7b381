"""``sudoku edit [PUZZLE|FILE] [--port N] [--no-browser]``: the editor that counts as you
type, served on 127.0.0.1 (see :mod:`sudoku_model.editor`)."""

from __future__ import annotations

import argparse
import sys

from .common import CliError, add_input_options, iter_inputs


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "edit",
        help="open the puzzle editor (a local web page that counts as you type)",
        description="Serve the puzzle editor on 127.0.0.1 (a free port unless --port) and "
        "open it in the browser: enter digits and watch the solution count, take hints, "
        "solve, generate, minimise, check, load, save and print. The URL is printed; "
        "Ctrl-C stops the server (exit 130). Nothing is served to other machines, and "
        "no file is read but the one named here.",
    )
    p.add_argument(
        "puzzle",
        nargs="?",
        metavar="PUZZLE|FILE",
        help="a puzzle, a file, bundled:NAME or - to open (default: an empty 9x9 grid)",
    )
    p.add_argument(
        "--index",
        type=int,
        default=1,
        metavar="K",
        help="which puzzle of FILE to open, 1-based (default 1)",
    )
    p.add_argument(
        "--port", type=int, default=0, metavar="N", help="port on 127.0.0.1 (default: a free one)"
    )
    p.add_argument("--no-browser", action="store_true", help="print the URL, open no browser")
    p.add_argument("--verbose", action="store_true", help="log every request on standard error")
    add_input_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..editor import EditorServer, EditorService

    if not 0 <= args.port <= 65535:
        raise CliError(f"--port {args.port}: a port is 0 (any free one) to 65535")
    if args.index < 1:
        raise CliError(f"--index {args.index}: puzzles are numbered from 1")
    puzzle = solution = None
    if args.puzzle is not None:
        count = 0
        for rec in iter_inputs(args.puzzle, args):
            count += 1
            if count == args.index:
                if rec.error is not None:
                    raise rec.error
                puzzle, solution = rec.puzzle, rec.solution
                break
        if puzzle is None:
            raise CliError(
                f"{args.puzzle}: holds {count} puzzle(s); there is no --index {args.index}"
            )
    try:
        server = EditorServer(EditorService(puzzle, solution), port=args.port, verbose=args.verbose)
    except OSError as exc:
        raise CliError(f"cannot serve on 127.0.0.1:{args.port}: {exc.strerror or exc}") from None
    with server:
        print(f"sudoku edit: serving {server.url} (Ctrl-C to stop)", flush=True)
        if not args.no_browser:
            import webbrowser

            if not webbrowser.open(server.url):
                print("sudoku edit: no browser found; open the URL above", file=sys.stderr)
        server.serve_forever()
    return 0
