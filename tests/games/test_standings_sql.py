"""The recompute's SQL sums against the engine, on random tournaments in the database.

The recompute sums the racks in SQL and hands the engine one row per player (or per series
for head_to_head, and per finishing place for placement points); `scoring.standings.
compute_standings` ranks from one line per rack instead, the engine's own reading of the
rules. Hypothesis builds tournaments straight into the tables (no services: a few queries
an example): tables of 2 to 4, one to three games a table, results confirmed, left
unconfirmed or corrected, one or two winners (a tied pool end), close scores so that
ties are everywhere (places, series, table wins, ranks), sanctions (some voided) and
timeouts, substitutes (credited or not), withdrawn players, late entries (each way of
counting missed rounds), lots of their own, a placement table of its own. Each example
is ranked by a drawn ranking and by fixed ones covering every path of `ranked_rows`
(per-player sums, series sums in SQL, series lines for head_to_head, placement counted
in one pass with the sums, and with series metrics); every row must be the engine's:
rank, player and every metric.

One difference is by design (`scoring.standings`, "substitute game"): from the database a
table stays one part, the substitute's seat its player's for head_to_head and for who met
whom (opponents' score), where game lines would split the series into parts. So on a
tournament with substitutes a ranking with series metrics is checked against the engine
ranking series lines summed per table and player (one part each, in plain Python).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game, Penalty, RackEntry, Result, Seat, Standings, Table, with_finishes
from games.services.standings import games_per_missed_round, standings_recompute
from scoring.placement import as_stored, placement_totals
from scoring.rules import PRESETS
from scoring.standings import (
    HEAD_TO_HEAD,
    MATCH_METRICS,
    METRICS,
    SERIES_METRICS,
    GameLine,
    SeriesLine,
    StandingRow,
    compute_standings,
    compute_standings_from_series,
    countback,
    finishes,
    needs_extra,
    needs_placement,
    needs_series,
)
from tournaments.models import Player, Round, Tournament

pytestmark = pytest.mark.django_db

RANKABLE = sorted(k for k, m in METRICS.items() if m.direction and k not in MATCH_METRICS)
# Every path of `ranked_rows`, whatever the drawn ranking.
FIXED = (
    ["games_won", "score"],
    ["table_wins", "opponents_score", "score"],
    ["placement_points", "first_places", "best_game"],
    ["opponents_score", "placement_points", "rack_total", "lot"],
    ["score", HEAD_TO_HEAD, "first_places"],
    ["second_best_game", "won_per_game", "table_wins"],
)
OWN_TABLE = {2: (3, 0), 3: (5, 2, 0), 4: (5, 3, 3, 0)}


class Rollback(Exception):
    """Raised to undo one example's tournament."""


def build(data: st.DataObject, user) -> Tournament:
    """A random tournament, straight into the tables."""
    draw = data.draw
    rules = PRESETS["standard"].as_dict()
    if draw(st.booleans()):
        rules["placement_points"] = as_stored(OWN_TABLE)
    count = draw(st.integers(3, 11), label="players")
    rounds = draw(st.integers(1, 3), label="rounds")
    t = Tournament.objects.create(
        slug="sql-sums",
        name="SQL sums",
        rules=rules,
        ranking=["score"],
        credit_substitute_games=draw(st.booleans()),
        missed_rounds=draw(st.sampled_from(["not_played", "average", "zero"])),
    )
    players = Player.objects.bulk_create(
        Player(
            tournament=t,
            number=n,
            name=f"P{n}",
            status=draw(st.sampled_from(["active"] * 5 + ["withdrawn"])),
            joined_round=draw(st.none() | st.integers(2, 4)),
            lot=draw(st.none() | st.integers(0, 3)),
        )
        for n in range(1, count + 1)
    )
    ids = [p.pk for p in players]
    substitutes = draw(st.booleans(), label="substitutes")
    for number in range(1, rounds + 1):
        round_ = Round.objects.create(tournament=t, number=number, method="random")
        order = draw(st.permutations(ids))
        sizes = []
        while sum(sizes) + 2 <= len(order):
            sizes.append(draw(st.integers(2, min(4, len(order) - sum(sizes)))))
        groups, at = [], 0
        for size in sizes:
            groups.append(order[at : at + size])
            at += size
        for n, group in enumerate(groups, start=1):
            table = Table.objects.create(round=round_, number=n)
            Seat.objects.bulk_create(
                Seat(table=table, round=round_, player_id=p, position=i)
                for i, p in enumerate(group, start=1)
            )
            for g in range(1, draw(st.integers(1, 3)) + 1):
                game = Game.objects.create(table=table, number=g, starter_position=1)
                play(data, user, game, group, substitutes)
    return t


