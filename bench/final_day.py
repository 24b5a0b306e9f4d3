"""Benchmark: a national final on the production stack on one machine.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rummitab \\
    REDIS_URL=redis://127.0.0.1:6379/0 python -m bench.final_day
    python -m bench.final_day --phones 2000
    python -m bench.final_day --quick      # 16 players, 20 phones, seconds: that it runs (CI)

Builds the final in the configured database (1,000 players, 250 tables of four, the
rounds before the last one played, the last round's games 1-3 entered except game 3 at
the tables the "alone" run uses), starts gunicorn (DEBUG off) as production runs it — one
pool of `--workers` (4) workers of `--threads` (4) threads for every request; with
`--spectator-workers N` a second pool of N workers serves the polled pages, as
docs/operations/production.md describes for a large event, and every line says which
layout it was measured on — and, when Redis answers, a Celery worker on it as the
broker and the cache (REDIS_URL's own database; else the jobs run in the web processes'
threads), and plays the last game:

* quiet — N phones (`--phones`, default 500) poll the public standings fragment every
  `--interval` seconds (3, as the page does) with the validators of their last answer,
  for `--seconds`; nothing else happens;
* alone — the scorekeepers enter game 3 at as many tables as the burst enters per
  `--seconds` (its rate), through the API, with no phone polling;
* burst — every table enters its last game within `--burst-seconds` (60) while the
  phones poll; then the seconds from the last result's answer until the public fragment
  shows the standings of that result (anonymous, like a phone: "public standings
  current");
* pages — the round page (as its organiser) and the projector's live part, each
  rendered cold (the shared cache's kept pages emptied first), against the standings
  fragment rendered cold the same way, median of 5 each;
* the whole round's sheets PDF, made by its background job (`--no-pdf` skips it).

Every line is a ratio to a baseline measured in the same run, the machine's load
meanwhile does not cancel out of absolute figures: goals are spectators' req/s during
the burst ≥ 0.7 of quiet, scorekeepers' p50 during the burst ≤ 2 x alone, the public
standings current within 2 s of the last result, the round page and the projector
within 2 x the standings fragment, the PDF job within 60 s for 250 tables. The phones
are a load generator of the standard library (asyncio, one process per 500 phones, a
new connection per poll, `Accept-Encoding: gzip` as every browser sends it: the kept
pages are sent compressed). `BENCH_DATABASE_READY=1` skips the migrations and
`BENCH_STATIC_READY=1` the static files (while working on it, with smaller sizes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
SLUG = "bench-final-day"
PHONES_PER_PROCESS = 500
# Seconds a phone waits for one answer before it counts the poll as an error.
POLL_TIMEOUT = 60
# What a phone's browser says it accepts: the kept pages are sent compressed to it.
ACCEPT = "Accept-Encoding: gzip, deflate, br\r\n"


# --- the phones: a load generator in a process of its own -----------------------------


async def _poll(host: str, port: int, path: str, etag: str | None) -> tuple[int, str | None, int]:
    """One conditional GET on a new connection: (status, ETag, body bytes)."""
    reader, writer = await asyncio.open_connection(host, port)
    validator = f"If-None-Match: {etag}\r\n" if etag else ""
    request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{validator}{ACCEPT}Connection: close\r\n\r\n"
    writer.write(request.encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    found = re.search(rb"(?im)^etag:\s*(.+?)\r$", head)
    body = await reader.read()
    writer.close()
    return status, found.group(1).decode() if found else etag, len(body)


async def _phone(host, port, path, interval, until, stats, rng) -> None:
    etag = None
    await asyncio.sleep(rng.random() * interval)  # phones do not poll in step
    while (now := time.monotonic()) < until:
        try:
            # A poll that never answers counts as an error, not a phone stuck for good.
            status, etag, size = await asyncio.wait_for(_poll(host, port, path, etag), POLL_TIMEOUT)
            stats["latencies"].append(time.monotonic() - now)
            stats[str(status)] = stats.get(str(status), 0) + 1
            stats["bytes"] += size
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError,
                IndexError):  # fmt: skip
            stats["errors"] += 1
        if interval:
            await asyncio.sleep(max(0.0, now + interval - time.monotonic()))


def _phones_process(host, port, path, phones, interval, seconds, seed, pipe) -> None:
    stats = {"latencies": [], "bytes": 0, "errors": 0}
    rng = random.Random(seed)
    until = time.monotonic() + seconds

    async def run() -> None:
        await asyncio.gather(
            *(_phone(host, port, path, interval, until, stats, rng) for _ in range(phones))
        )

    started = time.monotonic()
    asyncio.run(run())
    stats["seconds"] = time.monotonic() - started
    pipe.send(stats)


class Phones:
    """N phones polling `path` for `seconds`, split over processes; `result()` merges."""

    def __init__(self, port: int, path: str, phones: int, interval: float, seconds: float):
        self.pipes, self.processes = [], []
        count = max(1, -(-phones // PHONES_PER_PROCESS))
        for n in range(count):
            share = phones // count + (n < phones % count)
            ours, theirs = multiprocessing.Pipe()
            process = multiprocessing.Process(
                target=_phones_process,
                args=("127.0.0.1", port, path, share, interval, seconds, n, theirs),
            )
            process.start()
            theirs.close()  # ours alone: a phone process that dies is an EOFError, not a hang
            self.pipes.append(ours)
            self.processes.append(process)
        self.seconds = seconds

    def result(self) -> dict:
        merged = {"latencies": [], "bytes": 0, "errors": 0, "200": 0, "304": 0}
        for pipe, process in zip(self.pipes, self.processes, strict=True):
            stats = pipe.recv()
            process.join()
            for key, value in stats.items():
                if key == "latencies":
                    merged["latencies"] += value
                elif key != "seconds":
                    merged[key] = merged.get(key, 0) + value
        merged["rate"] = len(merged["latencies"]) / self.seconds
        merged["p99"] = _percentile(merged["latencies"], 99) * 1000
        return merged


def _percentile(values: list[float], pct: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * pct / 100))]


# --- the final, built in the database ---------------------------------------------------


def build(players: int, rounds: int, alone_tables: int):
    """The final: every round but the last played; in the last, games 1-2 entered at every
    table and game 3 at every table after the first `alone_tables`. Returns (tournament,
    organiser, scorekeeper token key)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from bench.standings import drop
    from config.tokens import token_issue
    from games.models import Game, RackEntry, Result, Seat, Table, with_finishes
    from games.services.standings import standings_recompute
    from scoring.rules import PRESETS
    from tournaments.models import Player, Round, StaffMember, Tournament

    drop(SLUG)
    users = get_user_model().objects
    organiser, _ = users.get_or_create(username="final-organiser")
    keeper, _ = users.get_or_create(username="final-scorekeeper")
    rng = random.Random(1)
    with transaction.atomic():
        t = Tournament.objects.create(
            slug=SLUG, name="National final", rules=PRESETS["standard"].as_dict(),
            ranking=["games_won", "score"], public=True, starts_on=date.today(),
            status=Tournament.Status.RUNNING,
        )  # fmt: skip
        StaffMember.objects.create(tournament=t, user=organiser, role=StaffMember.Role.ORGANISER)
        StaffMember.objects.create(tournament=t, user=keeper, role=StaffMember.Role.SCOREKEEPER)
        Player.objects.bulk_create(
            Player(tournament=t, number=n, name=f"Player {n}", club=f"Club {n % 40}")
            for n in range(1, players + 1)
        )
        ids = list(t.players.values_list("id", flat=True))
        now = timezone.now()
        for number in range(1, rounds + 1):
            round_ = Round.objects.create(tournament=t, number=number, method="random")
            rng.shuffle(ids)
            groups = [ids[i : i + 4] for i in range(0, len(ids), 4)]
            tables = Table.objects.bulk_create(
                Table(round=round_, number=n) for n in range(1, len(groups) + 1)
            )
            Seat.objects.bulk_create(
                Seat(table=table, round=round_, player_id=pid, position=pos)
                for table, group in zip(tables, groups, strict=True)
                for pos, pid in enumerate(group, start=1)
            )
            games = Game.objects.bulk_create(
                Game(table=table, number=n, starter_position=n)
                for table in tables
                for n in range(1, 5)
            )
            last = number == rounds
            entered = [
                g
                for g in games
                if not last or g.number <= 2 or (g.number == 3 and g.table.number > alone_tables)
            ]
            results = Result.objects.bulk_create(
                Result(game=g, version=1, end="rummikub", status="confirmed",
                       submitted_by=keeper, confirmed_by=keeper, confirmed_at=now)
                for g in entered
            )  # fmt: skip
            group_of = {table.pk: group for table, group in zip(tables, groups, strict=True)}
            racks = []
            for result, game in zip(results, entered, strict=True):
                group = group_of[game.table_id]
                charges = {p: rng.randint(1, 90) for p in group[1:]}
                racks += with_finishes([
                    RackEntry(result=result, player_id=group[0], tiles="", points=0,
                              charge=0, score=sum(charges.values()), winner=True)
                ] + [
                    RackEntry(result=result, player_id=p, tiles=None, points=c, tile_count=3,
                              charge=c, score=-c, winner=False)
                    for p, c in charges.items()
                ])  # fmt: skip
            RackEntry.objects.bulk_create(racks, batch_size=5000)
        Tournament.objects.filter(pk=t.pk).update(results_version=1)
    standings_recompute(tournament_id=t.pk)
    return Tournament.objects.get(pk=t.pk), organiser, token_issue(user=keeper).key


