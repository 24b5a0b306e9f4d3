"""A database away for a moment is a 503 with Retry-After, not a 500.

Real failures, nothing mocked: PostgreSQL is reached through a small TCP proxy in this
test (`Proxy`), which the test then cuts — the shared PostgreSQL service itself is never
stopped — and SQLite's "database is locked" comes from a real file that a second
connection holds locked while a view writes to it (tests/error_urls.py).

Terms: cut — the proxy stops accepting and closes every connection it carries, as a
database restart does to Django's persistent connection.
"""

from __future__ import annotations

import contextlib
import socket
import sqlite3
import threading

import pytest
from django.db import connections
from django.db.backends.sqlite3.base import DatabaseWrapper
from django.db.utils import OperationalError
from django.test import Client

from config.errors import RETRY_AFTER_SECONDS, database_unavailable


class Proxy:
    """A loopback TCP proxy to `target`, in threads, that can be cut."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        self.accepted = 0
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # cut
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.sockets += [client, upstream]
                self.accepted += 1
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.listener.close()
        with self.lock:
            for end in self.sockets:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()


def client() -> Client:
    answering = Client()
    answering.raise_request_exception = False  # the answer, as a phone would get it
    return answering


def assert_503(response, *, api: bool) -> None:
    assert response.status_code == 503, response.content[:300]
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    if api:
        assert response.json() == {
            "detail": "The database cannot be reached for a moment. Try again in a few seconds."
        }
    else:
        page = response.content.decode()
        assert "Back in a moment" in page and "stays queued on the phone" in page


def test_a_lost_postgresql_connection_answers_503_then_the_site_recovers(postgres):
    connection = connections["default"]
    settings = connection.settings_dict
    original = (settings["HOST"], settings["PORT"])
    proxy = Proxy((settings["HOST"] or "127.0.0.1", int(settings["PORT"] or 5432)))
    connection.close()
    settings["HOST"], settings["PORT"] = "127.0.0.1", str(proxy.port)
    phone = client()
    try:
        assert phone.get("/clubs/no-such-club/").status_code == 404  # through the proxy
        assert proxy.accepted >= 1
        proxy.cut()  # the database goes away under the open connection
        assert_503(phone.get("/clubs/no-such-club/"), api=False)
        assert_503(phone.get("/api/v1/tournaments/"), api=True)
        assert_503(phone.post("/api/v1/auth/token/", {"username": "a", "password": "b"}), api=True)
    finally:
        proxy.cut()
        connection.close()
        settings["HOST"], settings["PORT"] = original
    # Back: the next request connects again and is answered as usual.
    assert phone.get("/clubs/no-such-club/").status_code == 404
    assert phone.get("/api/v1/tournaments/").status_code == 200


def test_no_database_listening_at_all_answers_503(postgres):
    connection = connections["default"]
    settings = connection.settings_dict
    original = settings["PORT"]
    with socket.create_server(("127.0.0.1", 0)) as placeholder:
        free = placeholder.getsockname()[1]  # closed again: nothing listens there
    connection.close()
    settings["PORT"] = str(free)
    try:
        assert_503(client().get("/clubs/no-such-club/"), api=False)
    finally:
        connection.close()
        settings["PORT"] = original


@pytest.mark.django_db
def test_sqlite_database_is_locked_answers_503(settings, tmp_path):
    settings.ROOT_URLCONF = "tests.error_urls"
    path = tmp_path / "club.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (n INTEGER)")
    holder.execute("BEGIN EXCLUSIVE")  # a long write elsewhere holds the lock
    try:
        assert_503(client().get("/sqlite-locked/", LOCKED_DB=str(path)), api=False)
        assert_503(client().get("/api/v1/sqlite-locked/", LOCKED_DB=str(path)), api=True)
    finally:
        holder.execute("ROLLBACK")
    # Unlocked, the same write goes through.
    assert client().get("/sqlite-locked/", LOCKED_DB=str(path)).content == b"written"
    holder.close()


@pytest.mark.django_db
def test_other_database_errors_stay_500(tmp_path):
    """A statement the database refuses (here a missing table) is a bug, not a wait."""
    wrapper = DatabaseWrapper(
        {
            **connections["default"].settings_dict,
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(tmp_path / "x.sqlite3"),
            "OPTIONS": {},
        },
        alias="other",
    )
    with pytest.raises(OperationalError) as refused, wrapper.cursor() as cursor:
        cursor.execute("SELECT * FROM missing")
    wrapper.close()
    assert not database_unavailable(refused.value)
