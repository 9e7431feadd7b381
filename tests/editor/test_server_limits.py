"""The editor server's limits, with real sockets on 127.0.0.1: slow and idle connections
are closed within the request timeout, the worker pool stays bounded, many concurrent
requests all get answers, an oversized number is a 400 and the search cap holds."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from sudoku_model.editor import EditorServer, EditorService
from sudoku_model.editor.api import SEARCH_WAIT_SECONDS
from sudoku_model.editor.server import LISTEN_BACKLOG, MAX_NUMBER_DIGITS

TIMEOUT = 1.5  # the request timeout of the servers here
AS_JSON = {"Content-Type": "application/json"}


@pytest.fixture
def server() -> Iterator[EditorServer]:
    with EditorServer(
        EditorService(max_searches=2), request_timeout=TIMEOUT, workers=8
    ).start() as srv:
        yield srv


def _connect(server: EditorServer) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=30)
    return sock


def _closed_after(sock: socket.socket, limit: float) -> tuple[float, bytes]:
    """Read until the server closes ``sock``: the seconds it took and what came."""
    start = time.monotonic()
    sock.settimeout(0.2)
    data = b""
    while time.monotonic() - start < limit:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
    return time.monotonic() - start, data


def _post(server: EditorServer, endpoint: str, payload: object, **headers: str) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=60)
    try:
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        conn.request("POST", f"/api/{endpoint}", body=body, headers={**AS_JSON, **headers})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def test_the_listen_backlog_is_at_least_64() -> None:
    assert LISTEN_BACKLOG >= 64 and EditorServer.request_queue_size == LISTEN_BACKLOG


@pytest.mark.timing
def test_slowloris_connections_are_closed_within_the_timeout(server: EditorServer) -> None:
    # 25 clients send a request's headers one byte every 0.2 s (never finishing): each is
    # answered 408 and closed once the request timeout has passed, not held.
    port = server.server_address[1]
    head = f"POST /api/status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: app".encode()
    socks = [_connect(server) for _ in range(25)]
    start = time.monotonic()
    stop = threading.Event()

    def trickle(sock: socket.socket) -> None:
        sock.sendall(head)
        while not stop.wait(0.2):
            try:
                sock.sendall(b"l")
            except OSError:
                return

    threads = [threading.Thread(target=trickle, args=(s,), daemon=True) for s in socks]
    for t in threads:
        t.start()
    try:
        results = [_closed_after(s, 4 * TIMEOUT + 5) for s in socks]
        elapsed = time.monotonic() - start
    finally:
        stop.set()
        for s in socks:
            s.close()
    assert elapsed < 4 * TIMEOUT + 5
    for _, data in results:
        assert data.startswith(b"HTTP/1.1 408"), data[:80]
        assert b'"request_timeout"' in data


@pytest.mark.timing
def test_idle_connections_are_closed_and_threads_stay_bounded(server: EditorServer) -> None:
    before = threading.active_count()
    socks = [_connect(server) for _ in range(150)]
    try:
        time.sleep(0.5)
        assert threading.active_count() <= before + 2  # a fixed pool: no thread each
        # the pool is busy with idle connections, yet a real request is answered
        t0 = time.monotonic()
        status, reply = _post(server, "check", {"puzzle": {"size": 4, "givens": [0] * 16}})
        assert status == 200, reply
        assert time.monotonic() - t0 < 2 * TIMEOUT + 3
        # and every idle connection is closed (without a reply) within the timeout
        results = [_closed_after(s, 4 * TIMEOUT + 5) for s in socks]
    finally:
        for s in socks:
            s.close()
    assert all(data == b"" for _, data in results)
    assert max(seconds for seconds, _ in results) < 4 * TIMEOUT + 5


def test_fifty_concurrent_clients_all_get_answers(server: EditorServer) -> None:
    # 50 clients at once, 200 requests in all, each on its own connection
    body = {"puzzle": {"size": 9, "givens": [0] * 81}}

    def one(_: int) -> int:
        return _post(server, "check", body)[0]

    with ThreadPoolExecutor(50) as pool:
        statuses = list(pool.map(one, range(200)))
    assert statuses == [200] * 200


def test_keep_alive_requests_still_work(server: EditorServer) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
    try:
        for _ in range(3):
            conn.request("GET", "/api/config")
            response = conn.getresponse()
            assert response.status == 200 and "symmetries" in json.loads(response.read())
    finally:
        conn.close()


def test_an_oversized_number_is_a_400(server: EditorServer) -> None:
    # past Python's 4,300-digit limit for int(): answered, not a closed connection
    for digits in (MAX_NUMBER_DIGITS + 1, 5000):
        body = b'{"size": 6, "seed": ' + b"7" * digits + b"}"
        status, reply = _post(server, "generate", body)
        assert status == 400 and reply["error"]["code"] == "number_too_large", reply
        assert f"{digits:,} digits" in reply["error"]["message"]
    body = (
        b'{"puzzle": {"size": 4, "givens": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-' + b"1" * 4400 + b"]}}"
    )
    assert _post(server, "check", body)[1]["error"]["code"] == "number_too_large"
    # a number within the limit is the endpoint's to judge
    status, reply = _post(
        server, "status", {"puzzle": {"size": 4, "givens": [0] * 16}, "limit": 10**30}
    )
    assert status == 400 and reply["error"]["field"] == "limit"


@pytest.mark.timing
def test_the_search_cap_is_enforced(server: EditorServer) -> None:
    # two long searches (making a minimal 25x25 puzzle: 15 s and more, where counting the
    # largest number of solutions a status may ask for can end within the wait on a fast
    # core) fill the cap of 2: a third search waits SEARCH_WAIT_SECONDS and gets 503 busy,
    # a request that does not search is answered at once; once the two are cancelled,
    # searches run again.
    empty16 = {"size": 16, "givens": [0] * 256}
    long = {"size": 25, "seed": 1, "budget_seconds": 30}
    replies: dict[str, tuple[int, dict]] = {}

    def run(client: str) -> None:
        replies[client] = _post(server, "generate", {**long, "client": client, "seq": 1})

    threads = [threading.Thread(target=run, args=(c,)) for c in ("a", "b")]
    for t in threads:
        t.start()
    time.sleep(1.0)
    t0 = time.monotonic()
    status, reply = _post(server, "status", {"puzzle": {"size": 4, "givens": [0] * 16}})
    waited = time.monotonic() - t0
    assert status == 503 and reply["error"]["code"] == "busy", reply
    assert SEARCH_WAIT_SECONDS - 0.1 <= waited < SEARCH_WAIT_SECONDS + 5
    assert _post(server, "check", {"puzzle": empty16})[0] == 200
    t0 = time.monotonic()
    for client in ("a", "b"):
        assert _post(server, "cancel", {"client": client})[0] == 200
    for t in threads:
        t.join(30)
    # both answer at once: a search stopped by the other's cancel and waiting to run again
    # is not left waiting out its budget when its own cancel comes
    assert time.monotonic() - t0 < 5
    assert {replies[c][1]["error"]["code"] for c in ("a", "b")} == {"cancelled"}
    status, reply = _post(server, "status", {"puzzle": {"size": 4, "givens": [0] * 16}})
    assert status == 200 and reply["count_text"] == "at least 2"


def test_a_truncated_body_is_a_400_not_a_hang(server: EditorServer) -> None:
    sock = _connect(server)
    try:
        port = server.server_address[1]
        sock.sendall(
            f"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{}".encode()
        )
        sock.shutdown(socket.SHUT_WR)
        _, data = _closed_after(sock, 10)
    finally:
        sock.close()
    assert data.startswith(b"HTTP/1.1 400") and b'"short_body"' in data