def _racks_body(game_id: int, seats: list[int], rng: random.Random) -> bytes:
    racks = [{"player": seats[0], "tiles": ""}] + [
        {"player": p, "points": rng.randint(3, 39), "tile_count": 3} for p in seats[1:]
    ]
    return json.dumps(
        {"based_on": 0, "end": "rummikub", "winner": seats[0], "racks": racks}
    ).encode()


def _entries(t, game_number: int, tables: range) -> list[tuple[int, list[int]]]:
    """(game id, seated players in seat order) of game `game_number` at `tables`."""
    from games.models import Game, Seat

    round_ = t.rounds.order_by("-number").first()
    seats: dict[int, list[int]] = {}
    for table_id, player_id in (
        Seat.objects.filter(round=round_).order_by("position").values_list("table_id", "player_id")
    ):
        seats.setdefault(table_id, []).append(player_id)
    games = Game.objects.filter(
        table__round=round_, number=game_number, table__number__in=list(tables)
    ).order_by("table__number")
    return [(g.pk, seats[g.table_id]) for g in games]


def _submit(base: str, token: str, game_id: int, seats: list[int], rng) -> float:
    """One scorekeeper's result through the API; its seconds (raises on a refusal)."""
    request = urllib.request.Request(
        f"{base}/api/v1/games/{game_id}/results/",
        data=_racks_body(game_id, seats, rng),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            answer.read()
    except urllib.error.HTTPError as error:
        raise SystemExit(f"a result was refused: {error.code} {error.read()[:500]!r}") from None
    return time.monotonic() - started


def scorekeepers(base: str, token: str, entries, seconds: float) -> tuple[list[float], float]:
    """Every entry sent at its moment, evenly over `seconds` (each from a thread of its
    own, as phones at the tables do): their latencies and when the last one answered."""
    rng = random.Random(3)
    started = time.monotonic()

    def one(index: int, entry) -> float:
        time.sleep(max(0.0, started + index * seconds / len(entries) - time.monotonic()))
        return _submit(base, token, *entry, rng)

    with ThreadPoolExecutor(max_workers=64) as pool:
        latencies = list(pool.map(one, range(len(entries)), entries))
    return latencies, time.monotonic()


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, headers=headers or {}), timeout=30
        ) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def until_current(base: str, version: int, since: float, limit: float = 120) -> float:
    """Seconds from `since` until the public fragment shows standings `version`."""
    pattern = f"(version {version})".encode()
    while time.monotonic() - since < limit:
        status, body = _get(f"{base}/t/{SLUG}/standings/live/")
        if status == 200 and pattern in body:
            return time.monotonic() - since
        time.sleep(0.05)
    return float("inf")


