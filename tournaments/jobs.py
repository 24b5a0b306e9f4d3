"""Background jobs: handed to a Celery worker when there is a broker, otherwise run in
this process by one worker thread, after the request has answered.

Terms:
* job — a registered Celery task, named (`"games.recompute_standings"`) with its
  arguments (ids, JSON-friendly). The lowest app layer names jobs and never imports them,
  so any service may start one: `enqueue(name, *args)`.
* mode — how a job runs, decided at each `enqueue` (`mode()`):
  - `broker`: a broker is configured (`CELERY_TASK_ALWAYS_EAGER` false): the task is
    published (`apply_async`) for a Celery worker, exactly as before this module.
  - `thread` (no broker, the club laptop's default): the job is put on this process's
    queue and run by its worker thread, never inside the request that asked for it.
  - `inline` (`JOBS_INLINE` true, set by the test suite): the job runs here and now, in
    the caller (tests rely on jobs having run once the commit returns).
* lane — a queue and its worker thread. Jobs run on the `jobs` lane unless the caller
  names another: webhook deliveries have a lane of their own (`webhooks`), so a receiver
  that takes its full time never delays a standings recompute.
* worker thread — one daemon thread per lane and process (`rummitab-<lane>`), started by
  the lane's first job. It runs the due jobs one at a time in the order they fall due, each through
  Celery's local `apply()` (so a task sees `request.is_eager` as in the inline mode, and
  its database retries work the same way). A job that raises is logged with its
  traceback and the thread goes on to the next one; nothing a job does reaches the
  request. Database connections are closed around each job as a Celery worker does.
* countdown — a job may be asked to run no earlier than so many seconds from now (the
  recompute's coalescing window, a webhook's retry backoff); the thread sleeps until the
  earliest due job, or until a new one arrives.
* key — coalescing: while a job with the same key is queued and has not started, a new
  request with that key adds nothing (a burst of results becomes one recompute). The key
  is forgotten just before the job starts, so a change made while it runs queues another
  one. (With a broker the callers keep the mark in the shared cache instead, as before.)
* drain — at process exit the thread is given `JOBS_DRAIN_SECONDS` (default 10) to
  finish the jobs already due; jobs scheduled later than that (a webhook retry minutes
  away) are dropped and logged: the rows they would have updated stay as they are
  (a webhook delivery stays `pending`, standings stay marked stale and are recomputed
  on the next read).

Decisions: one thread per lane, not a pool — the club laptop runs SQLite, which takes one
writer at a time anyway, and jobs run in order. Every job must bound its own time (a webhook
POST has a total deadline), or it delays the jobs behind it. A job enqueued while the
caller is inside a transaction is queued when that transaction commits (the thread
would not see uncommitted rows); in the other modes the caller is already after the
commit (an `on_commit` callback), as before. The queue is in memory: jobs still queued
when the process is killed are lost, and what they would have done is caught up as said
above.
"""

from __future__ import annotations

import atexit
import heapq
import itertools
import logging
import os
import threading
import time
from dataclasses import dataclass, field

from celery import current_app
from django.conf import settings
from django.db import close_old_connections, connections, transaction

logger = logging.getLogger(__name__)

BROKER, THREAD, INLINE = "broker", "thread", "inline"
DEFAULT_LANE = "jobs"
DEFAULT_DRAIN_SECONDS = 10.0


def mode() -> str:
    """How a job enqueued now runs: `broker`, `thread` or `inline` (see the module)."""
    if not current_app.conf.task_always_eager:
        return BROKER
    return INLINE if getattr(settings, "JOBS_INLINE", False) else THREAD


def enqueue(
    task: str,
    *args: object,
    countdown: float = 0,
    key: str | None = None,
    lane: str = DEFAULT_LANE,
) -> bool:
    """Run the task named `task` with `args` in the background; False only when a broker
    is configured and could not be reached (the caller's repair catches up later).

    `countdown`: seconds to wait first (ignored inline). `key`: coalescing in the thread
    mode (see the module; the broker callers coalesce in the shared cache). `lane`: the
    thread that runs it in the thread mode.
    """
    current = mode()
    if current == INLINE:
        _run(task, args)
        return True
    if current == BROKER:
        try:
            current_app.signature(task, args=args).apply_async(countdown=countdown or None)
        except Exception:
            logger.warning("broker unreachable; job %s%r not queued", task, args, exc_info=True)
            return False
        return True
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(lambda: _queue(lane).put(task, args, countdown, key))
        return True
    _queue(lane).put(task, args, countdown, key)
    return True


def _run(task: str, args: tuple) -> None:
    """Run one job here, logging (never raising) what went wrong."""
    try:
        result = current_app.signature(task, args=args).apply()
    except Exception:
        logger.exception("job %s%r failed", task, args)
        return
    if result.failed():
        logger.error("job %s%r failed:\n%s", task, args, result.traceback)


