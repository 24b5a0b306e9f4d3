"""Benchmark: what one read of a large field's standings costs, whole against paged.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rummitab \\
        python -m bench.standings_page --players 15000
    python -m bench.standings_page --quick  # 40 players, what the test suite runs

Registers that many players in a throw-away test database, computes their standings
snapshot once, then reads the tournament page, the live fragment every phone polls and
the API's standings: each as it is served (a page of rows above
`games.selectors.standings.STANDINGS_WHOLE_UP_TO` players) and, for comparison in the same run, as
the whole table (the fragment rendered with every row, as before paging). Prints bytes
and the median milliseconds of a few reads of each — as served (kept in the shared cache
after the first read) and with nothing kept — and the ratios whole / paged.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

from config import page_cache  # noqa: E402
from games.selectors.standings import standings_table  # noqa: E402
from games.services.standings import standings_recompute  # noqa: E402
from tournaments.models import Player  # noqa: E402
from tournaments.services.tournaments import tournament_create  # noqa: E402

READS = 5


def timed(read) -> tuple[int, float]:
    """Bytes of one answer and the median milliseconds of READS reads (the first one
    with the shared cache emptied: rendered, not kept)."""
    times, size = [], 0
    cache.clear()
    forget_kept_answers()
    for _ in range(READS):
        started = time.perf_counter()
        size = len(read())
        times.append((time.perf_counter() - started) * 1000)
    return size, statistics.median(times)


def forget_kept_answers() -> None:
    """Empty what this process keeps of answers besides the shared cache (config.page_cache)."""
    page_cache._entries.clear()
    page_cache._generations.clear()


def cold_ms(read) -> float:
    """The median milliseconds of READS reads, each with the shared cache emptied first:
    what a read costs when nothing is kept (the first reader after a change)."""
    times = []
    for _ in range(READS):
        cache.clear()
        forget_kept_answers()
        started = time.perf_counter()
        read()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=15_000)
    parser.add_argument("--quick", action="store_true", help="40 players (CI)")
    args = parser.parse_args()
    if args.quick:
        args.players = 40
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        organiser = get_user_model().objects.create_user("bench-organiser")
        tournament = tournament_create(by=organiser, name="Bench Nationals")
        Player.objects.bulk_create(
            Player(tournament=tournament, number=n, name=f"Entrant {n}", club="Bench RC")
            for n in range(1, args.players + 1)
        )
        tournament.refresh_from_db()
        standings_recompute(tournament_id=tournament.pk)
        client = Client()
        slug = tournament.slug
        page = reverse("tournament-detail", kwargs={"slug": slug})
        live = reverse("standings-live", kwargs={"slug": slug})
        api = reverse("api-standings", kwargs={"slug": slug})
        whole = timed(
            lambda: render_to_string(
                "games/standings_fragment.html",
                {"tournament": tournament, "standings": standings_table(tournament, whole=True)},
            ).encode()
        )
        print(f"{args.players} players, {connection.vendor}; median of {READS} reads")
        print(f"  fragment, whole table (before paging): {whole[0]:>10,} B {whole[1]:8.1f} ms")
        for name, url in (("page", page), ("fragment", live), ("API standings", api)):
            size, ms = timed(lambda url=url: client.get(url).content)
            cold = cold_ms(lambda url=url: client.get(url).content)
            print(
                f"  {name + ', paged:':<38} {size:>10,} B {ms:8.1f} ms (not kept: {cold:6.1f} ms)"
                f"   whole/paged: bytes {whole[0] / size:5.1f}x, time {whole[1] / ms:5.1f}x"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
