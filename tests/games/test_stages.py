"""Stages in a tournament: definitions, the cut preview and commit, a stage
round seating only its entrants, per-stage standings with carried scores."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services.draw import round_draw
from games.services.rounds import round_open
from games.services.stages import stage_close, stage_cut_preview, stage_rows
from scoring.errors import Conflict, RuleError
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments.models import Round, Stage, StageEntry
from tournaments.services.stages import stage_create, stage_update
from tournaments.services.tournaments import tournament_delete

pytestmark = pytest.mark.django_db

# Seat 1 goes out at each table; the losers keep different tiles, so every score differs
# within a table, and the two tables mirror each other (ties across them).
LOSERS = ("R4 B10 K2", "J 7", "O3")


def _staged(alice, *, cut_top=4, carry="all", ranking=None, ties="lot"):
    tournament = make_tournament(alice, players=8, games_per_table=1)
    qualification = stage_create(tournament=tournament, by=alice, name="Qualification")
    final = stage_create(
        tournament=tournament,
        by=alice,
        name="Final",
        kind="final",
        cut_top=cut_top,
        carry_over=carry,
        cut_ties=ties,
        **({"ranking": ranking} if ranking else {}),
    )
    return tournament, qualification, final


def _play(round_, alice):
    for game in Game.objects.filter(table__round=round_).order_by("table__number"):
        enter_rummikub(game, alice, *LOSERS[: game.table.seats.count() - 1])


def test_stage_create_numbers_stages_and_checks_the_cut(alice):
    tournament, qualification, final = _staged(alice)
    assert (qualification.number, final.number) == (1, 2)
    assert (qualification.cut_top, final.cut_top) == (None, 4)
    assert final.ranking == tournament.ranking


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"name": "Final", "cut_top": 4, "ranking": ["score", "charisma"]}, "ranking"),
        ({"name": "Final"}, "cut_top"),
        ({"name": "Final", "cut_top": 4, "cut_min_score": 10}, "cut_top"),
        ({"name": "Final", "cut_top": 0}, "cut_top"),
        ({"name": "Final", "cut_top": 4, "race_target": 4, "race_cap": 3}, "race_cap"),
        ({"name": "Final", "cut_top": 4, "race_target": 4}, "race_cap"),
        ({"name": "Final", "cut_top": 4, "carry_over": "double"}, "carry_over"),
        ({"name": "", "cut_top": 4}, "name"),
    ],
)
def test_bad_stage_input_names_the_field_and_saves_nothing(alice, values, field):
    tournament = make_tournament(alice, players=8)
    stage_create(tournament=tournament, by=alice, name="Qualification")
    with pytest.raises(RuleError) as caught:
        stage_create(tournament=tournament, by=alice, **values)
    assert field in str(caught.value)
    assert tournament.stages.count() == 1


def test_a_first_stage_takes_no_cut(alice):
    tournament = make_tournament(alice, players=8)
    with pytest.raises(RuleError, match="stage 1 has no cut"):
        stage_create(tournament=tournament, by=alice, name="Qualification", cut_top=4)
    assert not tournament.stages.exists()


def test_only_organisers_define_stages(alice, bob):
    tournament = make_tournament(alice, players=8)
    with pytest.raises(Exception):  # noqa: B017 - PermissionDenied, whatever its class
        stage_create(tournament=tournament, by=bob, name="Qualification")
    assert not tournament.stages.exists()


def test_rounds_join_the_current_stage_which_then_runs(alice):
    tournament, qualification, _final = _staged(alice)
    round_ = open_round(tournament, alice)
    qualification.refresh_from_db()
    assert round_.stage == qualification
    assert qualification.status == "running"


def test_a_tournament_without_stages_opens_rounds_without_one(alice):
    tournament = make_tournament(alice, players=8)
    assert open_round(tournament, alice).stage is None


def test_cut_preview_then_close_commits_the_cut_with_carried_scores(alice):
    tournament, qualification, final = _staged(alice)
    _play(open_round(tournament, alice), alice)
    preview = stage_cut_preview(qualification)
    assert len(preview.entrants) == 4 and len(preview.eliminated) == 4
    # The two winners and the two best losers (J 7 = -17 < O3 = -3 < ... ) go on.
    winners = set(Round.objects.get(number=1).tables.values_list("seats__player", flat=True))
    assert {p.id for p in preview.entrants} <= winners

    stage_close(stage=qualification, by=alice, expected_entrants=[p.id for p in preview.entrants])
    qualification.refresh_from_db()
    assert qualification.status == "closed"
    entries = {e.player_id: e for e in StageEntry.objects.filter(stage=final)}
    assert set(entries) == {p.id for p in preview.entrants}
    scores = {r.player.id: r.metrics["score"] for r in preview.rows}
    assert all(e.carried == scores[p] for p, e in entries.items())


def test_half_carry_over_rounds_toward_zero(alice):
    tournament, qualification, _final = _staged(alice, carry="half")
    _play(open_round(tournament, alice), alice)
    preview = stage_cut_preview(qualification)
    scores = {r.player.id: r.metrics["score"] for r in preview.rows}
    for player, carried in preview.carried.items():
        assert carried == int(scores[player] / 2)


def test_a_tie_at_the_cut_is_stated_and_include_takes_every_tied_player(alice):
    tournament, qualification, _final = _staged(alice, cut_top=1, ranking=["score"], ties="include")
    # Two tables mirror each other: the two winners share rank 1 on score alone.
    stage_update(stage=qualification, by=alice, ranking=["score"])
    _play(open_round(tournament, alice), alice)
    preview = stage_cut_preview(qualification)
    assert len(preview.entrants) == 2
    assert "2 players share rank 1 for 1 place: all go on" in preview.tie
    assert "\u2068Player 1\u2069 (#1)" in preview.tie  # the name isolated (FSI … PDI)


def test_a_cut_larger_than_the_field_names_top_and_saves_nothing(alice):
    tournament, qualification, _final = _staged(alice, cut_top=9)
    _play(open_round(tournament, alice), alice)
    with pytest.raises(RuleError) as caught:
        stage_close(stage=qualification, by=alice, expected_entrants=[])
    assert caught.value.path == ("top",)
    qualification.refresh_from_db()
    assert qualification.status == "running"
    assert not StageEntry.objects.exists()


def test_closing_a_stage_with_missing_results_is_refused(alice):
    tournament, qualification, _final = _staged(alice)
    round_ = open_round(tournament, alice)
    first = Game.objects.filter(table__round=round_).order_by("table__number").first()
    enter_rummikub(first, alice)
    with pytest.raises(Conflict) as caught:
        stage_close(stage=qualification, by=alice, expected_entrants=[])
    assert "missing at table 2" in caught.value.message
    assert caught.value.details["missing_results"]
    qualification.refresh_from_db()
    assert qualification.status == "running"
    assert not StageEntry.objects.exists()


def test_a_stale_preview_is_refused(alice):
    tournament, qualification, _final = _staged(alice)
    _play(open_round(tournament, alice), alice)
    preview = stage_cut_preview(qualification)
    stale = [p.id for p in preview.eliminated]
    with pytest.raises(Conflict) as caught:
        stage_close(stage=qualification, by=alice, expected_entrants=stale)
    assert caught.value.path == ("expected_entrants",)
    assert not StageEntry.objects.exists()


def test_closing_twice_is_refused(alice):
    tournament, qualification, _final = _staged(alice)
    _play(open_round(tournament, alice), alice)
    entrants = [p.id for p in stage_cut_preview(qualification).entrants]
    stage_close(stage=qualification, by=alice, expected_entrants=entrants)
    with pytest.raises(Conflict, match="closed already"):
        stage_close(stage=qualification, by=alice, expected_entrants=entrants)
    assert StageEntry.objects.count() == 4


def _closed(alice):
    tournament, qualification, final = _staged(alice)
    _play(open_round(tournament, alice), alice)
    entrants = [p.id for p in stage_cut_preview(qualification).entrants]
    stage_close(stage=qualification, by=alice, expected_entrants=entrants)
    return tournament, qualification, final, entrants


def test_a_stage_round_seats_only_its_entrants(alice):
    tournament, _qualification, final, entrants = _closed(alice)
    draw = round_draw(tournament=tournament, by=alice, method="random", seed=7)
    assert sorted(p for t in draw.tables for p in t) == sorted(entrants)
    everyone = list(tournament.players.values_list("id", flat=True))
    with pytest.raises(RuleError):
        round_open(
            tournament=tournament, by=alice, method="manual", tables=[everyone[:4], everyone[4:]]
        )
    round_ = round_open(tournament=tournament, by=alice, method="manual", tables=[entrants])
    assert round_.stage == final


def test_stage_standings_count_the_stage_rounds_plus_the_carried_score(alice):
    tournament, qualification, final, entrants = _closed(alice)
    carried = dict(StageEntry.objects.filter(stage=final).values_list("player_id", "carried"))
    assert [r.metrics["score"] for r in stage_rows(final)] == sorted(carried.values(), reverse=True)
    round_ = round_open(tournament=tournament, by=alice, method="manual", tables=[entrants])
    _play(round_, alice)
    rows = stage_rows(final)
    assert {r.player.id for r in rows} == set(entrants)
    assert all(r.metrics["games_played"] == 1 for r in rows)
    qualification_rows = {r.player.id: r for r in stage_rows(qualification)}
    assert len(qualification_rows) == 8
    assert all(r.metrics["games_played"] == 1 for r in qualification_rows.values())
    winner = entrants[0]
    # The final's winner: carried total plus this game's score.
    game_score = next(r for r in rows if r.player.id == winner).metrics["score"] - carried[winner]
    assert game_score > 0


def test_stage_standings_stay_within_the_query_bound(alice, django_assert_max_num_queries):
    tournament, _qualification, final, entrants = _closed(alice)
    _play(round_open(tournament=tournament, by=alice, method="manual", tables=[entrants]), alice)
    final = Stage.objects.select_related("tournament").get(pk=final.pk)
    with django_assert_max_num_queries(8):
        rows = stage_rows(final)
    assert len(rows) == 4


def test_a_running_stage_keeps_its_cut(alice):
    tournament, _qualification, final, entrants = _closed(alice)
    round_open(tournament=tournament, by=alice, method="manual", tables=[entrants])
    with pytest.raises(Conflict):
        stage_update(stage=final, by=alice, cut_top=2)
    final.refresh_from_db()
    assert final.cut_top == 4


def test_rounds_opened_before_any_stage_count_as_stage_one(alice):
    tournament = make_tournament(alice, players=8, games_per_table=1)
    _play(open_round(tournament, alice), alice)
    qualification = stage_create(tournament=tournament, by=alice, name="Qualification")
    rows = stage_rows(qualification)
    assert len(rows) == 8
    assert all(r.metrics["games_played"] == 1 for r in rows)


def test_no_stage_after_a_closed_last_stage(alice):
    tournament, _qualification, final, entrants = _closed(alice)
    _play(round_open(tournament=tournament, by=alice, method="manual", tables=[entrants]), alice)
    stage_close(stage=final, by=alice, expected_entrants=[])
    with pytest.raises(Conflict, match="is closed"):
        stage_create(tournament=tournament, by=alice, name="Extra", cut_top=2)
    assert tournament.stages.count() == 2


def test_a_staged_tournament_can_still_be_deleted(alice):
    tournament, _qualification, _final = _staged(alice)
    open_round(tournament, alice)
    tournament_delete(tournament=tournament, by=alice)
    assert not Stage.objects.exists()
    assert not Round.objects.exists()
