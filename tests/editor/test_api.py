"""The editor's JSON API without HTTP or a browser: every endpoint, bad input, budgets and
cancellation (sudoku_model.editor.api)."""

from __future__ import annotations

import json
import threading
import time

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape, get_backend
from sudoku_model.editor import EditorService, decode_puzzle, encode_puzzle, layout
from sudoku_model.editor.wire import ApiError

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HARD_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
EASY = "1.3..4.2.1.3..2."


def cells(line: str) -> list[int]:
    return list(Grid.parse(line).values)


def wire(line: str, **rules: object) -> dict[str, object]:
    n = round(len(line) ** 0.5)
    return {"size": n, "givens": cells(line), **rules}


@pytest.fixture(scope="module")
def service() -> EditorService:
    return EditorService()


def ok(service: EditorService, endpoint: str, payload: dict[str, object]) -> dict[str, object]:
    reply = service.handle(endpoint, payload)
    assert reply.status == 200, reply.json
    assert reply.json is not None
    return reply.json


# -- status: the live count ----------------------------------------------------------------
def test_status_counts_zero_one_and_at_least_two(service: EditorService) -> None:
    unique = ok(service, "status", {"puzzle": wire(HARD)})
    assert (unique["count_text"], unique["verdict"]) == ("1", "unique")
    assert "".join(map(str, unique["solution"])) == HARD_SOLUTION
    fewer = ok(service, "status", {"puzzle": wire("." + HARD[1:])})
    assert (fewer["count_text"], fewer["verdict"]) == ("at least 2", "multiple")
    # a digit that clashes with no given but leaves no solution
    solution = cells(HARD_SOLUTION)
    values = cells(HARD)
    first_empty = values.index(0)
    wrong = next(d for d in range(1, 10) if d != solution[first_empty])
    values[first_empty] = wrong
    edited = ok(service, "status", {"puzzle": {**wire(HARD), "values": values}})
    if not edited["clash_cells"]:
        assert (edited["count_text"], edited["verdict"]) == ("0", "unsolvable")


def test_status_exact_up_to_the_limit(service: EditorService) -> None:
    # the empty 4x4 grid has 288 solutions
    empty = {"size": 4, "givens": [0] * 16}
    assert ok(service, "status", {"puzzle": empty, "limit": 1000})["count_text"] == "288"
    assert ok(service, "status", {"puzzle": empty, "limit": 10})["count_text"] == "at least 10"


def test_status_reports_clashes_without_searching(service: EditorService) -> None:
    values = cells(HARD)
    values[1] = 4  # r1c2 = 4 next to the given 4 at r1c1
    reply = ok(service, "status", {"puzzle": {**wire(HARD), "values": values}})
    assert reply["verdict"] == "contradictory"
    assert 0 in reply["clash_cells"] and 1 in reply["clash_cells"]
    assert "digit 4 repeated in row 1" in reply["clashes"][0]["text"]


def test_status_of_variant_rules(service: EditorService) -> None:
    # on an anti-king 4x4 grid nothing fits: the rules alone have no solution
    reply = ok(
        service, "status", {"puzzle": {"size": 4, "variants": ["anti-king"], "givens": [0] * 16}}
    )
    assert reply["verdict"] == "unsolvable"
    jigsaw = list("0011001122332233")
    reply = ok(
        service, "status", {"puzzle": {"size": 4, "regions": "".join(jigsaw), "givens": [0] * 16}}
    )
    assert reply["verdict"] == "multiple"


# -- the other endpoints --------------------------------------------------------------------
def test_hint_gives_the_easiest_step_with_its_cells(service: EditorService) -> None:
    step = ok(service, "hint", {"puzzle": wire(EASY)})["step"]
    assert step["technique"] == "naked_single"
    assert step["explanation"] == "r4c2 = 3: the only candidate left in the cell"
    assert step["cells"] == [13] and step["placements"] == [[13, 3]]


def test_hint_says_why_there_is_none(service: EditorService) -> None:
    solved = "1234341221434321"
    assert ok(service, "hint", {"puzzle": wire(solved)})["reason"] == "the grid is complete"
    reply = ok(service, "hint", {"puzzle": wire("11" + "." * 14)})
    assert reply["step"] is None and "breaks a rule" in reply["reason"]


