"""standings_recompute against the database: what counts, idempotence, the query bound.

The CLUB tournament is entered through the services, so the rows are what real use makes.
Every loser's rack is a single 5 (charge 5) unless said otherwise, which keeps the scores easy
to work out by hand: a rummikub gives the winner +15 and each loser -5; a pool-exhausted
game whose winner holds "R1" makes each loser pay 5 - 1 = 4 (docs/rules/scoring.md, difference
scoring), so the winner scores +12 and each loser -4.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import F

from games.models import Game, Penalty, RackEntry, Result, Standings
from games.services import standings as services
from games.services.results import penalty_record, penalty_void, result_confirm, result_submit
from games.services.standings import standings_prune, standings_recompute
from games.tasks import recompute_standings
from scoring.standings import SERIES_METRICS, GameLine, compute_standings, needs_series
from tests.factories import make_tournament, open_round
from tests.games.helpers import seated
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

# The tournament, the players, the sums, the insert returning its id.
MAX_QUERIES = 4


def racks(game: Game, special: int, tiles: str) -> list[dict]:
    """``special`` holds ``tiles``; every other seat holds a 5 (of its own colour: a game
    has only two of each tile)."""
    fives = iter(["R5", "B5", "K5"])
    return [{"player": p, "tiles": tiles if p == special else next(fives)} for p in seated(game)]


def rummikub(game: Game, by, winner: int, based_on: int = 0) -> Result:
    """``winner`` went out; every other seat holds a 5."""
    return result_submit(
        game=game,
        by=by,
        based_on=based_on,
        end="rummikub",
        winner=winner,
        racks=racks(game, winner, ""),
    )


def exhausted(game: Game, by, lowest: int) -> Result:
    """The pool ran out; ``lowest`` holds R1 and wins, every other seat holds a 5."""
    return result_submit(
        game=game, by=by, based_on=0, end="pool_exhausted", racks=racks(game, lowest, "R1")
    )


def games_of(round_) -> list[list[Game]]:
    return [list(table.games.order_by("number")) for table in round_.tables.order_by("number")]


@pytest.fixture
def club(alice, bob, carol) -> tuple[Tournament, dict[int, int]]:
    """8 players, 2 rounds, tables of 4 with a game per seat; bob enters, carol confirms.

    Round 1, table A (1 2 3 4): game 1 won by 1, and a referee takes 10 points off 2 in
    it; a 15-point sanction on 3 there is voided. Game 2 was first entered as won by 2,
    then corrected to won by 3: only the correction counts. Game 3: pool exhausted, 4
    lowest. Game 4 won by 1; 4 gets a timeout penalty in it.
    Round 1, table B (5 6 7 8): games won by 5, 6, 5; game 4 (won by 8) is entered but
    never confirmed, so it does not count.
    Round 2, table C (1 5 2 6): games won by 2 and 6; table D (3 7 4 8): won by 7, then
    pool exhausted with 8 lowest. The other games of round 2 are not played yet.
    """
    t = make_tournament(alice, players=8, scorekeepers=[bob, carol], results_need_confirmation=True)
    ids = list(t.players.order_by("number").values_list("id", flat=True))
    p = dict(enumerate(ids, start=1))

    def confirm(result: Result) -> Result:
        return result_confirm(result=result, by=carol)

    (a, b) = games_of(open_round(t, alice))
    confirm(rummikub(a[0], bob, p[1]))
    confirm(rummikub(a[1], bob, p[2]))
    confirm(rummikub(a[1], bob, p[3], based_on=1))
    confirm(exhausted(a[2], bob, p[4]))
    confirm(rummikub(a[3], bob, p[1]))
    penalty_record(game=a[0], by=bob, player=p[2], kind="sanction", points=10)
    voided = penalty_record(game=a[0], by=bob, player=p[3], kind="sanction", points=15)
    penalty_void(penalty=voided, by=alice)
    penalty_record(game=a[3], by=bob, player=p[4], kind="timeout")

    confirm(rummikub(b[0], bob, p[5]))
    confirm(rummikub(b[1], bob, p[6]))
    confirm(rummikub(b[2], bob, p[5]))
    rummikub(b[3], bob, p[8])  # submitted, waiting for a confirmation that never comes

    (c, d) = games_of(
        open_round(t, alice, tables=[[p[1], p[5], p[2], p[6]], [p[3], p[7], p[4], p[8]]])
    )
    confirm(rummikub(c[0], bob, p[2]))
    confirm(rummikub(c[1], bob, p[6]))
    confirm(rummikub(d[0], bob, p[7]))
    confirm(exhausted(d[1], bob, p[8]))
    t.refresh_from_db()
    return t, p


def metric(snapshot: Standings, key: str, p: dict[int, int]) -> dict[int, int]:
    """``key`` for each player, by start order (1..8) rather than by id."""
    number = {player_id: n for n, player_id in p.items()}
    return {number[row["player"]["id"]]: row["metrics"][key] for row in snapshot.rows}


# By hand, per table (series scores), then in total:
# A: 1: +15 -5 -4 +15 = 21; 2: -5-10 -5 -4 -5 = -29; 3: -5 +15 -4 -5 = 1; 4: -5 -5 +12 -5 = -3
# B: 5: +15 -5 +15 = 25; 6: -5 +15 -5 = 5; 7: -15; 8: -15
# C: 1: -10; 5: -10; 2: +10; 6: +10 (2 and 6 tie for the table)
# D: 3: -5 -4 = -9; 7: +15 -4 = 11; 4: -9; 8: -5 +12 = 7
CLUB_EXPECTED = {
    "score": {1: 11, 2: -19, 3: -8, 4: -12, 5: 15, 6: 15, 7: -4, 8: -8},
    "games_won": {1: 2, 2: 1, 3: 1, 4: 1, 5: 2, 6: 2, 7: 1, 8: 1},
    # 1-4 played 4 games at A (the correction replaces the first entry, it is not a fifth)
    # and 2 at C or D; 5-8 played only 3 at B, whose 4th result is unconfirmed.
    "games_played": {1: 6, 2: 6, 3: 6, 4: 6, 5: 5, 6: 5, 7: 5, 8: 5},
    # the pool-exhausted wins of 4 and 8 are not rummikubs
    "rummikubs": {1: 2, 2: 1, 3: 1, 4: 0, 5: 2, 6: 2, 7: 1, 8: 0},
    # 5 a lost game, 4 a lost pool-exhausted one; 2's sanction is not a charge:
    # 2 lost games 1 2 3 4 at A and 2 at C: 5 + 5 + 4 + 5 + 5 = 24
    "rack_total": {1: 19, 2: 24, 3: 23, 4: 24, 5: 15, 6: 15, 7: 19, 8: 20},
    "table_wins": {1: 1, 2: 1, 3: 0, 4: 0, 5: 1, 6: 1, 7: 1, 8: 0},
    # 1: met 2 3 4 (-19 -8 -12), then 5 2 6 (15 -19 15): -39 + 11 = -28; and so on.
    "opponents_score": {1: -28, 2: 32, 3: -44, 4: -36, 5: 10, 6: 10, 7: -6, 8: 2},
    # 2's best game is the win at C; 2's game 1 at A counts -5 - 10 = -15
    "best_game": {1: 15, 2: 15, 3: 15, 4: 12, 5: 15, 6: 15, 7: 15, 8: 12},
    # the voided sanction of 3 is not a penalty; the timeout of 4 is
    "penalties": {1: 0, 2: 1, 3: 0, 4: 1, 5: 0, 6: 0, 7: 0, 8: 0},
}


@pytest.mark.parametrize("key", list(CLUB_EXPECTED))
def test_club_metric(club, key):
    t, p = club
    if key in SERIES_METRICS:
        # Series metrics are computed (and shown) when the ranking uses them.
        Tournament.objects.filter(pk=t.pk).update(ranking=["games_won", "score", key])
    snapshot = standings_recompute(tournament_id=t.pk)
    assert metric(snapshot, key, p) == CLUB_EXPECTED[key]


def test_the_snapshot_is_stored_for_the_current_version(club):
    t, p = club
    snapshot = standings_recompute(tournament_id=t.pk)
    stored = Standings.objects.get(tournament=t, computed_version=t.results_version)
    assert stored.pk == snapshot.pk
    assert (stored.rows, stored.ranking, stored.computed_at) == (
        snapshot.rows,
        snapshot.ranking,
        snapshot.computed_at,
    )
    assert stored.ranking == t.ranking == ["games_won", "score"]
    # games won, then score: 5 and 6 (2 wins, 15) share the first place, 1 (2 wins, 11) is 3rd
    assert [(row["player"]["id"], row["rank"]) for row in snapshot.rows[:3]] == [
        (p[5], 1),
        (p[6], 1),
        (p[1], 3),
    ]
    first = snapshot.rows[0]
    assert first["player"] == {
        "id": p[5],
        "number": 5,
        "name": "Player 5",
        "club": "Club 1",
        "status": "active",
    }
    assert list(first["metrics"]) == [
        "score",
        "games_won",
        "games_played",
        "rummikubs",
        "rack_total",
        "best_game",
        "penalties",
        "lot",
    ]  # no series metric: this ranking does not use one, so it is not computed


def game_level_rows(t: Tournament) -> list[dict]:
    """The rows the game-level path (``compute_standings``) makes of a plain ORM reading,
    one line per rack of a confirmed result, sanctions taken off game by game: the way the
    recompute read the database before it summed series in SQL."""
    sanctions: dict[tuple[int, int], int] = {}
    for game, player, points in Penalty.objects.filter(
        game__table__round__tournament=t, kind=Penalty.Kind.SANCTION, voided=False
    ).values_list("game_id", "player_id", "points"):
        sanctions[game, player] = sanctions.get((game, player), 0) + points
    racks = RackEntry.objects.filter(
        result__game__table__round__tournament=t, result__status=Result.Status.CONFIRMED
    ).values_list(
        "player_id",
        "result__game__table__round__number",
        "result__game__table_id",
        "result__game_id",
        "score",
        "charge",
        "winner",
        "result__end",
    )
    lines = [
        GameLine(
            player,
            round_number,
            table,
            game,
            score - sanctions.get((game, player), 0),
            charge,
            winner,
            winner and end == Result.End.RUMMIKUB,
        )
        for player, round_number, table, game, score, charge, winner, end in racks
    ]
    players = {p.pk: p for p in t.players.all()}
    penalties = {
        pk: player.penalties.filter(voided=False).count() for pk, player in players.items()
    }
    rows = compute_standings(
        players=list(players),
        lines=lines,
        penalties=penalties,
        ranking=t.ranking,
        lot_seed=f"{t.pk}:{t.slug}",
    )
    return [
        {
            "rank": row.rank,
            "player": {
                "id": row.player,
                "number": players[row.player].number,
                "name": players[row.player].name,
                "club": players[row.player].club,
                "status": players[row.player].status,
            },
            "metrics": row.metrics,
        }
        for row in rows
    ]


@pytest.mark.parametrize(
    "ranking",
    [
        ["games_won", "score"],
        ["score", "head_to_head", "lot"],
        ["table_wins", "rack_total"],
        # the finishing order of every game: a correction, a sanction, a tied pool end
        ["placement_points", "first_places", "score"],
        ["score", "opponents_score", "first_places"],
    ],
)
def test_sums_in_sql_give_the_game_level_standings(club, ranking):
    t, _ = club
    Tournament.objects.filter(pk=t.pk).update(ranking=ranking)
    t.refresh_from_db()
    assert standings_recompute(tournament_id=t.pk).rows == expected_rows(t)


def expected_rows(t: Tournament) -> list[dict]:
    """The game-level rows, less the series metrics when the ranking does not use them
    (per-player totals leave them out)."""
    rows = game_level_rows(t)
    if not needs_series(t.ranking):
        for row in rows:
            row["metrics"] = {k: v for k, v in row["metrics"].items() if k not in SERIES_METRICS}
    return rows


# --- idempotence and concurrency ------------------------------------------------------------
def test_a_second_recompute_returns_the_stored_snapshot(club, django_assert_num_queries):
    t, _ = club
    first = standings_recompute(tournament_id=t.pk)
    with django_assert_num_queries(2):  # the tournament with its snapshot's id, the snapshot
        again = standings_recompute(tournament_id=t.pk)
    assert (again.pk, again.computed_version, again.rows) == (
        first.pk,
        first.computed_version,
        first.rows,
    )
    assert Standings.objects.filter(tournament=t).count() == 1


def test_a_new_version_gets_a_new_snapshot_and_the_old_one_stays(club, bob):
    t, p = club
    before = standings_recompute(tournament_id=t.pk)
    game = Game.objects.get(
        table__round__tournament=t, table__round__number=1, number=1, table__number=1
    )
    penalty_record(game=game, by=bob, player=p[1], kind="sanction", points=5)
    t.refresh_from_db()
    after = standings_recompute(tournament_id=t.pk)
    assert after.computed_version == before.computed_version + 1 == t.results_version
    assert metric(after, "score", p)[1] == metric(before, "score", p)[1] - 5
    assert Standings.objects.filter(tournament=t).count() == 2


def test_a_snapshot_stored_meanwhile_by_another_worker_is_kept(club, monkeypatch):
    t, _ = club
    compute = services.compute_standings_from_totals

    def another_worker_stores_first(**kwargs):
        rows = compute(**kwargs)
        Standings.objects.create(
            tournament=t, computed_version=t.results_version, ranking=t.ranking, rows=["theirs"]
        )
        return rows

    monkeypatch.setattr(services, "compute_standings_from_totals", another_worker_stores_first)
    snapshot = standings_recompute(tournament_id=t.pk)
    assert snapshot.rows == ["theirs"]
    assert Standings.objects.filter(tournament=t).count() == 1


def test_without_returning_the_insert_still_gives_the_id(club, monkeypatch):
    """An SQLite before 3.35 has no RETURNING: the row count, and the id read back (the
    same statements on every database, so this runs wherever the suite does)."""
    monkeypatch.setattr(connection.features, "can_return_columns_from_insert", False)
    shown = []
    monkeypatch.setattr(services, "standings_shown", lambda slug, digest: shown.append(slug))
    t, _ = club
    Standings.objects.all().delete()
    snapshot = standings_recompute(tournament_id=t.pk)
    assert Standings.objects.get(pk=snapshot.pk).computed_version == t.results_version
    assert shown == [t.slug]  # stored by this recompute: its pages move
    assert standings_recompute(tournament_id=t.pk).pk == snapshot.pk  # stored: not again


def test_a_deleted_tournament_has_no_standings():
    assert standings_recompute(tournament_id=987_654) is None


def test_players_without_results_share_the_first_place(alice):
    t = make_tournament(alice, players=3)
    snapshot = standings_recompute(tournament_id=t.pk)
    assert [row["rank"] for row in snapshot.rows] == [1, 1, 1]
    assert all(
        value == 0 for row in snapshot.rows for key, value in row["metrics"].items() if key != "lot"
    )


# --- the query bound --------------------------------------------------------------------------
# Big enough to show that the queries do not grow (three times `club`'s players, a round
# more, every game played); a larger field proves nothing more and costs the suite seconds.
BIG_PLAYERS, BIG_ROUNDS = 24, 3


@pytest.fixture
def big(alice, bob) -> Tournament:
    """24 players, 3 rounds of 6 tables, every game played (72 results), a few penalties."""
    t = make_tournament(alice, name="Big Open", players=BIG_PLAYERS, scorekeepers=[bob])
    ids = list(t.players.order_by("number").values_list("id", flat=True))
    for n in range(BIG_ROUNDS):
        order = ids[n::4] + [i for i in ids if i not in ids[n::4]]  # new tables each round
        round_ = open_round(t, alice, tables=[order[i : i + 4] for i in range(0, BIG_PLAYERS, 4)])
        for table in games_of(round_):
            for game in table:  # each seat wins one game of the series
                rummikub(game, bob, seated(game)[game.number - 1])
            penalty_record(
                game=table[0], by=bob, player=seated(table[0])[1], kind="sanction", points=3
            )
            penalty_record(game=table[1], by=bob, player=seated(table[1])[2], kind="timeout")
    t.refresh_from_db()
    return t


@pytest.mark.parametrize("ranking", [["games_won", "score"], ["score", "opponents_score"]])
def test_the_number_of_queries_does_not_grow_with_the_tournament(
    club, big, django_assert_max_num_queries, ranking
):
    counts = []
    for t in (club[0], big):
        Tournament.objects.filter(pk=t.pk).update(ranking=ranking)
        t.refresh_from_db()
        with django_assert_max_num_queries(MAX_QUERIES) as captured:
            snapshot = standings_recompute(tournament_id=t.pk)
        counts.append(len(captured))
        assert not any("SAVEPOINT" in query["sql"] for query in captured)
    assert counts[0] == counts[1]
    assert len(snapshot.rows) == BIG_PLAYERS
    assert {row["metrics"]["games_played"] for row in snapshot.rows} == {4 * BIG_ROUNDS}
    assert snapshot.rows == expected_rows(big)


@pytest.mark.django_db(transaction=True)
def test_the_query_bound_holds_outside_a_transaction_as_in_a_worker(
    club, django_assert_max_num_queries
):
    # Here every statement commits on its own: the insert is one, with no BEGIN and COMMIT
    # around it (they would count as queries too).
    t, _ = club
    Standings.objects.all().delete()  # each commit above has recomputed already (eagerly)
    with django_assert_max_num_queries(MAX_QUERIES) as captured:
        snapshot = standings_recompute(tournament_id=t.pk)
    assert [query["sql"] for query in captured].count("COMMIT") == 0
    assert Standings.objects.get(pk=snapshot.pk).rows == snapshot.rows
    assert metric(snapshot, "score", club[1]) == CLUB_EXPECTED["score"]


# --- pruning old snapshots --------------------------------------------------------------------
def sanction_then_recompute(t: Tournament, by, player: int) -> Standings:
    game = Game.objects.get(
        table__round__tournament=t, table__round__number=1, number=1, table__number=1
    )
    penalty_record(game=game, by=by, player=player, kind="sanction", points=1)
    # What the standings job does: recompute, then prune (called here, not enqueued).
    version = recompute_standings(t.pk)
    return Standings.objects.get(tournament=t, computed_version=version)


def test_only_the_newest_snapshots_are_kept(club, bob, settings):
    settings.STANDINGS_KEEP = 3
    t, p = club
    other = make_tournament(bob, name="Other Open", players=4)
    kept_elsewhere = standings_recompute(tournament_id=other.pk)
    stored = [sanction_then_recompute(t, bob, p[1]) for _ in range(settings.STANDINGS_KEEP + 5)]
    t.refresh_from_db()
    versions = list(
        Standings.objects.filter(tournament=t)
        .order_by("-computed_version")
        .values_list("computed_version", flat=True)
    )
    assert versions == [s.computed_version for s in reversed(stored[-3:])]
    assert versions[0] == t.results_version
    assert Standings.objects.filter(pk=kept_elsewhere.pk).exists()  # another tournament's


@pytest.mark.django_db(transaction=True)
def test_pruning_is_one_delete_and_keeps_the_newest(
    club, bob, settings, django_assert_max_num_queries
):
    settings.STANDINGS_KEEP = 2
    t, p = club
    for _ in range(3):
        sanction_then_recompute(t, bob, p[1])
    Tournament.objects.filter(pk=t.pk).update(results_version=F("results_version") + 1)
    snapshot = standings_recompute(tournament_id=t.pk)
    assert Standings.objects.filter(tournament=t).count() == 3  # the recompute prunes nothing
    with django_assert_max_num_queries(3) as captured:  # BEGIN, DELETE, COMMIT
        standings_prune(tournament_id=t.pk)
    assert sum(query["sql"].startswith("DELETE") for query in captured) == 1
    newest = list(Standings.objects.filter(tournament=t).order_by("-computed_version"))
    assert len(newest) == 2 and newest[0].pk == snapshot.pk
