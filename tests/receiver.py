"""A webhook receiver for tests: a real HTTP server on localhost (ports 8190-8199) in a
thread, answering each POST with the next of its scripted status codes (the last one from
then on) and keeping what it got, with whether the signature matched its secret."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORTS = range(8190, 8200)


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    signed: bool  # the signature header is the HMAC-SHA256 of the body with the secret

    @property
    def document(self) -> dict:
        return json.loads(self.body)


class Receiver:
    def __init__(self, secret: str, codes: list[int], path: str = "/hook") -> None:
        self.secret = secret
        self.codes = list(codes)
        self.received: list[Received] = []
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                expected = hmac.new(owner.secret.encode(), body, hashlib.sha256).hexdigest()
                given = self.headers.get("X-Rummitab-Signature", "")
                with owner.lock:
                    owner.received.append(
                        Received(
                            dict(self.headers.items()),
                            body,
                            hmac.compare_digest(given, f"sha256={expected}"),
                        )
                    )
                    code = owner.codes.pop(0) if len(owner.codes) > 1 else owner.codes[0]
                self.send_response(code)
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