# --- servers -------------------------------------------------------------------------


def _redis_up(url: str) -> bool:
    if not url:
        return False
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except (redis.RedisError, OSError):
        return False


def _gunicorn(env: dict[str, str], port: int, workers: int, threads: int, name: str):
    return subprocess.Popen(
        [
            PYTHON,
            "-m",
            "gunicorn",
            "config.wsgi",
            f"--workers={workers}",
            f"--threads={threads}",
            f"--bind=127.0.0.1:{port}",
            f"--name={name}",
            "--log-level=warning",
            "--backlog=4096",
            "--timeout=120",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )


def start_servers(
    env: dict[str, str],
    port: int,
    workers: int,
    celery: bool,
    threads: int = 1,
    spectators: tuple[int, int] | None = None,
) -> list:
    """gunicorn on `port` (and, with `spectators` = (port, workers), a second pool for the
    polled public pages, as docs/operations/production.md describes) and the worker."""
    processes = [_gunicorn(env, port, workers, threads, "site")]
    if spectators is not None:
        processes.append(_gunicorn(env, spectators[0], spectators[1], threads, "spectators"))
    if celery:
        processes.append(
            subprocess.Popen(
                [
                    PYTHON,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "--loglevel=warning",
                    "--concurrency=2",
                    "--without-gossip",
                    "--without-mingle",
                ],
                cwd=ROOT,
                env=env,
                start_new_session=True,
                stdout=subprocess.DEVNULL,
            )
        )
    return processes


def stop_servers(processes: list) -> None:
    for process in processes:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            continue
    for process in processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_ready(url: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if _get(url)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"gunicorn did not answer {url} within {seconds:.0f} s")


# --- the pages, cold -----------------------------------------------------------------


def cold_pages(base: str, organiser, redis_url: str, repeats: int) -> dict[str, float]:
    """Median milliseconds of each page rendered cold: the shared cache's kept pages of
    the tournament emptied before each request, read as the organiser (signed in: no
    whole-page cache, the render every first reader after a change pays)."""
    from django.test import Client

    client = Client()
    client.force_login(organiser)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    keys = None
    if redis_url:
        import redis

        keys = redis.Redis.from_url(redis_url)
    round_number = organiser.tournament_roles.first().tournament.rounds.count()
    pages = {
        "standings fragment": f"/t/{SLUG}/standings/live/",
        "round page": f"/t/{SLUG}/rounds/{round_number}/",
        "projector live": f"/t/{SLUG}/projector/live/",
    }
    timings: dict[str, list[float]] = {name: [] for name in pages}
    for _ in range(repeats):
        for name, path in pages.items():
            if keys is not None:
                for key in keys.scan_iter(match=f"*pages:{SLUG}:*"):
                    if b"generation" not in key:
                        keys.delete(key)
            started = time.monotonic()
            status, _ = _get(base + path, {"Cookie": cookie})
            timings[name].append((time.monotonic() - started) * 1000)
            assert status == 200, (path, status)
    return {name: statistics.median(values) for name, values in timings.items()}


def pdf_job(t, organiser, timeout: float) -> tuple[float, int, str]:
    """The whole last round's sheets PDF by its job: (job seconds, tables, status)."""
    from django.db import transaction

    from games.models import ExportJob
    from games.services.export_jobs import export_job_request

    round_ = t.rounds.order_by("-number").first()
    tables = round_.tables.count()
    with transaction.atomic():
        job, _ = export_job_request(
            by=organiser, kind=ExportJob.Kind.SHEETS_PDF, tournament=t, round_=round_,
            params={"paper": "a4", "language": "en"}, total=tables,
        )  # fmt: skip
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in (ExportJob.Status.DONE, ExportJob.Status.FAILED):
            break
        time.sleep(0.5)
    if job.started_at is None or job.finished_at is None:
        return float("inf"), tables, job.status
    return (job.finished_at - job.started_at).total_seconds(), tables, job.status


# --- the run -------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--phones", type=int, default=500)
    parser.add_argument("--interval", type=float, default=3.0, help="seconds between polls")
    parser.add_argument("--seconds", type=float, default=20, help="the quiet and alone runs")
    parser.add_argument("--burst-seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument(
        "--threads", type=int, default=4, help="threads per gunicorn worker (production's 4)"
    )
    parser.add_argument(
        "--spectator-workers",
        type=int,
        default=0,
        help="run the polled pages on a second pool of this many workers (default: one pool)",
    )
    parser.add_argument("--port", type=int, default=0, help="gunicorn's (default: a free one)")
    parser.add_argument("--no-pdf", action="store_true", help="skip the sheets PDF job")
    parser.add_argument("--quick", action="store_true", help="small sizes, no goal (CI)")
    args = parser.parse_args()
    if args.quick:
        args.players, args.rounds, args.phones = 16, 2, 20
        args.interval, args.seconds, args.burst_seconds, args.workers = 0.5, 2, 3, 2

    data_dir = tempfile.mkdtemp(prefix="bench-final-day-")
    redis_url = os.environ.get("REDIS_URL", "")
    celery = _redis_up(redis_url)
    os.environ.update(
        DEBUG="0", SECRET_KEY="bench-only-not-a-secret", ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0", DATA_DIR=data_dir,
        CELERY_BROKER_URL=redis_url if celery else "",
        # One scorekeeper account enters every table here; a venue has one per table.
        API_THROTTLE_USER="100000/minute",
    )  # fmt: skip
    env = dict(os.environ)
    django.setup()
    from django.db import connection

    if os.environ.get("BENCH_DATABASE_READY") != "1":
        subprocess.run([PYTHON, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT, env=env,
                       check=True)  # fmt: skip
    # DEBUG off serves hashed static files: the full pages need the manifest.
    if os.environ.get("BENCH_STATIC_READY") != "1":
        subprocess.run([PYTHON, "manage.py", "collectstatic", "--no-input", "-v0"], cwd=ROOT,
                       env=env, check=True)  # fmt: skip

    if not args.port:
        args.port = _free_port()
    spectators = (_free_port(), args.spectator_workers) if args.spectator_workers else None
    layout = f"gunicorn {args.workers} workers x {args.threads} threads" + (
        f" + a spectators' pool of {args.spectator_workers} workers x {args.threads}"
        " threads for the polled pages"
        if spectators
        else ", one pool for every request"
    )
    tables = args.players // 4
    alone = max(1, round(tables * args.seconds / args.burst_seconds))
    started = time.monotonic()
    t, organiser, token = build(args.players, args.rounds, alone)
    print(
        f"final_day: {args.players} players, {tables} tables, {args.rounds} rounds; "
        f"{args.phones} phones polling every {args.interval:g} s; {layout}; "
        f"{connection.vendor} + {'Redis + a Celery worker' if celery else 'no broker'}"
        f" (built in {time.monotonic() - started:.0f} s; load average "
        f"{os.getloadavg()[0]:.1f})"
    )
    base = f"http://127.0.0.1:{args.port}"
    # Where the phones poll: the spectators' pool when there is one.
    phones_port = spectators[0] if spectators else args.port
    public = f"http://127.0.0.1:{phones_port}"
    live = f"/t/{SLUG}/standings/live/"
    servers = start_servers(env, args.port, args.workers, celery, args.threads, spectators)
    try:
        wait_ready(base + live)
        wait_ready(public + live)
        alone_entries = _entries(t, 3, range(1, alone + 1))
        last_entries = _entries(t, 4, range(1, tables + 1))

        quiet = Phones(phones_port, live, args.phones, args.interval, args.seconds).result()
        alone_ms, _ = scorekeepers(base, token, alone_entries, args.seconds)
        wait_idle(t, 60)

        phones = Phones(phones_port, live, args.phones, args.interval, args.burst_seconds)
        burst_ms, last_answer = scorekeepers(base, token, last_entries, args.burst_seconds)
        t.refresh_from_db()
        current = until_current(public, t.results_version, last_answer)
        during = phones.result()

        pages = cold_pages(base, organiser, redis_url if celery else "", 5)
        # Quick mode leaves the PDF out: WeasyPrint's first load alone is many seconds, and
        # bench.sheets_pdf runs the same job in its quick mode.
        pdf = None if args.no_pdf or args.quick else pdf_job(t, organiser, 1800)
    finally:
        stop_servers(servers)

    fragment = pages["standings fragment"]
    alone_p50 = statistics.median(alone_ms) * 1000
    burst_p50 = statistics.median(burst_ms) * 1000
    print(f"  load average now {os.getloadavg()[0]:.1f} (a shared machine: ratios count)")
    print(f"  layout of every line below: {layout}")
    print(
        f"  spectators during burst / quiet req/s: {during['rate'] / quiet['rate']:.2f}  "
        f"(quiet {quiet['rate']:.0f} req/s p99 {quiet['p99']:.0f} ms; during "
        f"{during['rate']:.0f} req/s p99 {during['p99']:.0f} ms, p99 ratio "
        f"{during['p99'] / quiet['p99']:.2f}; {during['304']} x 304, {during['200']} x 200, "
        f"{during['bytes'] / 1e6:.1f} MB, {during['errors']} errors)   goal ≥ 0.7"
    )
    print(
        f"  scorekeepers p50 during burst / alone: {burst_p50 / alone_p50:.2f}  "
        f"(alone {len(alone_ms)} results p50 {alone_p50:.0f} ms; burst {len(burst_ms)} "
        f"results in {args.burst_seconds:g} s p50 {burst_p50:.0f} ms p99 "
        f"{_percentile(burst_ms, 99) * 1000:.0f} ms)   goal ≤ 2"
    )
    print(f"  last result → public standings current: {current:.1f} s   goal ≤ 2 s")
    for name in ("round page", "projector live"):
        print(
            f"  {name} / standings fragment: {pages[name] / fragment:.2f}  "
            f"({pages[name]:.0f} ms vs {fragment:.0f} ms, rendered cold, median of 5)   goal ≤ 2"
        )
    if pdf is not None:
        seconds, count, status = pdf
        print(
            f"  whole-round PDF job, {count} tables: {seconds:.1f} s "
            f"({seconds / count:.2f} s per table, {status})   goal ≤ 60 s for 250"
        )


def wait_idle(t, seconds: float) -> None:
    """Until the standings have caught up with the last result (the worker's recompute)."""
    from games.services.standings import latest_standings

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        t.refresh_from_db()
        snapshot = latest_standings(t)
        if snapshot is not None and snapshot.computed_version >= t.results_version:
            return
        time.sleep(0.2)


if __name__ == "__main__":
    main()
