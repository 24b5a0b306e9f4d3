"""Webhook receivers for tests: real HTTP servers on localhost (ports 8190-8199) in a
thread.

* `Receiver` answers each POST with the next of its scripted status codes (the last one
  from then on), with the extra headers it was given, and keeps what it got, with
  whether the signature passed the receiver's check (`verify_signature`: the HMAC of
  "<t>.<body>" with its secret, `t` within the tolerance).
* `Hanging` accepts connections and never answers a whole status line: it reads the
  request, then drips one byte of an answer every `drip` seconds (or nothing at all,
  `drip=None`) until the client gives up; it counts the connections it accepted.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tournaments.webhook_signing import SIGNATURE_HEADER, verify_signature

PORTS = range(8190, 8200)


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    signed: bool  # the signature header passes the receiver's check with its secret

    @property
    def document(self) -> dict:
        return json.loads(self.body)


class Receiver:
    def __init__(
        self,
        secret: str,
        codes: list[int],
        path: str = "/hook",
        headers: dict[str, str] | None = None,
    ) -> None:
        self.secret = secret
        self.headers = dict(headers or {})
        self.codes = list(codes)
        self.received: list[Received] = []
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                given = self.headers.get(SIGNATURE_HEADER, "")
                with owner.lock:
                    owner.received.append(
                        Received(
                            dict(self.headers.items()),
                            body,
                            verify_signature(given, body, owner.secret, tolerance=300),
                        )
                    )
                    code = owner.codes.pop(0) if len(owner.codes) > 1 else owner.codes[0]
                self.send_response(code)
                for name, value in owner.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = self._bind(Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{path}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @staticmethod
    def _bind(handler: type) -> ThreadingHTTPServer:
        for port in PORTS:
            try:
                return ThreadingHTTPServer(("127.0.0.1", port), handler)
            except OSError:
                continue
        raise RuntimeError("no free port in 8190-8199 for the webhook receiver")

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Hanging:
    """Accepts, reads the request and never finishes an answer (see the module)."""

    ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"

    def __init__(self, drip: float | None = 0.5) -> None:
        self.drip = drip
        self.accepted = 0
        self.stopped = threading.Event()
        self.listener = self._bind()
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/hook"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @staticmethod
    def _bind() -> socket.socket:
        for port in PORTS:
            listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                listener.bind(("127.0.0.1", port))
            except OSError:
                listener.close()
                continue
            listener.listen(16)
            listener.settimeout(0.2)
            return listener
        raise RuntimeError("no free port in 8190-8199 for the hanging receiver")

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                client, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.accepted += 1
            threading.Thread(target=self._hold, args=(client,), daemon=True).start()

    def _hold(self, client: socket.socket) -> None:
        client.settimeout(0.2)
        sent = 0
        try:
            while not self.stopped.is_set():
                try:
                    if not client.recv(65536):
                        return  # the client gave up
                except TimeoutError:
                    pass
                if self.drip is not None and sent < len(self.ANSWER) - 1:
                    # Never the last byte: the header block is never complete.
                    client.sendall(self.ANSWER[sent : sent + 1])
                    sent += 1
                    time.sleep(self.drip)
        except OSError:
            return
        finally:
            client.close()

    def stop(self) -> None:
        self.stopped.set()
        self.listener.close()
        self.thread.join(timeout=2)
