"""Benchmark: a circuit's ranking after one event finishes, against a raw SQL read of the
same results.

    python -m bench.circuit                # 60 qualifiers x 40 x 16 games + a final of 74
    python -m bench.circuit --events 20
    python -m bench.circuit --quick           # small sizes, what the test suite runs

Builds, in the configured database (use PostgreSQL: `DATABASE_URL=postgres://postgres@
127.0.0.1:5432/rummitab`), a season of qualifiers (each `bench.standings.build`: tables of
4, 4 rounds of 4 games a table = 16 games a player, every game confirmed, its standings
computed from the games), their players linked to a pool of people (each qualifier draws
its field from the pool, so people play several events), a circuit counting them all (best
8, a minimum field of 12, one slot an event, 14 ranking slots) and its final. Prints:

* raw SQL: one query reading every event's stored standings rows and the people behind
  the players (the baseline: what a from-scratch ranking must read at least);
* one event finishing: the last 5 qualifiers finish one by one, each followed by what the
  job runs (`circuit_follow_tournament`): that event's finishes stored, the ranking and
  qualified list recomputed from the stored finishes, the final's entry list followed (a
  late qualifier entered) — the median; its ratio to the raw read and its SQL queries.
  Target: ≤ 1 s;
* the full recompute (every event read again: a rule changed, people merged), and ratio.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.standings import build, timed
from circuits.models import Circuit, CircuitEvent
from circuits.services.circuits import circuit_follow_tournament
from circuits.services.ranking import circuit_refresh_all, ranking_for_read
from games.models import RackEntry, Seat
from games.services.standings import standings_recompute
from scoring.rules import PRESETS
from tournaments.models import Person, Player, Tournament

PREFIX = "bench-circuit"
# Qualifiers that finish during the run, one by one (the incremental recompute measured).
LATE = 5
# Every event's newest standings rows, and the person behind each player: what a ranking
# from scratch must read at least (two statements, timed together).
RAW_STANDINGS = """
SELECT s.tournament_id, s.rows FROM games_standings s WHERE s.tournament_id IN ({ids})
"""
RAW_PEOPLE = """
SELECT p.id, COALESCE(p.person_id, m.person_id)
FROM tournaments_player p LEFT JOIN tournaments_member m ON m.id = p.member_id
WHERE p.tournament_id IN ({ids})
"""


def drop() -> None:
    Circuit.objects.filter(slug__startswith=PREFIX).delete()
    RackEntry.objects.filter(player__tournament__slug__startswith=PREFIX).delete()
    Seat.objects.filter(round__tournament__slug__startswith=PREFIX).delete()
    Tournament.objects.filter(slug__startswith=PREFIX).delete()
    Person.objects.filter(name__startswith=PREFIX).delete()


def build_season(events: int, players: int, rounds: int, final_size: int) -> Circuit:
    drop()
    rng = random.Random(7)
    pool = Person.objects.bulk_create(
        Person(name=f"{PREFIX} person {n}") for n in range(1, players * events // 4 + players)
    )
    tournaments = []
    start = date(2026, 1, 10)
    for n in range(events):
        t = build(players, rounds, seed=n + 1)
        slug = f"{PREFIX}-q{n + 1}"
        # The last qualifiers are still being played: they finish one by one in the run.
        status = "running" if n >= events - min(LATE, max(1, events // 2)) else "finished"
        Tournament.objects.filter(pk=t.pk).update(
            slug=slug, name=slug, starts_on=start + timedelta(days=7 * n), status=status
        )
        chosen = rng.sample(pool, players)
        ids = list(
            Player.objects.filter(tournament=t).order_by("number").values_list("pk", flat=True)
        )
        Player.objects.bulk_update(
            [Player(pk=pk, person_id=person.pk) for pk, person in zip(ids, chosen, strict=True)],
            ["person"],
        )
        standings_recompute(tournament_id=t.pk)
        tournaments.append(t.pk)
    user, _ = get_user_model().objects.get_or_create(username="bench")
    final = Tournament.objects.create(
        slug=f"{PREFIX}-final",
        name="final",
        rules=PRESETS["standard"].as_dict(),
        ranking=["score"],
        starts_on=start + timedelta(days=7 * events + 14),
    )
    circuit = Circuit.objects.create(
        slug=f"{PREFIX}-gp",
        name="Grand Prix",
        rule={
            "best": 8,
            "min_field": min(12, players),
            "slots": 1,
            "ranking_slots": max(0, final_size - events),
            "weighted": True,
        },
        cutoff=start + timedelta(days=7 * events),
        final=final,
        created_by=user,
    )
    CircuitEvent.objects.bulk_create(
        CircuitEvent(circuit=circuit, tournament_id=pk, status="approved") for pk in tournaments
    )
    circuit_refresh_all(circuit=circuit)
    return circuit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=60)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=4, help="4 games a table each")
    parser.add_argument("--final", type=int, default=74, help="players of the final")
    parser.add_argument("--quick", action="store_true", help="3 events x 8 players x 1 round")
    args = parser.parse_args()
    if args.quick:
        args.events, args.players, args.rounds, args.final = 3, 8, 1, 4

    started = time.perf_counter()
    circuit = build_season(args.events, args.players, args.rounds, args.final)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    ids = list(circuit.events.values_list("tournament_id", flat=True))
    late = list(
        circuit.events.filter(tournament__status="running").values_list("tournament_id", flat=True)
    )
    snapshot = ranking_for_read(circuit)
    print(
        f"database: {connection.vendor}; built {args.events} events x {args.players} players x "
        f"{args.rounds * 4} games, {len(snapshot.rows)} people ranked, "
        f"{circuit.final.players.count()} entered in the final of {args.final}, "
        f"in {time.perf_counter() - started:.1f}s"
    )

    def raw() -> None:
        listed = ",".join(map(str, ids))
        with connection.cursor() as cursor:
            for statement in (RAW_STANDINGS, RAW_PEOPLE):
                cursor.execute(statement.format(ids=listed))
                cursor.fetchall()

    raw()
    raw_ms = statistics.median(timed(raw))
    print(f"raw SQL read of every event's results (median of 5): {raw_ms:8.1f} ms")

    one = []
    queries = 0
    for tournament_id in late:
        # A late qualifier finishing: what the job runs after its tournament is finished.
        Tournament.objects.filter(pk=tournament_id).update(status="finished")
        with CaptureQueriesContext(connection) as captured:
            began = time.perf_counter()
            circuit_follow_tournament(tournament_id=tournament_id)
            one.append((time.perf_counter() - began) * 1000)
        queries = len(captured)
    incremental = statistics.median(one)
    print(
        f"one event finishing, ranking recomputed (median of {len(one)}): {incremental:8.1f} ms "
        f"ratio {incremental / raw_ms:.1f}  ({queries} queries; target 1000 ms)"
    )
    full = statistics.median(timed(lambda: circuit_refresh_all(circuit=circuit), 3))
    print(
        f"full recompute, every event read again (median of 3): {full:8.1f} ms  "
        f"ratio {full / raw_ms:.1f}"
    )
    drop()


if __name__ == "__main__":
    main()
