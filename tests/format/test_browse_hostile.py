"""``mdcx browse``'s server given hostile requests over raw sockets: a clear status, never a traceback."""

from __future__ import annotations

import json
import socket
import struct
from pathlib import Path

import pytest
from helpers.browse import build
from mdcx.format import _browse
from mdcx.format._browse import BrowseServer


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return build(tmp_path_factory.mktemp("browse-hostile"))


@pytest.fixture
def server(packages):
    with BrowseServer(list(packages)).start() as s:
        yield s


def send(server: BrowseServer, head: str, body: bytes = b"", timeout: float = 30) -> tuple[int, dict]:
    """The status and JSON body answered to ``head`` (CRLF-joined lines) followed by ``body``."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as s:
        s.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    answer = b"".join(chunks)
    status = int(answer.split(b" ", 2)[1])
    return status, json.loads(answer.split(b"\r\n\r\n", 1)[1] or b"{}")


def post(server: BrowseServer, path: str, body: bytes, extra: str = "") -> tuple[int, dict]:
    head = (
        f"POST {path} HTTP/1.1\nHost: 127.0.0.1:{server.port}\nContent-Type: application/json\n"
        f"X-Mdcx-Token: {server.token}\nContent-Length: {len(body)}\nConnection: close\n{extra}"
    )
    return send(server, head, body)


def serving(server: BrowseServer) -> bool:
    status, state = post(server, "/api/state", b"{}")
    return status == 200 and len(state["packages"]) == 2


def test_deeply_nested_json_is_not_json(server: BrowseServer, capfd: pytest.CaptureFixture) -> None:
    status, answer = post(server, "/api/state", b"[" * 30_000 + b"]" * 30_000)
    assert (status, answer) == (400, {"error": "the request is not JSON"})
    assert serving(server) and capfd.readouterr().err == ""


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/search", b'{"q": "lens", "limit": Infinity}'),
        ("/api/search", b'{"q": "lens", "limit": -Infinity}'),
        ("/api/document", b'{"package": "main.mdcx", "document": "x.md", "passage": 1e999}'),
    ],
)
def test_infinite_numbers_are_malformed_requests_not_internal_errors(
    server: BrowseServer, path: str, body: bytes
) -> None:
    assert post(server, path, body) == (400, {"error": "malformed request (OverflowError)"})


def test_a_second_host_header_is_refused(server: BrowseServer) -> None:
    for hosts in (
        f"127.0.0.1:{server.port}\nHost: evil.example",
        f"evil.example\nHost: 127.0.0.1:{server.port}",
    ):
        status, _ = send(server, f"GET / HTTP/1.1\nHost: {hosts}\nConnection: close\n")
        assert status == 421


def test_lengths_that_cannot_be_read_are_refused(server: BrowseServer) -> None:
    second = (400, {"error": "send one Content-Length, a number of bytes"})
    assert post(server, "/api/state", b"", extra="Content-Length: 5\n") == second  # two may disagree
    negative = (
        f"POST /api/state HTTP/1.1\nHost: 127.0.0.1:{server.port}\nContent-Type: application/json\n"
        f"X-Mdcx-Token: {server.token}\nContent-Length: -5\n"
    )
    assert send(server, negative) == second
    chunked = negative.replace("Content-Length: -5", "Transfer-Encoding: chunked")
    status, answer = send(server, chunked, b"5\r\n[1,2]\r\n0\r\n\r\n")
    assert status == 411 and "Content-Length" in answer["error"]
    assert serving(server)


def test_a_body_that_never_arrives_ends_in_time(
    server: BrowseServer, capfd: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_browse._Handler, "timeout", 0.5)
    head = (
        f"POST /api/state HTTP/1.1\nHost: 127.0.0.1:{server.port}\nContent-Type: application/json\n"
        f"X-Mdcx-Token: {server.token}\nContent-Length: 100\n"
    )
    status, answer = send(server, head, b"{}", timeout=10)  # 98 bytes promised are never sent
    assert status == 408 and "did not arrive" in answer["error"]
    # A request line left half-written is closed as well, without an answer.
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"GET / HT")
        assert s.recv(100) == b""
    assert serving(server) and capfd.readouterr().err == ""


def test_a_client_that_leaves_before_its_answer_leaves_no_traceback(
    server: BrowseServer, capfd: pytest.CaptureFixture
) -> None:
    head = (
        f"POST /api/state HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
        f"X-Mdcx-Token: {server.token}\r\nContent-Length: 2\r\n\r\n{{}}"
    )
    for _ in range(5):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        s.sendall(head.encode())
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()  # a reset: the server's answer has nowhere to go
    assert serving(server)
    assert capfd.readouterr().err == ""