def test_solve_by_logic_and_by_search(service: EditorService) -> None:
    easy = ok(service, "solve", {"puzzle": wire(EASY)})
    assert (easy["status"], easy["method"]) == ("solved", "logic")
    assert easy["logic_steps"] == len(easy["steps"]) > 0
    # the empty grid: no technique applies, search finishes it and says so
    empty = ok(service, "solve", {"puzzle": {"size": 9, "givens": [0] * 81}})
    assert (empty["status"], empty["method"]) == ("solved", "logic+search")
    assert "search" in empty["message"]
    grid = Grid(Shape(3, 3), empty["values"])
    assert Puzzle.empty(Shape(3, 3)).is_solution(grid)


def test_candidates_are_the_digits_no_peer_holds(service: EditorService) -> None:
    reply = ok(service, "candidates", {"puzzle": wire(".2..3....1....4.")})
    assert reply["candidates"][0] == [1, 4]
    assert reply["candidates"][1] == []


def test_generate_a_6x6_with_symmetry_and_level(service: EditorService) -> None:
    reply = ok(service, "generate", {"size": 6, "symmetry": "rot180", "level": "easy", "seed": 5})
    puzzle = decode_puzzle(reply["puzzle"]).puzzle
    assert puzzle.shape == Shape(2, 3) and reply["level"] == "easy"
    assert get_backend("native").check_unique(puzzle).kind.value == "unique"
    values = puzzle.givens.values
    assert all(bool(values[c]) == bool(values[35 - c]) for c in range(36))
    assert reply["layout"]["size"] == 6
    again = ok(service, "generate", {"size": 6, "symmetry": "rot180", "level": "easy", "seed": 5})
    assert again["puzzle"] == reply["puzzle"]


def test_generate_a_variant(service: EditorService) -> None:
    reply = ok(service, "generate", {"size": 6, "variants": ["diagonal"], "seed": 2})
    puzzle = decode_puzzle(reply["puzzle"]).puzzle
    assert puzzle.rules == RuleSet.build(Shape(2, 3), ["diagonal"])
    assert get_backend("native").check_unique(puzzle).kind.value == "unique"
    assert [d["style"] for d in reply["layout"]["decorations"]] == ["diagonal", "diagonal"]


def test_minimise_drops_the_redundant_clues(service: EditorService) -> None:
    solution = cells(HARD_SOLUTION)
    values = cells(HARD)
    extra = [c for c in range(81) if not values[c]][:10]
    for c in extra:
        values[c] = solution[c]
    reply = ok(service, "minimise", {"puzzle": {"size": 9, "givens": values}})
    assert reply["minimal"] is True
    smaller = decode_puzzle(reply["puzzle"]).puzzle
    assert smaller.clues < 27 and set(reply["removed"]) <= set(range(81))
    native = get_backend("native")
    assert native.check_unique(smaller).kind.value == "unique"
    for c in smaller.givens.filled_cells():  # minimal: every clue needed
        assert native.check_unique(smaller.with_givens(smaller.givens.without([c]))).kind.value != (
            "unique"
        )


def test_minimise_refuses_a_puzzle_that_is_not_unique(service: EditorService) -> None:
    reply = service.handle("minimise", {"puzzle": wire("." + HARD[1:])})
    assert reply.status == 422 and "multiple" in reply.json["error"]["message"]


def test_check_a_filled_grid(service: EditorService) -> None:
    good = {**wire(HARD), "values": cells(HARD_SOLUTION)}
    assert ok(service, "check", {"puzzle": good}) == {"ok": True, "problems": []}
    bad = cells(HARD_SOLUTION)
    bad[1], bad[2] = bad[2], bad[1]
    reply = ok(service, "check", {"puzzle": {**wire(HARD), "values": bad}})
    assert not reply["ok"] and {p["kind"] for p in reply["problems"]} == {"duplicate"}