def play(data: st.DataObject, user, game: Game, group: list[int], substitutes: bool) -> None:
    """One game's results (unconfirmed, confirmed, or corrected) and penalties."""
    draw = data.draw
    statuses = draw(
        st.sampled_from(
            [["confirmed"]] * 6 + [["submitted"], ["superseded", "confirmed"], ["discarded"]]
        )
    )
    now = timezone.now()
    for version, status in enumerate(statuses, start=1):
        winners = draw(st.lists(st.sampled_from(group), min_size=1, max_size=2, unique=True))
        end = "pool_exhausted" if len(winners) > 1 or draw(st.booleans()) else "rummikub"
        result = Result.objects.create(
            game=game,
            version=version,
            end=end,
            status=status,
            submitted_by=user,
            confirmed_by=user if status != "submitted" else None,
            confirmed_at=now if status != "submitted" else None,
        )
        charges = {p: draw(st.integers(0, 4)) for p in group if p not in winners}
        RackEntry.objects.bulk_create(
            with_finishes(
                [
                    RackEntry(
                        result=result,
                        player_id=p,
                        points=charges.get(p, 0),
                        tile_count=None if p in winners else 2,
                        charge=charges.get(p, 0),
                        score=(
                            sum(charges.values()) // len(winners) + draw(st.integers(-2, 2))
                            if p in winners
                            else -charges[p]
                        ),
                        winner=p in winners,
                        substitute="Sub" if substitutes and draw(st.integers(0, 5)) == 0 else "",
                    )
                    for p in group
                ]
            )
        )
    for p in group:
        kind = draw(st.sampled_from([None, None, None, "sanction", "timeout"]))
        if kind:
            Penalty.objects.create(
                game=game,
                player_id=p,
                kind=kind,
                points=draw(st.integers(1, 4)) if kind == "sanction" else 0,
                recorded_by=user,
                voided=(voided := draw(st.booleans()) and kind == "sanction"),
                voided_by=user if voided else None,
                voided_at=now if voided else None,
            )


def engine_rows(t: Tournament) -> list[tuple[int, int, dict[str, Any]]]:
    """The engine's rows from one line per rack of a confirmed result, read plainly."""
    sanctions: dict[tuple[int, int], int] = {}
    for game, player, points in Penalty.objects.filter(
        player__tournament=t, kind="sanction", voided=False
    ).values_list("game_id", "player_id", "points"):
        sanctions[game, player] = sanctions.get((game, player), 0) + points
    lines = [
        GameLine(
            player,
            number,
            table,
            game,
            score - sanctions.get((game, player), 0),
            charge,
            winner,
            winner and end == "rummikub",
            substitute != "",
        )
        for player, number, table, game, score, charge, winner, end, substitute in (
            RackEntry.objects.filter(player__tournament=t, result__status="confirmed").values_list(
                "player_id",
                "result__game__table__round__number",
                "result__game__table_id",
                "result__game_id",
                "score",
                "charge",
                "winner",
                "result__end",
                "substitute",
            )
        )
    ]
    players = list(t.players.all())
    per_round = games_per_missed_round(t)
    common: dict[str, Any] = {
        "players": [p.pk for p in players],
        "penalties": {
            p.pk: Penalty.objects.filter(player=p, voided=False).count() for p in players
        },
        "ranking": t.ranking,
        "lot_seed": f"{t.pk}:{t.slug}",
        "withdrawn": {p.pk for p in players if p.status == "withdrawn"},
        "missed_games": {p.pk: (p.joined_round - 1) * per_round for p in players if p.joined_round},
        "missed_rounds": t.missed_rounds,
        "lots": {p.pk: p.lot for p in players if p.lot is not None},
    }
    credit = t.credit_substitute_games
    if needs_series(t.ranking) and any(line.substitute for line in lines):
        rows = one_part_per_table(lines, credit, t.rule_set.placement_table(), common)
    else:
        rows = compute_standings(
            lines=lines,
            credit_substitutes=credit,
            placement=t.rule_set.placement_table(),
            **common,
        )
    out = []
    for row in rows:
        metrics = dict(row.metrics)
        if not needs_series(t.ranking):  # the per-player sums leave the series metrics out
            metrics = {k: v for k, v in metrics.items() if k not in SERIES_METRICS}
        out.append((row.rank, row.player, metrics))
    return out


def one_part_per_table(
    lines: list[GameLine], credit: bool, placement, common: dict[str, Any]
) -> list[StandingRow]:
    """The engine's rows from series lines summed per table and player, one part each:
    the database's reading of a table where substitutes sat (see the module doc)."""
    counted = [line for line in lines if credit or not line.substitute]
    sums: dict[tuple[int, int], SeriesLine] = {}
    for line in counted:
        won, rummikub = int(line.winner), int(line.rummikub)
        charge = 0 if line.winner else line.charge
        got = sums.get((line.table, line.player))
        if got is None:
            sums[line.table, line.player] = SeriesLine(
                line.player, line.round, line.table, 1, won, rummikub, line.score, charge,
                line.score,
            )  # fmt: skip
            continue
        got.games += 1
        got.won += won
        got.rummikubs += rummikub
        got.score += line.score
        got.charge += charge
        got.best_game = max(got.best_game, line.score)
    scores: dict[int, list[int]] = {}
    for line in counted:
        scores.setdefault(line.player, []).append(line.score)
    ranking = common["ranking"]
    return compute_standings_from_series(
        series=list(sums.values()),
        placed=(
            placement_totals(finishes(lines, credit), placement)
            if needs_placement(ranking)
            else None
        ),
        extra=countback(scores) if needs_extra(ranking) else None,
        **common,
    )


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_the_recompute_ranks_random_tournaments_exactly_as_the_engine(data, alice):
    drawn = data.draw(
        st.lists(st.sampled_from(RANKABLE), min_size=1, max_size=4, unique=True),
        label="ranking",
    )
    try:
        with transaction.atomic():
            t = build(data, alice)
            for ranking in (drawn, *FIXED):
                Tournament.objects.filter(pk=t.pk).update(ranking=ranking)
                Standings.objects.filter(tournament=t).delete()
                t.refresh_from_db()
                snapshot = standings_recompute(tournament_id=t.pk)
                assert snapshot is not None
                got = [(r["rank"], r["player"]["id"], r["metrics"]) for r in snapshot.rows]
                assert got == engine_rows(t), ranking
            raise Rollback
    except Rollback:
        pass
