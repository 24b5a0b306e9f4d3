"""Benchmark: the public pages under load, against a static file, as a venue's phones see them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rummitab \\
    REDIS_URL=redis://127.0.0.1:6379/0 python -m bench.load

Starts gunicorn as production runs it (3 workers of 4 threads, DEBUG off; `--workers`,
`--threads`) on PostgreSQL + Redis when they answer (else SQLite and the per-process
cache), migrates, seeds the demo tournaments, then runs Debian's
`wrk` (50 connections, 2 threads) against: the static CSS file, the public standings
page, the live standings fragment (200, no validators) and the fragment with the
validators of its last answer (the 304 path every polling phone takes while nothing
changes). Prints req/s and p99 of each and the ratios against the static file.
Targets: page ≥ 70 %, 304 path ≥ 90 % of static; p99 < 100 ms.

With `--burst N` it then measures the phones during a burst of results: the running demo
tournament's live fragment polled with its validators, quiet and while N corrections
that each move the standings are stored over the same seconds (bench/_corrections.py,
a process of its own), and one phone polling every half second on the side: req/s and
p99 of each run, and how many times that phone downloaded the fragment again (a 200)
during the burst — the generation moves at most once a second (docs/design/caching.md).

Without DATABASE_URL it tries postgres://postgres@127.0.0.1:5432/rummitab_bench (creating
that database) and without REDIS_URL redis://127.0.0.1:6379/15 (`REDIS_URL=` set empty: the
per-process cache). Needs `wrk` on the PATH
(`apt-get install -y wrk`).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import psycopg
import redis

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
SLUG = "demo-club-open-2026"
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/rummitab_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/15"


def _postgres(url: str) -> bool:
    """Whether PostgreSQL answers at `url`, creating the database if only it is missing."""
    base, _, name = url.rpartition("/")
    try:
        psycopg.connect(url, connect_timeout=2).close()
        return True
    except psycopg.OperationalError as error:
        if "does not exist" not in str(error):
            return False
    try:
        with psycopg.connect(base + "/postgres", autocommit=True, connect_timeout=2) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return True
    except psycopg.Error:
        return False


def _redis(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except (redis.RedisError, OSError):
        return False


def environment(port: int) -> dict[str, str]:
    env = dict(os.environ)
    database = env.get("DATABASE_URL") or (DEFAULT_PG if _postgres(DEFAULT_PG) else "")
    if not database:
        database = f"sqlite:///{tempfile.gettempdir()}/rummitab-bench-load.sqlite3"
    # REDIS_URL set empty: no Redis (the suite's quick run keeps off the suite's Redis).
    redis_url = (
        env["REDIS_URL"] if "REDIS_URL" in env else (DEFAULT_REDIS if _redis(DEFAULT_REDIS) else "")
    )
    env.update(
        DATABASE_URL=database,
        REDIS_URL=redis_url,
        # The recompute runs in the request that changes a result (no worker in the bench).
        CELERY_BROKER_URL="",
        DEBUG="0",
        SECRET_KEY="bench-only-not-a-secret",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL
    )


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def wait_ready(url: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if get(url)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"gunicorn did not answer {url} within {seconds:.0f} s")


def _ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60_000}[unit]


def wrk(url: str, seconds: int, connections: int, headers: dict[str, str]) -> tuple[float, float]:
    """Requests per second and the 99th percentile latency in milliseconds."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    out = subprocess.run([*command, url], check=True, capture_output=True, text=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = _ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    if non_2xx:
        print(f"  ! {url}: {non_2xx.group(1)} answers that were not 2xx/3xx")
    return rate, p99


BURST_SLUG = "demo-winter-league"


def _phone(url: str, stop: threading.Event, counts: dict[str, int]) -> None:
    """One phone polling every half second with the validators of its last answer."""
    headers: dict[str, str] = {}
    while not stop.is_set():
        status, answer, body = get(url, headers)
        counts[str(status)] = counts.get(str(status), 0) + 1
        if status == 200:
            counts["bytes"] = counts.get("bytes", 0) + len(body)
            headers = {"If-None-Match": answer["ETag"]} if answer.get("ETag") else {}
        stop.wait(0.5)


