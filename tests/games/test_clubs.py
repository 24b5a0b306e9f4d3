"""Clubs, members, seasons and ratings across tournaments: the services, the
background follow-up of standings, and the ratings' full recompute equal to updates."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from games.models import Game, RatingChange
from games.services.ratings import current_ratings, rated_games, ratings_update
from games.services.results import penalty_record
from games.services.rounds import round_open
from games.services.seasons import season_for_read
from games.tasks import recompute_standings
from scoring.errors import RuleError
from scoring.ratings import rate_games
from tests.factories import make_tournament
from tests.games.helpers import enter_rummikub, evening
from tournaments.models import Player
from tournaments.permissions import can_organise
from tournaments.selectors import name_matches
from tournaments.services.clubs import (
    club_create,
    club_organiser_add,
    member_create,
    player_link,
    players_link_matches,
    season_create,
    tournament_hold_under,
)


@pytest.fixture
def club(alice):
    return club_create(by=alice, name="Haifa Joker")


@pytest.fixture
def members(club, alice):
    return [member_create(club=club, by=alice, name=f"Player {n}") for n in range(1, 9)]


def test_name_matches_are_proposed_and_linked_only_when_confirmed(alice, club, members):
    tournament = make_tournament(alice, players=3)
    tournament = tournament_hold_under(tournament=tournament, by=alice, club=club)
    matches = name_matches(tournament)
    assert [(p.name, m.name) for p, m in matches] == [(f"Player {n}",) * 2 for n in (1, 2, 3)]
    linked = players_link_matches(tournament=tournament, by=alice, player_ids=[matches[0][0].pk])
    assert [p.name for p in linked] == ["Player 1"]
    assert Player.objects.filter(tournament=tournament, member__isnull=False).count() == 1
    assert [p.name for p, _ in name_matches(tournament)] == ["Player 2", "Player 3"]


def test_a_member_is_linked_to_one_player_of_a_tournament(alice, club, members):
    tournament = make_tournament(alice, players=2)
    tournament = tournament_hold_under(tournament=tournament, by=alice, club=club)
    first, second = tournament.players.order_by("number")
    player_link(player=first, by=alice, member=members[0])
    with pytest.raises(RuleError) as caught:
        player_link(player=second, by=alice, member=members[0])
    assert caught.value.path == ("member",)
    assert "already Player 1 (#1)" in caught.value.message
    second.refresh_from_db()
    assert second.member_id is None


def test_links_stay_inside_the_club(alice, bob, club):
    other = club_create(by=bob, name="Utrecht 30+")
    stranger = member_create(club=other, by=bob, name="Player 1")
    tournament = make_tournament(alice, players=1)
    (player,) = tournament.players.all()
    with pytest.raises(RuleError, match="not held under a club"):
        player_link(player=player, by=alice, member=stranger)
    tournament = tournament_hold_under(tournament=tournament, by=alice, club=club)
    player.refresh_from_db()
    with pytest.raises(RuleError, match="not a member of this tournament's club"):
        player_link(player=player, by=alice, member=stranger)


def test_club_organisers_only(alice, bob, club):
    with pytest.raises(PermissionDenied):
        member_create(club=club, by=bob, name="Somebody")
    with pytest.raises(PermissionDenied):
        season_create(club=club, by=bob, name="Spring", rule={"rule": "sum"})
    tournament = make_tournament(bob, players=1)
    with pytest.raises(PermissionDenied):  # bob organises the tournament, not the club
        tournament_hold_under(tournament=tournament, by=bob, club=club)
    assert tournament.club_id is None


def test_club_organisers_organise_the_club_tournaments(alice, bob, club):
    tournament = make_tournament(bob, players=1)
    club_organiser_add(club=club, by=alice, username=bob.username)
    tournament = tournament_hold_under(tournament=tournament, by=bob, club=club)
    alice_fresh = type(alice).objects.get(pk=alice.pk)
    assert can_organise(alice_fresh, tournament)


@pytest.mark.parametrize(
    ("rule", "field"),
    [
        ({"rule": "best"}, ("best",)),
        ({"rule": "median"}, ("rule",)),
        ("sum", ("rule",)),
        ({"rule": "sum", "cap": -5}, ("cap",)),
    ],
)
def test_a_bad_season_rule_names_the_field_and_saves_nothing(alice, club, rule, field):
    with pytest.raises(RuleError) as caught:
        season_create(club=club, by=alice, name="Spring", rule=rule)
    assert field in [e.path for e in caught.value.flatten()]
    assert not club.seasons.exists()


def test_a_season_totals_its_evenings_by_its_rule(alice, club, members):
    season = season_create(club=club, by=alice, name="Spring league", rule={"rule": "places"})
    for n in range(3):
        evening(alice, club, season, f"Evening {n + 1}")
    season.refresh_from_db()
    snapshot = season_for_read(season)
    assert snapshot.computed_version == season.version
    rows = snapshot.rows
    assert len(rows) == 8 and all(row["events"] == 3 for row in rows)
    # Seat 1 wins every game it starts... the first player of each table wins all games
    # (enter_rummikub: seat 1 goes out), so players 1 and 5 are first in every evening.
    top = {row["member"]["name"] for row in rows if row["rank"] == 1}
    assert top == {"Player 1", "Player 5"}
    assert rows[0]["total"] == 3 * 25


def test_the_standings_job_brings_the_season_and_ratings_along(
    alice, club, members, django_capture_on_commit_callbacks
):
    """What a result sets off once it commits: the tournament's standings, then the
    season's totals and the ratings (in-process here; a Celery worker in production)."""
    season = season_create(club=club, by=alice, name="Spring", rule={"rule": "sum"})
    with django_capture_on_commit_callbacks(execute=True):
        tournament = evening(alice, club, season, "Evening 1", played=False)
        game = Game.objects.filter(table__round__tournament=tournament).first()
        enter_rummikub(game, alice)
    season.refresh_from_db()
    assert season.version > 0
    snapshot = season.standings.get(computed_version=season.version)
    assert {row["member"]["name"] for row in snapshot.rows if row["total"] > 0} == {"Player 1"}
    assert RatingChange.objects.filter(game=game).count() == 4


