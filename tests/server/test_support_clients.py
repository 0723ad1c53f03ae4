"""The tests' web client resends as a browser does: a request on a kept-alive connection
that the server closes before answering goes once more on a new connection (the keep-alive
timer's race that failed a fresh-clone run: 'Server disconnected without sending a
response' on a form's second post); a server that keeps closing is still an error."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from support.server_live import web_client

ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"


@contextmanager
def closing_server(drops: int) -> Iterator[str]:
    """A server on loopback: a request without a body is answered; the first ``drops``
    requests with one are read and their connection closed without an answer."""
    listener = socket.create_server(("127.0.0.1", 0))
    seen: list[bytes] = []

    def serve(conn: socket.socket) -> None:
        with conn:
            while True:
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(4096)
                    if not chunk:
                        return
                    data += chunk
                head, _sep, body = data.partition(b"\r\n\r\n")
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length")), 0)
                while len(body) < length:
                    body += conn.recv(4096)
                seen.append(body)
                if body and len([b for b in seen if b]) <= drops:
                    return  # closed: the request read, no answer
                conn.sendall(ANSWER)

    def accept() -> None:
        while True:
            try:
                conn, _addr = listener.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()


def test_a_post_on_a_closed_kept_alive_connection_is_sent_again() -> None:
    with closing_server(drops=1) as base:
        plain = httpx.Client(base_url=base)
        assert plain.get("/").status_code == 200
        with pytest.raises(httpx.RemoteProtocolError):  # what the failed run met
            plain.post("/form", data={"a": "1"})
    with closing_server(drops=1) as base:
        client = web_client(base)
        assert client.get("/").status_code == 200
        r = client.post("/form", data={"a": "1"})
        assert r.status_code == 200 and r.text == "ok"


def test_a_server_that_keeps_closing_is_still_an_error() -> None:
    with closing_server(drops=2) as base:
        client = web_client(base)
        assert client.get("/").status_code == 200
        with pytest.raises(httpx.RemoteProtocolError):
            client.post("/form", data={"a": "1"})