def burst(base: str, env: dict[str, str], args: argparse.Namespace) -> None:
    live = f"{base}/t/{BURST_SLUG}/standings/live/"
    _, headers, _ = get(live)
    validators = {"If-None-Match": headers["ETag"]}
    quiet = wrk(live, args.seconds, args.connections, validators)
    stop, counts = threading.Event(), {}
    phone = threading.Thread(target=_phone, args=(live, stop, counts))
    corrections = subprocess.Popen(
        [PYTHON, "-m", "bench._corrections", BURST_SLUG, str(args.burst), str(args.seconds)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    phone.start()
    try:
        during = wrk(live, args.seconds, args.connections, validators)
    finally:
        stored = corrections.communicate(timeout=120)[0].strip()
        stop.set()
        phone.join()
    print(
        f"burst: {stored}; the fragment of {BURST_SLUG} polled with validators "
        f"({args.connections} connections x {args.seconds} s)"
    )
    print(f"  {'':<26} {'req/s':>9} {'p99 ms':>9}")
    print(f"  {'quiet':<26} {quiet[0]:9.0f} {quiet[1]:9.1f}")
    print(f"  {'during the burst':<26} {during[0]:9.0f} {during[1]:9.1f}")
    print(f"  during / quiet req/s: {during[0] / quiet[0]:.2f}")
    print(
        f"  one phone polling every 0.5 s: {counts.get('200', 0)} downloads "
        f"({counts.get('bytes', 0):,} B), {counts.get('304', 0)} answers 304"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8180)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument(
        "--threads", type=int, default=4, help="threads per worker (docs/operations/production.md)"
    )
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--burst", type=int, default=0, help="corrections during a burst run")
    parser.add_argument("--quick", action="store_true", help="1 s per run, 4 connections")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.connections = 1, 4
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    env = environment(args.port)
    if os.environ.get("BENCH_DATABASE_READY") != "1":
        manage(env, "migrate", "--no-input")
    manage(env, "seed_demo")
    manage(env, "collectstatic", "--no-input")
    base = f"http://127.0.0.1:{args.port}"
    server = subprocess.Popen(
        [PYTHON, "-m", "gunicorn", "config.wsgi", f"--workers={args.workers}",
         f"--threads={args.threads}", f"--bind=127.0.0.1:{args.port}", "--log-level=warning"],
        cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip
    try:
        page = f"{base}/t/{SLUG}/"
        live = f"{base}/t/{SLUG}/standings/live/"
        wait_ready(page)
        css = re.search(rb'href="(/static/css/site[^"]*\.css)"', get(page)[2])
        assert css, "the page links no site.css"
        static = base + css.group(1).decode()
        _, headers, _ = get(live)
        validators = {
            name: value
            for name, header in (("If-None-Match", "ETag"), ("If-Modified-Since", "Last-Modified"))
            if (value := headers.get(header))
        }
        status_304 = get(live, validators)[0]
        database = env["DATABASE_URL"].split(":", 1)[0]
        cache = "Redis" if env["REDIS_URL"] else "local memory"
        print(
            f"gunicorn {args.workers} workers x {args.threads} threads, {database} + {cache}, "
            f"wrk {args.connections} connections x {args.seconds} s; validators of the fragment: "
            f"{', '.join(validators) or 'none'} -> {status_304}"
        )
        runs = (
            ("static CSS", static, {}),
            ("standings page", page, {}),
            ("live fragment, 200", live, {}),
            (f"live fragment, {status_304} path", live, validators),
        )
        results = []
        for name, url, sent in runs:
            get(url, sent)  # warm: the first answer may render and cache
            results.append((name, *wrk(url, args.seconds, args.connections, sent)))
        static_rate = results[0][1]
        print(f"  {'':<26} {'req/s':>9} {'p99 ms':>9} {'of static':>10}")
        for name, rate, p99 in results:
            print(f"  {name:<26} {rate:9.0f} {p99:9.1f} {rate / static_rate:9.0%}")
        print("  targets: page ≥ 70 %, 304 path ≥ 90 % of static, p99 < 100 ms")
        if args.burst:
            burst(base, env, args)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
