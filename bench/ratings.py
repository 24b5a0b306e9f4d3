"""Benchmark: club ratings from scratch and per new game, against reading the same rows.

    python -m bench.ratings --members 500 --tournaments 200
    python -m bench.ratings --quick       # small sizes, what the test suite runs

Builds a club (its members, rated tournaments of 16 members at 4 tables, one round of 4
games each, every game confirmed) in the configured database — use PostgreSQL:
`DATABASE_URL=postgres://postgres@127.0.0.1:5432/rummitab` — then prints:

* raw SQL: one query reading every rated rack row in club order (the baseline);
* the rating arithmetic alone (`scoring.ratings.rate_games`) over the same games;
* a full recompute (`ratings_update(from_scratch=True)`, what `manage.py ratings_recompute`
  runs), and its ratio to the raw read;
* an update after one new confirmed game (what the worker runs after a result), median of
  5 new games, and its ratio to the raw read.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from bench.standings import timed
from games.models import Game, RackEntry, RatingChange, Result, Seat, Table, with_finishes
from games.services.ratings import rated_games, ratings_update
from scoring.ratings import rate_games
from scoring.rules import PRESETS
from tournaments.models import Club, Member, Player, Round, Tournament

SLUG = "bench-ratings"
RAW_READ = """
SELECT g.id, res.id, p.member_id, r.score
FROM games_rackentry r
JOIN games_result res ON res.id = r.result_id AND res.status = 'confirmed'
JOIN games_game g ON g.id = res.game_id
JOIN games_table t ON t.id = g.table_id
JOIN tournaments_round rd ON rd.id = t.round_id
JOIN tournaments_tournament tt ON tt.id = rd.tournament_id
JOIN tournaments_player p ON p.id = r.player_id
WHERE tt.club_id = %s AND tt.rated AND p.member_id IS NOT NULL
ORDER BY tt.starts_on, tt.id, rd.number, t.number, g.number, p.member_id
"""


def drop() -> None:
    club = Club.objects.filter(slug=SLUG).first()
    if club is None:
        return
    RatingChange.objects.filter(member__club=club).delete()
    RackEntry.objects.filter(player__tournament__club=club).delete()
    Seat.objects.filter(round__tournament__club=club).delete()
    Tournament.objects.filter(club=club).delete()
    Member.objects.filter(club=club).delete()
    club.delete()


def play(tournament: Tournament, number: int, groups: list[list[Player]], rng, user) -> None:
    """One round of the tournament at the given tables, every game confirmed."""
    round_ = Round.objects.create(tournament=tournament, number=number, method="random")
    tables = Table.objects.bulk_create(
        Table(round=round_, number=n) for n in range(1, len(groups) + 1)
    )
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, player=p, position=pos)
        for table, group in zip(tables, groups, strict=True)
        for pos, p in enumerate(group, start=1)
    )
    games = Game.objects.bulk_create(
        Game(table=table, number=n, starter_position=n) for table in tables for n in range(1, 5)
    )
    now = timezone.now()
    results = Result.objects.bulk_create(
        Result(game=g, version=1, end="rummikub", status="confirmed", submitted_by=user,
               confirmed_by=user, confirmed_at=now)
        for g in games
    )  # fmt: skip
    group_of = {table.pk: group for table, group in zip(tables, groups, strict=True)}
    racks = []
    for result, game in zip(results, games, strict=True):
        group = group_of[game.table_id]
        winner = rng.choice(group)
        charges = {p.pk: rng.randint(1, 90) for p in group if p != winner}
        game_racks = []
        for p in group:
            won = p == winner
            score = sum(charges.values()) if won else -charges[p.pk]
            charge = charges.get(p.pk, 0)
            game_racks.append(
                RackEntry(
                    result=result, player=p, points=charge, charge=charge, score=score, winner=won
                )
            )
        racks += with_finishes(game_racks)
    RackEntry.objects.bulk_create(racks, batch_size=5000)


@transaction.atomic
def build(members: int, tournaments: int, seed: int = 1) -> Club:
    drop()
    rng = random.Random(seed)
    user, _ = get_user_model().objects.get_or_create(username="bench")
    club = Club.objects.create(slug=SLUG, name=SLUG)
    people = Member.objects.bulk_create(
        Member(club=club, name=f"Member {n}") for n in range(1, members + 1)
    )
    for n in range(tournaments):
        t = Tournament.objects.create(
            slug=f"{SLUG}-{n}", name=f"{SLUG} {n}", rules=PRESETS["standard"].as_dict(),
            ranking=["score"], club=club, rated=True,
            starts_on=date(2026, 1, 1) + timedelta(days=n),
        )  # fmt: skip
        chosen = rng.sample(people, 16)
        players = Player.objects.bulk_create(
            Player(tournament=t, number=i, name=m.name, member=m)
            for i, m in enumerate(chosen, start=1)
        )
        play(t, 1, [players[i : i + 4] for i in range(0, 16, 4)], rng, user)
    return club


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=500)
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="16 members x 2 tournaments (CI)")
    args = parser.parse_args()
    if args.quick:
        args.members, args.tournaments = 16, 2

    started = time.perf_counter()
    club = build(args.members, args.tournaments)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    games = rated_games(club.pk)
    print(
        f"database: {connection.vendor}; built {args.members} members, {args.tournaments} "
        f"tournaments = {len(games)} rated games in {time.perf_counter() - started:.1f}s"
    )

    def raw() -> None:
        with connection.cursor() as cursor:
            cursor.execute(RAW_READ, [club.pk])
            cursor.fetchall()

    raw()
    raw_ms = statistics.median(timed(raw))
    print(f"raw SQL read of the rated racks (median of 5): {raw_ms:8.1f} ms")
    math_ms = statistics.median(timed(lambda: rate_games(g.scores for g in games), 3))
    print(f"rating arithmetic alone (median of 3):         {math_ms:8.1f} ms")
    scratch = timed(lambda: ratings_update(club_id=club.pk, from_scratch=True), 3)
    full = statistics.median(scratch)
    print(
        f"full recompute from scratch (median of 3):     {full:8.1f} ms  ratio {full / raw_ms:.1f}"
    )

    rng = random.Random(2)
    user = get_user_model().objects.get(username="bench")
    people = list(Member.objects.filter(club=club))
    incremental = []
    for n in range(5):
        t = Tournament.objects.create(
            slug=f"{SLUG}-new-{n}", name="new", rules=PRESETS["standard"].as_dict(),
            ranking=["score"], club=club, rated=True, starts_on=date(2030, 1, 1 + n),
        )  # fmt: skip
        chosen = rng.sample(people, 4)
        players = Player.objects.bulk_create(
            Player(tournament=t, number=i, name=m.name, member=m)
            for i, m in enumerate(chosen, start=1)
        )
        # One table of four: 4 new games; the update rates exactly those.
        play(t, 1, [players], rng, user)
        began = time.perf_counter()
        rated = ratings_update(club_id=club.pk)
        incremental.append((time.perf_counter() - began) * 1000 / rated)
    per_game = statistics.median(incremental)
    print(
        f"update after new games, per game (median of 5): {per_game:6.1f} ms  "
        f"ratio {per_game / raw_ms:.2f}"
    )
    drop()


if __name__ == "__main__":
    main()
