"""Run a few calls at the same moment on real threads (each with its own database
connection) and collect what each returned or raised — for the race tests on PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def at_once(*calls: Callable[[], object], timeout: float = 30) -> list[object]:
    """Start every call together; their results, or the exception each raised, in order."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(slot: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[slot] = call()
        except Exception as error:
            outcomes[slot] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert not any(thread.is_alive() for thread in threads), "a call never finished"
    return outcomes