@dataclass(order=True)
class _Job:
    due: float
    order: int
    task: str = field(compare=False)
    args: tuple = field(compare=False)
    key: str | None = field(compare=False, default=None)


class JobQueue:
    """The jobs of this process, by when they fall due, and the thread that runs them."""

    def __init__(self, lane: str) -> None:
        self.lane = lane
        self._heap: list[_Job] = []
        self._keys: set[str] = set()
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._running = 0  # jobs started and not yet finished (0 or 1)
        self._stopping = False
        self._thread: threading.Thread | None = None
        self.pid = os.getpid()

    def put(self, task: str, args: tuple, countdown: float = 0, key: str | None = None) -> None:
        with self._changed:
            if key is not None:
                if key in self._keys:
                    return
                self._keys.add(key)
            due = time.monotonic() + max(countdown, 0)
            heapq.heappush(self._heap, _Job(due, next(self._order), task, args, key))
            self._stopping = False
            self._start()
            self._changed.notify_all()

    def _start(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(
                target=self._work, name=f"rummitab-{self.lane}", daemon=True
            )
            self._thread.start()

    def _next(self) -> _Job | None:
        """Wait for the next due job (None: stop)."""
        with self._changed:
            while True:
                now = time.monotonic()
                if self._heap and self._heap[0].due <= now:
                    job = heapq.heappop(self._heap)
                    if job.key is not None:
                        self._keys.discard(job.key)
                    self._running += 1
                    return job
                if self._stopping:
                    return None
                self._changed.wait(self._heap[0].due - now if self._heap else None)

    def _work(self) -> None:
        while (job := self._next()) is not None:
            try:
                close_old_connections()
                _run(job.task, job.args)
            except Exception:  # _run logs the job's own errors; this is the thread's
                logger.exception("job thread: %s%r", job.task, job.args)
            finally:
                try:
                    connections.close_all()
                except Exception:
                    logger.warning("job thread: a database connection did not close")
                with self._changed:
                    self._running -= 1
                    self._changed.notify_all()

    def idle(self, timeout: float, *, within: float = 0) -> bool:
        """Wait until no job is running and none falls due within `within` seconds from
        now; True when that happened before `timeout`."""
        deadline = time.monotonic() + timeout
        horizon = time.monotonic() + within
        with self._changed:
            while self._running or (
                self._heap and self._heap[0].due <= max(horizon, time.monotonic())
            ):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.05))
            return True

    def stop(self, timeout: float) -> int:
        """Let the jobs due within `timeout` finish, drop the others, stop the thread;
        the number of jobs dropped."""
        finished = self.idle(timeout, within=timeout)
        with self._changed:
            dropped = len(self._heap)
            self._heap.clear()
            self._keys.clear()
            self._stopping = True
            self._changed.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout=1 if finished else 0.1)
        return dropped

    def pending(self) -> int:
        with self._changed:
            return len(self._heap) + self._running


_queues: dict[str, JobQueue] = {}
_queues_pid = os.getpid()
_queues_lock = threading.Lock()


def _queue(lane: str) -> JobQueue:
    """This process's queue of `lane` (a forked child starts its own: threads do not
    survive a fork)."""
    global _queues_pid
    with _queues_lock:
        if _queues_pid != os.getpid():
            _queues.clear()
            _queues_pid = os.getpid()
        if lane not in _queues:
            _queues[lane] = JobQueue(lane)
        return _queues[lane]


def _ours() -> list[JobQueue]:
    with _queues_lock:
        return list(_queues.values()) if _queues_pid == os.getpid() else []


def wait_idle(timeout: float = 10, *, within: float = 0) -> bool:
    """Wait until no lane of this process runs anything or has a job due within `within`
    seconds; True when they got there before `timeout` (tests, exit)."""
    deadline = time.monotonic() + timeout
    return all(queue.idle(max(deadline - time.monotonic(), 0), within=within) for queue in _ours())


def pending() -> int:
    """Jobs queued or running in this process's lanes."""
    return sum(queue.pending() for queue in _ours())


def shutdown(timeout: float | None = None) -> int:
    """Drain and stop this process's lanes (see the module); the jobs dropped."""
    if timeout is None:
        timeout = float(getattr(settings, "JOBS_DRAIN_SECONDS", DEFAULT_DRAIN_SECONDS))
    # Every lane together: a job on one lane may queue one on another (a recompute
    # announces the standings to the webhooks).
    wait_idle(timeout, within=timeout)
    dropped = sum(queue.stop(0) for queue in _ours())
    if dropped:
        logger.warning("%d background job(s) dropped at exit", dropped)
    return dropped


atexit.register(shutdown)