@pytest.mark.parametrize(
    "fmt, variants",
    [("line", []), ("block", []), ("csv", []), ("json", []), ("jsonl", []), ("json", ["diagonal"])],
)
def test_save_then_load_gives_the_same_puzzle(
    service: EditorService, fmt: str, variants: list[str]
) -> None:
    original = {**wire(HARD), "variants": variants, "values": cells(HARD_SOLUTION)}
    saved = ok(service, "save", {"puzzle": original, "format": fmt, "solution": True})
    loaded = ok(service, "load", {"text": saved["text"], "name": saved["filename"]})
    assert loaded["puzzle"]["givens"] == original["givens"]
    assert loaded["puzzle"]["variants"] == variants
    if fmt in ("csv", "json", "jsonl") and not variants:  # a field for the solution
        assert loaded["solution"] == cells(HARD_SOLUTION)
    if variants:  # the grid shown does not solve the diagonal puzzle: no solution saved
        assert loaded["solution"] is None


def test_save_then_load_keeps_extra_all_different_units(service: EditorService) -> None:
    """Units beyond the variants' (no constraint rule, no killer cage) survive a round
    trip through json: the encoder wrote only constraint rules' entries before."""
    distinct = {"type": "distinct", "name": "extra", "units": [["r1c1", "r2c2", "r3c3", "r4c4"]]}
    original = {**wire(EASY), "constraints": [distinct]}
    saved = ok(service, "save", {"puzzle": original, "format": "json"})
    loaded = ok(service, "load", {"text": saved["text"], "name": saved["filename"]})
    assert loaded["puzzle"]["constraints"] == [distinct]
    # the unit is in force after the round trip: it makes this unique 4x4 unsolvable
    assert ok(service, "status", {"puzzle": wire(EASY)})["verdict"] == "unique"
    assert ok(service, "status", {"puzzle": loaded["puzzle"]})["verdict"] == "unsolvable"


def test_save_warns_when_the_format_drops_rules(service: EditorService) -> None:
    reply = ok(service, "save", {"puzzle": wire(HARD, variants=["diagonal"]), "format": "line"})
    assert "keeps no variant rules" in reply["warning"]


def test_load_a_jigsaw_and_pick_a_puzzle_of_several(service: EditorService) -> None:
    regions = "0011001122332233"
    text = json.dumps({"size": 4, "regions": regions, "puzzle": "1" + "." * 15})
    loaded = ok(service, "load", {"text": text})
    assert loaded["layout"]["regions"] == [int(r) for r in regions]
    several = ok(service, "load", {"text": f"{HARD}\n{EASY}\n", "index": 1})
    assert (several["count"], several["puzzle"]["givens"]) == (2, cells(EASY))


def test_load_reports_where_the_text_is_wrong(service: EditorService) -> None:
    reply = service.handle("load", {"text": HARD[:40] + "x" + HARD[41:]})
    assert reply.status == 400
    assert ":1:41:" in reply.json["error"]["message"]


def test_print_svg_and_pdf(service: EditorService) -> None:
    svg = service.handle("print", {"puzzle": wire(HARD), "format": "svg"})
    assert svg.status == 200 and svg.content_type == "image/svg+xml"
    assert svg.body is not None and svg.body.startswith(b"<svg")
    pytest.importorskip("matplotlib")
    pdf = service.handle("print", {"puzzle": wire(HARD), "format": "pdf"})
    assert pdf.status == 200 and pdf.body is not None and pdf.body.startswith(b"%PDF")


def test_layout_draws_rules_as_data() -> None:
    rules = RuleSet.build(Shape(3, 3), ["diagonal", "windoku", "anti-knight"])
    drawn = layout(rules)
    kinds = [(d["kind"], d.get("style")) for d in drawn["decorations"]]
    assert kinds.count(("line", "diagonal")) == 2
    assert kinds.count(("shade", "window")) == 4
    assert ("caption", None) in kinds
    assert drawn["regions"][:4] == [0, 0, 0, 1] and drawn["symbols"] == "123456789"


def test_config_lists_what_the_page_offers() -> None:
    start = Puzzle.parse(HARD)
    reply = EditorService(start).handle("config", {})
    assert reply.json["puzzle"] == encode_puzzle(start)
    assert "rot180" in reply.json["symmetries"] and "jsonl" in reply.json["write_formats"]


