"""The finals: a race-to-N final (409 once decided, a correction reopens it, the
final standings by the race), a stage re-seated every game (one game per round), a side
event for the players not cut (a round names its stage when two are open), and
cancelling a stage's only round."""

from __future__ import annotations

import pytest

from games.models import Game, Result, Round
from games.services.draw import round_draw
from games.services.results import result_submit
from games.services.rounds import round_cancel, round_open
from games.services.stages import (
    stage_close,
    stage_cut_preview,
    stage_race,
    stage_rows,
    stage_side_start,
)
from games.words import round_stage_words
from scoring.errors import Conflict, RuleError
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, seated
from tournaments.models import Stage, StageEntry
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


def enter_win(game: Game, by, winner: int, based_on: int = 0):
    """`winner` went out; every other seat holds a few tiles."""
    players = seated(game)
    losers = iter(("R4 B10 K2", "J 7", "O3"))
    racks = [{"player": p, "tiles": "" if p == winner else next(losers)} for p in players]
    return result_submit(
        game=game, by=by, based_on=based_on, end="rummikub", winner=winner, racks=racks
    )


def _to_final(alice, *, players=8, target=2, cap=3, **final):
    """A qualification of `players` played (one game a table), closed into a race final
    of the top 4."""
    tournament = make_tournament(alice, players=players, games_per_table=1)
    qualification = stage_create(tournament=tournament, by=alice, name="Qualification")
    stage_create(
        tournament=tournament,
        by=alice,
        name="Final",
        kind="final",
        cut_top=4,
        race_target=target,
        race_cap=cap,
        **final,
    )
    for game in Game.objects.filter(table__round=open_round(tournament, alice)):
        enter_rummikub(game, alice)
    entrants = [p.id for p in stage_cut_preview(qualification).entrants]
    stage_close(stage=qualification, by=alice, expected_entrants=entrants)
    final_stage = tournament.stages.get(number=2)
    return tournament, qualification, final_stage, entrants


def _final_game(tournament, alice, entrants):
    round_ = round_open(tournament=tournament, by=alice, method="manual", tables=[entrants])
    return Game.objects.get(table__round=round_)


# --- the race ----------------------------------------------------------------------------


def test_a_race_round_plays_one_game_and_the_starter_rotates(alice):
    tournament, _q, _final, entrants = _to_final(alice)
    first = _final_game(tournament, alice, entrants)
    enter_win(first, alice, entrants[1])
    second = _final_game(tournament, alice, entrants)
    assert (first.number, first.starter_position) == (1, 1)
    assert (second.number, second.starter_position) == (1, 2)
    assert round_stage_words(second.table.round) == "first to 2 wins: game 2 of at most 3"


def test_the_race_is_won_at_n_then_no_round_opens(alice):
    tournament, _q, final, entrants = _to_final(alice)
    ann, bob = entrants[0], entrants[1]
    enter_win(_final_game(tournament, alice, entrants), alice, ann)
    view = stage_race(final)
    assert (view.state.status, view.state.wins[ann], view.over) == ("running", 1, False)
    enter_win(_final_game(tournament, alice, entrants), alice, bob)
    enter_win(_final_game(tournament, alice, entrants), alice, bob)
    view = stage_race(final)
    assert (view.state.status, view.champion.id, view.state.games) == ("won", bob, 3)
    assert "2 wins in game 3" in view.status_words
    rounds_before = Round.objects.count()
    with pytest.raises(Conflict) as caught:
        _final_game(tournament, alice, entrants)
    assert caught.value.path == ("stage",)
    assert "is decided" in caught.value.message
    assert Round.objects.count() == rounds_before  # nothing saved
    with pytest.raises(Conflict):
        round_draw(tournament=tournament, by=alice, method="random")


def test_the_final_standings_rank_by_the_race(alice):
    tournament, _q, final, entrants = _to_final(alice)
    ann, bob = entrants[0], entrants[1]
    for winner in (bob, ann, bob):
        enter_win(_final_game(tournament, alice, entrants), alice, winner)
    rows = stage_rows(final)
    assert [r.player.id for r in rows][:2] == [bob, ann]
    assert [(r.rank, r.race_wins) for r in rows][:2] == [(1, 2), (2, 1)]
    assert "first to 2 wins:" in stage_race(final).summary
    assert "3 of at most 3 games played" in stage_race(final).summary


def test_the_cap_reached_goes_to_the_decider(alice):
    tournament, _q, final, entrants = _to_final(alice, target=3, cap=3)
    ann, bob, cy = entrants[:3]
    for winner in (ann, bob, cy):
        enter_win(_final_game(tournament, alice, entrants), alice, winner)
    view = stage_race(final)
    assert view.state.status == "decided"
    assert view.state.decider in ("score", "last_game")
    assert "decided by" in view.status_words
    with pytest.raises(Conflict):
        _final_game(tournament, alice, entrants)


def test_a_correction_that_undoes_the_decision_reopens_the_race(alice):
    tournament, _q, final, entrants = _to_final(alice)
    ann, bob = entrants[0], entrants[1]
    enter_win(_final_game(tournament, alice, entrants), alice, ann)
    last = _final_game(tournament, alice, entrants)
    first = enter_win(last, alice, ann)
    assert stage_race(final).over
    enter_win(last, alice, bob, based_on=first.version)  # a new version, the old kept
    assert Result.objects.filter(game=last).count() == 2
    view = stage_race(final)
    assert (view.state.status, view.state.wins[ann], view.state.wins[bob]) == ("running", 1, 1)
    assert _final_game(tournament, alice, entrants)  # open again