def test_ratings_follow_corrections_and_sanctions_and_equal_a_recompute(alice, club, members):
    season = season_create(club=club, by=alice, name="Spring", rule={"rule": "sum"})
    for n in range(2):
        evening(alice, club, season, f"Evening {n + 1}")
    assert ratings_update(club_id=club.pk) == 16  # 2 evenings x 2 tables x 4 games
    assert ratings_update(club_id=club.pk) == 0  # nothing changed: nothing re-rated
    # A sanction in the second evening's last game re-rates from that game only.
    last = rated_games(club.pk)[-1]
    game = Game.objects.get(pk=last.game)
    loser = game.table.seats.order_by("position").last().player
    penalty_record(game=game, by=alice, player=loser.pk, kind="sanction", points=200)
    assert ratings_update(club_id=club.pk) == 1
    incremental = current_ratings(club.pk)
    ratings_update(club_id=club.pk, from_scratch=True)
    assert current_ratings(club.pk) == incremental
    expected = rate_games(g.scores for g in rated_games(club.pk))
    assert incremental == expected


def test_an_evening_no_longer_rated_drops_its_changes_and_keeps_the_others(alice, club, members):
    # Its stored changes sit after every game still rated: the update starts there and
    # re-rates nothing (the first evening's changes still match).
    season = season_create(club=club, by=alice, name="Spring", rule={"rule": "sum"})
    evening(alice, club, season, "Evening 1")
    second = evening(alice, club, season, "Evening 2")
    assert ratings_update(club_id=club.pk) == 16
    tournament_hold_under(tournament=second, by=alice, club=club, season=season, rated=False)
    assert ratings_update(club_id=club.pk) == 0
    assert RatingChange.objects.filter(game__table__round__tournament=second).count() == 0
    assert RatingChange.objects.count() == 8 * 4  # the first evening's 8 games, 4 members
    assert current_ratings(club.pk) == rate_games(g.scores for g in rated_games(club.pk))


def test_unrated_tournaments_and_unlinked_players_do_not_rate(alice, club, members):
    season = season_create(club=club, by=alice, name="Spring", rule={"rule": "sum"})
    evening(alice, club, season, "Friendly", rated=False)
    assert ratings_update(club_id=club.pk) == 0
    assert not RatingChange.objects.exists()


def test_the_recompute_task_is_idempotent(alice, club, members, django_capture_on_commit_callbacks):
    season = season_create(club=club, by=alice, name="Spring", rule={"rule": "sum"})
    tournament = evening(alice, club, season, "Evening 1")
    with django_capture_on_commit_callbacks(execute=True):
        first = recompute_standings(tournament.pk)
    with django_capture_on_commit_callbacks(execute=True):
        assert recompute_standings(tournament.pk) == first
    assert RatingChange.objects.count() == 32  # 2 tables x 4 games x 4 members


def test_a_first_swiss_round_seeds_by_club_rating(alice, club, members):
    """Before any result of a new tournament, the strongest members by club rating sit
    together at table 1 (Swiss), ahead of the organiser's own `rating` field."""
    season = season_create(club=club, by=alice, name="Spring", rule={"rule": "sum"})
    evening(alice, club, season, "Evening 1")
    ratings_update(club_id=club.pk)
    strongest = sorted(current_ratings(club.pk).items(), key=lambda item: -item[1].shown)
    top_four = {member for member, _ in strongest[:4]}
    # Clubs apart would mix the tables of round 1; here only the seeding is looked at.
    tournament = make_tournament(alice, name="Evening 2", players=8, club_avoidance="off")
    tournament = tournament_hold_under(
        tournament=tournament, by=alice, club=club, season=season, rated=True
    )
    players_link_matches(
        tournament=tournament, by=alice, player_ids=[p.pk for p, _ in name_matches(tournament)]
    )
    round_ = round_open(tournament=tournament, by=alice, method="swiss", seed=1)
    table_1 = set(round_.tables.get(number=1).seats.values_list("player__member_id", flat=True))
    assert table_1 == top_four