# -- bad input: clear 4xx errors, never a traceback ----------------------------------------
@pytest.mark.parametrize(
    "endpoint, payload, status, field",
    [
        ("status", {}, 400, "puzzle"),
        ("status", {"puzzle": "not an object"}, 400, "puzzle"),
        ("status", {"puzzle": {"givens": [0] * 81}}, 400, "box"),
        ("status", {"puzzle": {"size": 7, "givens": [0] * 49}}, 400, "size"),
        ("status", {"puzzle": {"box": [3, 3, 3], "givens": [0] * 81}}, 400, "box"),
        ("status", {"puzzle": {"size": 9, "givens": [0] * 80}}, 400, "givens"),
        ("status", {"puzzle": {"size": 9, "givens": [0] * 80 + [10]}}, 400, "givens"),
        ("status", {"puzzle": {"size": 9, "givens": [0] * 80 + ["1"]}}, 400, "givens"),
        ("status", {"puzzle": {"size": 9, "givens": [0] * 80 + [True]}}, 400, "givens"),
        (
            "status",
            {"puzzle": {"size": 9, "givens": [1] + [0] * 80, "values": [2] + [0] * 80}},
            400,
            "values",
        ),
        ("status", {"puzzle": {"size": 9, "givens": [0] * 81, "cages": []}}, 400, "cages"),
        ("status", {"puzzle": {"size": 9, "givens": [0] * 81, "variants": ["nope"]}}, 400, "rules"),
        ("status", {"puzzle": {"size": 4, "givens": [0] * 16, "regions": "0011"}}, 400, "rules"),
        ("status", {"puzzle": {"size": 9, "givens": [0] * 81}, "limit": 1}, 400, "limit"),
        ("status", {"puzzle": {"size": 9, "givens": [0] * 81}, "limit": 10**9}, 400, "limit"),
        (
            "status",
            {"puzzle": {"size": 9, "givens": [0] * 81}, "budget_seconds": -1},
            400,
            "budget_seconds",
        ),
        (
            "status",
            {"puzzle": {"size": 9, "givens": [0] * 81}, "budget_seconds": 1e9},
            400,
            "budget_seconds",
        ),
        (
            "status",
            {"puzzle": {"size": 9, "givens": [0] * 81}, "client": "a b", "seq": 1},
            400,
            "client",
        ),
        ("status", {"puzzle": {"size": 9, "givens": [0] * 81}, "client": "a"}, 400, "seq"),
        ("generate", {"size": 9, "symmetry": "spiral"}, 400, "symmetry"),
        ("generate", {"size": 9, "level": "trivial"}, 400, "level"),
        ("generate", {"size": 9, "seed": -3}, 400, "seed"),
        ("generate", {"size": 9, "colour": "red"}, 400, "colour"),
        ("save", {"puzzle": {"size": 4, "givens": [0] * 16}, "format": "xlsx"}, 400, "format"),
        ("load", {"text": ""}, 400, "text"),
        ("load", {"text": HARD, "format": "yaml"}, 400, "format"),
        ("load", {"text": HARD, "index": 3}, 400, "index"),
        ("print", {"puzzle": {"size": 4, "givens": [0] * 16}, "format": "docx"}, 400, "format"),
    ],
)
def test_bad_requests_get_4xx_naming_the_field(
    service: EditorService, endpoint: str, payload: dict[str, object], status: int, field: str
) -> None:
    reply = service.handle(endpoint, payload)
    assert reply.status == status, reply.json
    assert reply.json["error"]["field"] == field, reply.json
    assert reply.json["error"]["message"]


def test_unknown_endpoint_and_body_that_is_not_an_object(service: EditorService) -> None:
    assert service.handle("rm -rf", {}).status == 404
    assert service.handle("status", [1, 2]).status == 400


def test_a_huge_text_is_refused(service: EditorService) -> None:
    reply = service.handle("load", {"text": HARD + "\n" * 2_000_000})
    assert reply.status == 413