# --- re-seated every game ------------------------------------------------------------------


def test_a_reseated_stage_plays_one_game_per_round_up_to_its_games(alice):
    tournament = make_tournament(alice, players=8, games_per_table=2)
    qualification = stage_create(tournament=tournament, by=alice, name="Qualification")
    stage_create(
        tournament=tournament,
        by=alice,
        name="Semi-final",
        kind="semi_final",
        cut_top=8,
        reseat_every_game=True,
    )
    for game in Game.objects.filter(table__round=open_round(tournament, alice)):
        enter_rummikub(game, alice)
    entrants = [p.id for p in stage_cut_preview(qualification).entrants]
    stage_close(stage=qualification, by=alice, expected_entrants=entrants)
    semi = tournament.stages.get(number=2)
    preview = round_draw(tournament=tournament, by=alice, method="swiss")
    assert preview.games == [1, 1]
    assert preview.stage_words == "re-seated every game: game 1 of 2"
    for game_number in (1, 2):
        round_ = round_open(tournament=tournament, by=alice, method="random")
        assert Game.objects.filter(table__round=round_).count() == 2  # one game a table
        assert round_stage_words(round_) == f"re-seated every game: game {game_number} of 2"
        for game in Game.objects.filter(table__round=round_):
            enter_rummikub(game, alice)
    with pytest.raises(Conflict) as caught:
        round_open(tournament=tournament, by=alice, method="random")
    assert caught.value.path == ("stage",)
    assert "all its 2 games" in caught.value.message
    assert semi.rounds.count() == 2


# --- side events -------------------------------------------------------------------------


def test_a_side_event_takes_the_players_not_cut_and_rounds_name_their_stage(alice):
    tournament, qualification, final, entrants = _to_final(alice)
    side = stage_side_start(stage=qualification, by=alice, name="Consolation")
    out = set(StageEntry.objects.filter(stage=side).values_list("player_id", flat=True))
    assert len(out) == 4 and not out & set(entrants)
    assert (side.kind, side.side_of_id, side.number) == ("side", qualification.id, 3)

    rounds_before = Round.objects.count()
    with pytest.raises(RuleError) as caught:
        round_open(tournament=tournament, by=alice, method="random")
    assert caught.value.path == ("stage",)
    with pytest.raises(RuleError) as caught:
        round_open(tournament=tournament, by=alice, method="random", stage=7)
    assert caught.value.path == ("stage",)
    assert Round.objects.count() == rounds_before

    side_round = round_open(tournament=tournament, by=alice, method="random", stage=3)
    assert side_round.stage == side
    assert set(side_round.seats.values_list("player_id", flat=True)) == out
    # the main stage goes on beside it, its gaps not blocking the side event's
    final_round = round_open(
        tournament=tournament, by=alice, method="manual", tables=[entrants], stage=2
    )
    assert final_round.stage == final
    for game in Game.objects.filter(table__round=side_round):
        enter_rummikub(game, alice)
    assert {r.player.id for r in stage_rows(side)} == out
    assert Stage.objects.get(pk=side.pk).status == "running"


@pytest.mark.parametrize("when", ["open", "twice"])
def test_a_side_event_is_refused_when_there_is_no_cut_to_come_from(alice, when):
    tournament, qualification, final, _entrants = _to_final(alice)
    if when == "open":
        with pytest.raises(Conflict) as caught:
            stage_side_start(stage=final, by=alice)
    else:
        stage_side_start(stage=qualification, by=alice)
        with pytest.raises(Conflict) as caught:
            stage_side_start(stage=qualification, by=alice)
    assert caught.value.path == ("stage",)
    assert tournament.stages.filter(kind="side").count() == (0 if when == "open" else 1)


def test_a_side_stage_cannot_be_added_as_an_ordinary_stage(alice):
    tournament = make_tournament(alice, players=8)
    stage_create(tournament=tournament, by=alice, name="Qualification")
    with pytest.raises(RuleError) as caught:
        stage_create(tournament=tournament, by=alice, name="Side", kind="side", cut_top=4)
    assert caught.value.path == ("kind",)
    assert tournament.stages.count() == 1


# --- cancelling a stage's only round ---------------------------------------------------------


def test_cancelling_a_stages_only_round_makes_it_upcoming_again(alice):
    tournament, _q, final, entrants = _to_final(alice)
    round_ = round_open(tournament=tournament, by=alice, method="manual", tables=[entrants])
    assert Stage.objects.get(pk=final.pk).status == "running"
    round_cancel(round_=round_, by=alice)
    assert Stage.objects.get(pk=final.pk).status == "upcoming"


def test_cancelling_a_later_round_keeps_the_stage_running(alice):
    tournament, _q, final, entrants = _to_final(alice)
    enter_win(_final_game(tournament, alice, entrants), alice, entrants[0])
    second = round_open(tournament=tournament, by=alice, method="manual", tables=[entrants])
    round_cancel(round_=second, by=alice)
    assert Stage.objects.get(pk=final.pk).status == "running"


def test_a_race_stages_standings_stay_within_the_query_bound(alice, django_assert_max_num_queries):
    tournament, _q, final, entrants = _to_final(alice)
    for winner in entrants[:3]:
        enter_win(_final_game(tournament, alice, entrants), alice, winner)
    final = Stage.objects.select_related("tournament").get(pk=final.pk)
    with django_assert_max_num_queries(8):
        rows = stage_rows(final)
    assert [r.race_wins for r in rows] == [1, 1, 1, 0]
