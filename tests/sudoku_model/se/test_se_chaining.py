"""The static chaining of multiple forcing chains (dynamic_chains._static_chaining, reading the
grid's implications from tables built once) against the general one (_do_chaining, which
computes them node by node): the same nodes, parents, causes and answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_model.se import State, apply_step, chaining, rate_se
from tests.se_reference import dynamic_chains

HERE = Path(__file__).parent


@pytest.mark.slow
def test_static_chaining_builds_the_graph_of_do_chaining() -> None:
    rows = [
        ln.split()
        for ln in (HERE / "se_rated_sample.txt").read_text().splitlines()
        if ln and not ln.startswith("#")
    ]
    chains = absurd = 0
    for row in rows[::4]:
        values = [int(ch) for ch in row[1]]
        state = State.from_values(values)
        for i, step in enumerate(rate_se(values, seconds=60).steps):
            if i % 3 == 0:
                cands = state.cands
                tables = dynamic_chains._static_tables(cands, True, True)
                for cell in range(81):
                    for d in range(9):
                        if not cands[cell] >> d & 1 or cands[cell] == 1 << d:
                            continue
                        for key in (((cell * 9 + d) << 1) | 1, (cell * 9 + d) << 1):
                            start = (key, (), chaining.NO_CAUSE)
                            graphs = []
                            for static in (True, False):
                                to_on = {key: start} if key & 1 else {}
                                to_off = {} if key & 1 else {key: start}
                                if static:
                                    got = dynamic_chains._static_chaining(tables, to_on, to_off)
                                else:
                                    got = dynamic_chains._do_chaining(
                                        cands, to_on, to_off, False, True, None
                                    )
                                graphs.append((got, list(to_on.items()), list(to_off.items())))
                            assert graphs[0] == graphs[1], (cands, key)
                            chains += 1
                            absurd += graphs[0][0] is not None
            apply_step(state, step)
    assert chains > 1000 and absurd > 0