def test_decode_puzzle_raises_api_errors() -> None:
    with pytest.raises(ApiError) as err:
        decode_puzzle({"size": 4, "givens": [5] + [0] * 15})
    assert "cell r1c1 holds 5" in err.value.message


# -- budgets --------------------------------------------------------------------------------
EMPTY_25 = {"size": 25, "givens": [0] * 625}


def test_a_spent_budget_is_an_answer_not_an_error(service: EditorService) -> None:
    reply = ok(service, "status", {"puzzle": wire(HARD), "budget_seconds": 0})
    assert reply["budget_exhausted"] and reply["verdict"] == "unknown"
    assert reply["count_text"] == "unknown"
    # counting the empty 25x25 grid up to a million stops at the budget with a lower bound
    # (its first solution takes about 40 ms unloaded: a starved worker gets longer budgets,
    # each still far short of the seconds that a million solutions take)
    texts: list[str] = []
    for budget in (0.2, 0.5, 1.0, 2.0):
        payload = {"puzzle": EMPTY_25, "limit": 10**6, "budget_seconds": budget}
        reply = ok(service, "status", payload)
        assert reply["budget_exhausted"] and not reply["complete"]
        texts.append(str(reply["count_text"]))
        if texts[-1] != "unknown":
            break
    assert texts[-1].startswith("at least ") and int(texts[-1].split()[-1]) >= 1, texts


def test_a_workflow_of_many_calls_stops_at_its_budget(service: EditorService) -> None:
    # a 25x25 minimal puzzle takes tens of seconds: the job's timer ends it
    reply = ok(service, "generate", {"size": 25, "budget_seconds": 0.3, "seed": 1})
    assert reply["budget_exhausted"] and "0.3 s" in reply["message"]


# -- cancellation ---------------------------------------------------------------------------
def _in_background(service: EditorService, endpoint: str, payload: dict[str, object]):  # type: ignore[no-untyped-def]
    box: dict[str, object] = {}
    thread = threading.Thread(target=lambda: box.update(reply=service.handle(endpoint, payload)))
    thread.start()
    return thread, box


def _wait_until_running(service: EditorService, client: str, endpoint: str) -> None:
    for _ in range(500):
        job = service._latest.get((client, endpoint))
        if job is not None and job._backends:
            return
        time.sleep(0.01)
    raise AssertionError("the job never started")


def test_a_newer_request_supersedes_the_one_in_flight() -> None:
    service = EditorService()
    long = {"puzzle": EMPTY_25, "limit": 10**6, "budget_seconds": 100, "client": "page", "seq": 1}
    thread, box = _in_background(service, "status", long)
    _wait_until_running(service, "page", "status")
    newer = service.handle("status", {"puzzle": wire(HARD), "client": "page", "seq": 2})
    assert newer.status == 200 and newer.json["count_text"] == "1"
    thread.join(timeout=60)
    assert not thread.is_alive()
    stale = box["reply"]
    assert stale.status == 409 and stale.json["error"]["code"] == "superseded"
    # a request older than one already seen is refused at once
    late = service.handle("status", {"puzzle": wire(HARD), "client": "page", "seq": 1})
    assert late.status == 409 and late.json["error"]["code"] == "stale"
    # other clients and other endpoints are not affected
    assert (
        service.handle("status", {"puzzle": wire(HARD), "client": "other", "seq": 1}).status == 200
    )


def test_cancel_stops_a_clients_job_and_the_backend_serves_again() -> None:
    service = EditorService()
    long = {"puzzle": EMPTY_25, "limit": 10**6, "budget_seconds": 100, "client": "nb", "seq": 7}
    thread, box = _in_background(service, "status", long)
    _wait_until_running(service, "nb", "status")
    assert ok(service, "cancel", {"client": "nb", "channel": "status"}) == {"cancelled": 1}
    thread.join(timeout=60)
    assert box["reply"].status == 409 and box["reply"].json["error"]["code"] == "cancelled"
    # the interrupted backend went back to the pool cleared: the next search runs
    assert ok(service, "status", {"puzzle": wire(HARD)})["count_text"] == "1"
    assert ok(service, "cancel", {"client": "nb"}) == {"cancelled": 0}
