"""``sudoku backends``: the installed backends, their versions and what each supports."""

from __future__ import annotations

import argparse
import json

from .common import EXIT_OK


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "backends",
        help="list installed backends",
        description="List the registered backends, whether each loads, its "
        "version, and what it supports.",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per backend")
    p.set_defaults(func=run)


def describe_backends() -> list[dict]:
    """One dict per registered backend: name, available, version, capabilities (as its
    :class:`~sudoku_model.solving.Capabilities` declare them) or error; the default
    backend is marked ``default``."""
    from ..solving import DEFAULT_BACKEND, available_backends, get_backend

    rows = []
    for name in available_backends():
        try:
            backend = get_backend(name)
        except Exception as exc:  # a broken third-party backend must not hide the others
            rows.append({"name": name, "available": False, "error": str(exc)})
            continue
        caps = backend.capabilities
        row = {
            "name": backend.name,
            "available": True,
            "default": name == DEFAULT_BACKEND,
            "version": backend.version(),
            "rule_kinds": sorted(caps.rule_kinds),
            "sizes": f"{caps.min_size}..{caps.max_size}",
            "budgets": list(caps.budgets),
            "notes": caps.notes,
            "fast_paths": sorted(caps.fast_paths),
            "releases_gil": caps.releases_gil,
            "bulk_verify": caps.bulk_verify,
            "certifies": caps.certifies,
        }
        if caps.sub_solvers:
            row["sub_solvers"] = list(caps.sub_solvers)
        if caps.routing:
            row["routing"] = list(caps.routing)
        backend.close()
        rows.append(row)
    return rows


def run(args: argparse.Namespace) -> int:
    rows = describe_backends()
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return EXIT_OK
    for row in rows:
        if not row["available"]:
            print(f"{row['name']:<18} unavailable: {row['error']}")
            continue
        print(
            f"{row['name']:<18} {row['version']:<12} rules: {', '.join(row['rule_kinds'])}"
            f"; sizes {row['sizes']}; budgets: {', '.join(row['budgets'])}"
        )
        print(f"{'':<18} fast paths: {', '.join(row['fast_paths']) or 'none (generic defaults)'}")
        if row["default"]:
            print(f"{'':<18} the default backend")
        if row.get("sub_solvers"):
            print(f"{'':<18} sub-solvers: {', '.join(row['sub_solvers'])}")
        for line in row.get("routing", ()):
            print(f"{'':<18} routes {line}")
        extras = [
            word
            for key, word in (("bulk_verify", "bulk verify"), ("certifies", "certificates"))
            if row[key]
        ]
        if extras:
            print(f"{'':<18} also: {', '.join(extras)}")
        if row["notes"]:
            print(f"{'':<18} {row['notes']}")
    return EXIT_OK
