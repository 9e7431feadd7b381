"""The editor's HTTP server and ``sudoku edit``, without a browser: the page and its files,
the API over HTTP, the guards (host, origin, content type, size), and the command's
life cycle (URL printed, stopped by a signal)."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest

from sudoku_model.editor import EditorServer, EditorService
from sudoku_model.editor.server import MAX_BODY_BYTES, STATIC_FILES

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture(scope="module")
def server() -> Iterator[EditorServer]:
    with EditorServer(EditorService()).start() as srv:
        yield srv


def request(
    server: EditorServer,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    port = server.server_address[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def post(server: EditorServer, endpoint: str, payload: object) -> tuple[int, dict[str, object]]:
    status, _, data = request(
        server,
        "POST",
        f"/api/{endpoint}",
        json.dumps(payload).encode(),
        {"Content-Type": "application/json"},
    )
    return status, json.loads(data)


def test_binds_to_loopback_only(server: EditorServer) -> None:
    assert server.server_address[0] == "127.0.0.1"
    assert server.url.startswith("http://127.0.0.1:")


def test_serves_the_page_and_its_files(server: EditorServer) -> None:
    status, headers, data = request(server, "GET", "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b'src="/static/editor.js"' in data
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    for name in STATIC_FILES:
        status, _, data = request(server, "GET", f"/static/{name}")
        assert status == 200 and data


@pytest.mark.parametrize(
    "path", ["/static/../api.py", "/static/%2e%2e/api.py", "/static/api.py", "/etc/passwd"]
)
def test_no_other_file_is_served(server: EditorServer, path: str) -> None:
    status, _, data = request(server, "GET", path)
    assert status == 404 and b"import" not in data


def test_api_over_http(server: EditorServer) -> None:
    status, _, data = request(server, "GET", "/api/config")
    assert status == 200 and "symmetries" in json.loads(data)
    givens = [0 if ch == "." else int(ch) for ch in HARD]
    status, reply = post(server, "status", {"puzzle": {"size": 9, "givens": givens}})
    assert status == 200 and reply["count_text"] == "1"
    status, reply = post(server, "status", {"puzzle": {"size": 9, "givens": givens[:-1]}})
    assert status == 400 and reply["error"]["field"] == "givens"
    status, headers, data = request(
        server,
        "POST",
        "/api/print",
        json.dumps({"puzzle": {"size": 9, "givens": givens}, "format": "svg"}).encode(),
        {"Content-Type": "application/json"},
    )
    assert status == 200 and headers["Content-Type"] == "image/svg+xml" and data.startswith(b"<svg")


def test_guards(server: EditorServer) -> None:
    port = server.server_address[1]
    body = json.dumps({"puzzle": {"size": 4, "givens": [0] * 16}}).encode()
    as_json = {"Content-Type": "application/json"}
    # DNS rebinding: a page of another name resolving to 127.0.0.1
    status, _, _ = request(server, "POST", "/api/status", body, {**as_json, "Host": "evil.test"})
    assert status == 403
    # another site's page posting here
    other = {**as_json, "Origin": "http://evil.test"}
    assert request(server, "POST", "/api/status", body, other)[0] == 403
    same = {**as_json, "Origin": f"http://127.0.0.1:{port}"}
    assert request(server, "POST", "/api/status", body, same)[0] == 200
    # a form post (no CORS preflight) is refused
    form = {"Content-Type": "text/plain"}
    assert request(server, "POST", "/api/status", body, form)[0] == 415
    assert request(server, "POST", "/api/status", b"{not json", as_json)[0] == 400
    assert request(server, "GET", "/api/status")[0] == 405
    assert request(server, "POST", "/api/nothing", body, as_json)[0] == 404


def test_a_body_over_the_limit_is_refused_unread(server: EditorServer) -> None:
    port = server.server_address[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.putrequest("POST", "/api/load")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(MAX_BODY_BYTES + 1))
    conn.endheaders()
    response = conn.getresponse()
    assert response.status == 413
    assert json.loads(response.read())["error"]["code"] == "too_large"
    conn.close()


# -- the command ------------------------------------------------------------------------------
def _start(*args: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_model.cli", "edit", "--no-browser", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if match is None:
        proc.kill()
        raise AssertionError(
            f"no URL printed: {line!r} {proc.stderr.read() if proc.stderr else ''}"
        )
    return proc, match.group(1)


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_sudoku_edit_serves_the_puzzle_given_and_stops_on_a_signal(
    sig: signal.Signals, code: int
) -> None:
    proc, port = _start(HARD)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", int(port), timeout=60)
        conn.request("GET", "/api/config")
        config = json.loads(conn.getresponse().read())
        conn.close()
        assert (
            config["puzzle"]["givens"][0] == 4 and sum(map(bool, config["puzzle"]["givens"])) == 17
        )
    finally:
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == code
    assert "Traceback" not in err


def test_sudoku_edit_refuses_bad_input_before_serving() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sudoku_model.cli", "edit", "--no-browser", HARD[:80] + "x"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and ":1:81:" in result.stderr and "Traceback" not in result.stderr
    result = subprocess.run(
        [sys.executable, "-m", "sudoku_model.cli", "edit", "--no-browser", "--port", "70000"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "--port" in result.stderr


def test_sudoku_edit_opens_the_puzzle_of_a_file_by_index() -> None:
    from sudoku_model.data import resolve_input
    from sudoku_model.formats import read_puzzles

    third = read_puzzles(resolve_input("bundled:top95")[0])[2]
    proc, port = _start("bundled:top95", "--index", "3")
    try:
        conn = http.client.HTTPConnection("127.0.0.1", int(port), timeout=60)
        conn.request("GET", "/api/config")
        config = json.loads(conn.getresponse().read())
        conn.close()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
    assert config["puzzle"]["givens"] == list(third.givens.values)
