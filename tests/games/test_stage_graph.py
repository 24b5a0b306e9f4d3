"""The stage graph through the services and the API: A and B finals in parallel after one
qualification (rounds interleaved), table winners plus best losers, a stage named by
hand, per-stage games and seating, half-up carry, slots from a named stage, the event
file, and the standings' query bound with stages in parallel."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game
from games.services.event_file.export import event_file_export
from games.services.event_file.load import event_file_import
from games.services.results import result_submit
from games.services.rounds import round_open
from games.services.stage_entrants import stage_entrants_set
from games.services.stages import stage_close, stage_cut_preview, stage_rows
from games.services.standings import standings_recompute
from scoring.errors import Conflict, RuleError
from tests.factories import make_tournament
from tests.games.test_formats_end_to_end import close, play_round
from tournaments.models import Stage, StageEntry
from tournaments.selectors import open_stages
from tournaments.services.stages import stage_create, stage_update

pytestmark = pytest.mark.django_db


def _api(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def _qualified(alice, players=16, **stage_two):
    """16 players, one qualification round played by strength."""
    tournament = make_tournament(alice, players=players, games_per_table=1)
    stage_create(tournament=tournament, by=alice, name="Qualification", seating="random")
    play_round(round_open(tournament=tournament, by=alice, method=None), alice)
    return tournament


def test_a_and_b_finals_run_in_parallel_and_their_rounds_interleave(
    alice, django_assert_max_num_queries
):
    tournament = _qualified(alice)
    a = stage_create(
        tournament=tournament, by=alice, name="A final", kind="final",
        entry="ranks", rank_from=1, rank_to=8, seating="snake", games_per_table=2,
    )  # fmt: skip
    b = stage_create(
        tournament=tournament, by=alice, name="B final", kind="final",
        source=1, rank_from=9, rank_to=16, seating="alternating",
    )  # fmt: skip
    assert (a.entry, b.entry, b.source.number) == ("ranks", "ranks", 1)
    qualification = tournament.stages.get(number=1)
    rows = stage_rows(qualification)
    preview = close(qualification, alice)
    assert [f.stage.number for f in preview.feeds] == [2, 3]
    order = [row.player.id for row in rows]
    assert list(preview.feeds[0].result.entrants) == order[:8]
    assert list(preview.feeds[1].result.entrants) == order[8:16]
    assert [s.number for s in open_stages(tournament)] == [2, 3]
    with pytest.raises(RuleError) as caught:  # two open: the round must say which
        round_open(tournament=tournament, by=alice, method=None)
    assert caught.value.path == ("stage",)
    # Interleaved: A, B, A — each round seats its own stage's entrants only.
    r2 = round_open(tournament=tournament, by=alice, method=None, stage=2)
    r3 = round_open(tournament=tournament, by=alice, method=None, stage=3)
    assert (r2.method, r3.method) == ("snake", "alternating")
    assert {t.games.count() for t in r2.tables.all()} == {2}  # the A final's 2 games
    assert {t.games.count() for t in r3.tables.all()} == {1}  # the tournament's 1
    seated_a = set(r2.seats.values_list("player_id", flat=True))
    seated_b = set(r3.seats.values_list("player_id", flat=True))
    assert seated_a == set(order[:8]) and seated_b == set(order[8:16])
    play_round(r3, alice)  # B plays on while A is still at the table
    r4 = round_open(tournament=tournament, by=alice, method=None, stage=3)
    play_round(r2, alice)
    play_round(r4, alice)
    for stage in (a, b):
        stage = Stage.objects.select_related("tournament").get(pk=stage.pk)
        with django_assert_max_num_queries(8):
            stage_rows(stage)
    with django_assert_max_num_queries(16):
        standings_recompute(tournament_id=tournament.pk)
    assert len(stage_rows(b)[0].metrics) and stage_rows(b)[0].metrics["games_played"] == 2


def test_table_winners_and_best_losers_with_half_up_carry(alice):
    tournament = _qualified(alice, players=14)
    final = stage_create(
        tournament=tournament, by=alice, name="Final", kind="final", entry="tables",
        table_top=1, best_losers=2, carry_over="half", carry_rounding="half_up",
    )  # fmt: skip
    qualification = tournament.stages.get(number=1)
    last = qualification.rounds.get()
    tables = [list(t.seats.values_list("player_id", flat=True)) for t in last.tables.all()]
    rows = stage_rows(qualification)
    rank = {row.player.id: i for i, row in enumerate(rows)}
    winners = {min(table, key=rank.__getitem__) for table in tables}
    preview = close(qualification, alice)
    feed = preview.feeds[0]
    assert set(feed.result.table_winners) == winners
    losers = [row.player.id for row in rows if row.player.id not in winners][:2]
    assert set(feed.result.entrants) == winners | set(losers)
    scores = {row.player.id: row.metrics["score"] for row in rows}
    carried = dict(StageEntry.objects.filter(stage=final).values_list("player_id", "carried"))
    assert carried == {p: -(-scores[p] // 2) for p in feed.result.entrants}  # half, up


def test_a_stage_named_by_hand(alice):
    tournament = _qualified(alice, players=8)
    stage_create(tournament=tournament, by=alice, name="Invitational", entry="manual")
    invitational = tournament.stages.get(number=2)
    picks = list(tournament.players.order_by("-number").values_list("id", flat=True)[:4])
    with pytest.raises(Conflict):  # the source is still open
        stage_entrants_set(stage=invitational, by=alice, players=picks)
    preview = close(tournament.stages.get(number=1), alice)
    assert preview.result.entrants == ()  # nobody enters by the cut
    with pytest.raises(RuleError) as caught:
        stage_entrants_set(stage=invitational, by=alice, players=[picks[0], picks[0]])
    assert caught.value.path == ("players",)
    stage_entrants_set(stage=invitational, by=alice, players=picks)
    seeds = list(
        StageEntry.objects.filter(stage=invitational)
        .order_by("seed_rank")
        .values_list("player_id", flat=True)
    )
    assert seeds == picks
    round_ = round_open(tournament=tournament, by=alice, method="random", stage=2)
    assert set(round_.seats.values_list("player_id", flat=True)) == set(picks)


def test_bad_graph_settings_are_400s_naming_the_field(alice):
    tournament = make_tournament(alice, players=8)
    stage_create(tournament=tournament, by=alice, name="Qualification")
    for values, field in (
        ({"entry": "ranks", "rank_from": 5, "rank_to": 2}, "rank_to"),
        ({"entry": "ranks", "rank_from": 5}, "rank_to"),
        ({"entry": "tables"}, "table_top"),
        ({"entry": "tables", "table_top": 5}, "table_top"),
        ({"cut_top": 4, "best_losers": 2}, "best_losers"),
        ({"cut_top": 4, "source": 2}, "source"),
        ({"cut_top": 4, "carry_rounding": "up"}, "carry_rounding"),
        ({"cut_top": 4, "seating": "plan"}, "seating"),
        ({"cut_top": 4, "games_per_table": 13}, "games_per_table"),
        ({"entry": "division"}, "division"),
        ({"entry": "ranks", "rank_from": 1, "rank_to": 4, "cut_top": 4}, "cut_top"),
    ):
        with pytest.raises(RuleError) as caught:
            stage_create(tournament=tournament, by=alice, name="Final", **values)
        assert field in [e.path[0] for e in caught.value.flatten()], (values, caught.value)
    assert tournament.stages.count() == 1


def test_slots_follow_a_named_stage_once_it_closes(alice):
    tournament = _qualified(alice, players=8)
    final = stage_create(tournament=tournament, by=alice, name="Final", kind="final", cut_top=4)
    _api(alice).patch(
        f"/api/v1/tournaments/{tournament.slug}/",
        {"qualify_slots": 1, "qualify_event": "Nationals", "qualify_stage": 2},
        format="json",
    )
    tournament.refresh_from_db()
    assert tournament.qualify_stage == final
    close(tournament.stages.get(number=1), alice)
    round_ = round_open(
        tournament=tournament,
        by=alice,
        method="manual",
        tables=[list(final.entries.order_by("-seed_rank").values_list("player_id", flat=True))],
    )
    # The weakest finalist wins the final: seat 1 goes out in every game below.
    for game in Game.objects.filter(table__round=round_):
        seats = list(game.table.seats.order_by("position").values_list("player_id", flat=True))
        result_submit(
            game=game, by=alice, based_on=0, end="rummikub", winner=seats[0],
            racks=[{"player": seats[0], "tiles": ""}] + [
                {"player": p, "tiles": c + "9"} for p, c in zip(seats[1:], "RBK", strict=True)
            ],
        )  # fmt: skip
    final_winner = round_.tables.get().seats.get(position=1).player
    # Before the close the slot follows the whole standings: the best seed holds it.
    before = standings_recompute(tournament_id=tournament.pk).rows
    assert [r["player"]["id"] for r in before if r["qualified"]] == [before[0]["player"]["id"]]
    stage_close(stage=final, by=alice, expected_entrants=[])
    rows = standings_recompute(tournament_id=tournament.pk).rows
    assert [r["player"]["id"] for r in rows if r["qualified"]] == [final_winner.id]


def test_the_event_file_carries_the_graph(alice, carol):
    tournament = _qualified(alice, players=8)
    stage_create(
        tournament=tournament, by=alice, name="B", kind="final", entry="ranks",
        rank_from=5, rank_to=8, carry_over="half", carry_rounding="half_up",
        games_per_table=2, seating="snake",
    )  # fmt: skip
    stage_create(
        tournament=tournament, by=alice, name="A", kind="final", source=1, entry="ranks",
        rank_from=1, rank_to=4,
    )  # fmt: skip
    close(tournament.stages.get(number=1), alice)
    document = event_file_export(tournament)
    copy = event_file_import(by=carol, document=document, slug="graph-copy")
    for number in (2, 3):
        old, new = tournament.stages.get(number=number), copy.stages.get(number=number)
        for field in (
            "entry", "rank_from", "rank_to", "carry_rounding", "games_per_table", "seating"
        ):  # fmt: skip
            assert getattr(old, field) == getattr(new, field), field
        assert (old.source.number if old.source else None) == (
            new.source.number if new.source else None
        )
    assert copy.stages.get(number=3).source.number == 1


def test_a_running_stage_may_change_its_play_settings_not_its_entry(alice):
    tournament = _qualified(alice, players=8)
    final = stage_create(tournament=tournament, by=alice, name="Final", cut_top=4)
    close(tournament.stages.get(number=1), alice)
    round_open(tournament=tournament, by=alice, method="random", stage=2)
    stage_update(stage=final, by=alice, games_per_table=3, seating="swiss")
    with pytest.raises(Conflict):
        stage_update(stage=final, by=alice, carry_rounding="half_up")
    final.refresh_from_db()
    assert (final.games_per_table, final.seating) == (3, "swiss")


def test_the_api_adds_a_graph_stage_and_previews_every_feed(alice):
    tournament = _qualified(alice)
    api = _api(alice)
    url = f"/api/v1/tournaments/{tournament.slug}/stages/"
    added = api.post(
        url,
        {"name": "A", "kind": "final", "entry": "ranks", "rank_from": 1, "rank_to": 8},
        format="json",
    )
    assert added.status_code == 201, added.content
    added = api.post(
        url,
        {"name": "B", "kind": "final", "source": 1, "rank_from": 9, "rank_to": 16,
         "seating": "snake"},
        format="json",
    )  # fmt: skip
    assert added.status_code == 201, added.content
    assert added.json()["entry"] == "ranks" and added.json()["source"] == 1
    bad = api.post(url, {"name": "C", "entry": "tables"}, format="json")
    assert bad.status_code == 400 and "table_top" in bad.content.decode()
    preview = api.post(url + "1/cut/", {"dry_run": True}, format="json")
    assert preview.status_code == 200, preview.content
    feeds = preview.json()["feeds"]
    assert [f["stage"] for f in feeds] == [2, 3]
    assert [len(f["entrants"]) for f in feeds] == [8, 8]
    committed = api.post(url + "1/cut/", preview.json()["commit"], format="json")
    assert committed.status_code == 201, committed.content
    assert stage_cut_preview(tournament.stages.get(number=2)).feeds == []
