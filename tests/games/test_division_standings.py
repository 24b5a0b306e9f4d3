"""Standings by division: the page, its polled fragment, the CSV and the API show only a
division's players, ranked again 1..n; an unknown division is a 400 naming `division`
in the API and a 404 that says so on the pages; the kept pages follow membership
changes; stages limited to a division cut from its players only; query bounds hold."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game
from games.selectors.standings import division_prizes, standings_table
from games.services.rounds import round_open
from games.services.stages import stage_close, stage_cut_preview, stage_rows
from games.services.standings import standings_recompute
from scoring.errors import RuleError
from scoring.standings import rerank
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tests.web import text
from tournaments.models import Stage
from tournaments.services.divisions import (
    division_create,
    division_update,
    player_divisions_set,
)
from tournaments.services.players import player_update
from tournaments.services.stages import stage_create, stage_update
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db

JUNIORS = (2, 3, 6, 8)  # start numbers


@pytest.fixture
def divided(played, alice):
    """Club Open, game 1 of each table entered, with Juniors (#2, #3, #6, #8) and an
    empty Seniors."""
    division_create(tournament=played, by=alice, name="Juniors ≤ 14", slug="juniors")
    division_create(tournament=played, by=alice, name="Seniors")
    for player in played.players.filter(number__in=JUNIORS):
        player_divisions_set(player=player, by=alice, divisions=["juniors"])
    standings_recompute(tournament_id=played.pk)
    played.refresh_from_db()
    return played


def whole_rows(tournament):
    return standings_table(tournament, whole=True).rows


def api(client, tournament, name="api-standings", **query):
    return client.get(reverse(name, kwargs={"slug": tournament.slug}), query)


def test_the_api_lists_the_division_ranked_again(client, divided):
    body = api(client, divided, division="juniors").json()
    whole = [row for row in whole_rows(divided) if row["player"]["number"] in JUNIORS]
    assert [row["player"]["number"] for row in body["rows"]] == [
        row["player"]["number"] for row in whole
    ]
    assert [row["rank"] for row in body["rows"]] == rerank([row["rank"] for row in whole])
    assert body["rows"][0]["rank"] == 1
    assert body["count"] == len(JUNIORS)
    assert api(client, divided, division="seniors").json()["rows"] == []


def test_an_empty_division_is_the_whole_field(client, divided):
    assert api(client, divided, division="").json()["count"] == 8


@pytest.mark.parametrize("slug", ["kids", "juniors;drop", "x" * 101])
def test_an_unknown_division_is_a_400_naming_division(client, divided, slug):
    answer = api(client, divided, division=slug)
    assert answer.status_code == 400
    assert list(answer.json()) == ["division"]
    csv_answer = api(client, divided, name="api-standings-csv", division="kids")
    assert (csv_answer.status_code, list(csv_answer.json())) == (400, ["division"])


def test_the_api_csv_and_the_page_csv_keep_the_division(client, divided):
    for name in ("api-standings-csv", "standings-csv"):
        body = api(client, divided, name=name, division="juniors").content.decode("utf-8-sig")
        rows = list(csv.DictReader(io.StringIO(body)))
        assert sorted(int(row["number"]) for row in rows) == sorted(JUNIORS)
        assert rows[0]["rank"] == "1"
    assert api(client, divided, name="standings-csv", division="kids").status_code == 404


def test_the_page_shows_the_chips_and_only_the_division(client, divided):
    page = text(
        client.get(reverse("tournament-detail", args=[divided.slug]), {"division": "juniors"})
    )
    assert 'aria-current="page">Juniors ≤ 14</a>' in page
    assert "Standings — Juniors ≤ 14" in page
    shown = {n for n in range(1, 9) if f"#{n}" in page.split('id="standings"')[1]}
    assert shown == set(JUNIORS)
    # The polls keep the division; so does the CSV link.
    assert "standings/live/?division=juniors" in page
    assert "standings.csv?division=juniors" in page


def test_the_live_fragment_keeps_the_division(client, divided):
    url = reverse("standings-live", args=[divided.slug])
    fragment = text(client.get(url, {"division": "juniors"}))
    assert {n for n in range(1, 9) if f"#{n}<" in fragment or f"#{n} " in fragment} == set(JUNIORS)
    assert client.get(url, {"division": "kids"}).status_code == 404


def test_an_unknown_division_on_the_page_is_a_404_that_says_so(client, divided):
    answer = client.get(reverse("tournament-detail", args=[divided.slug]), {"division": "kids"})
    assert answer.status_code == 404
    page = text(answer)
    assert "Club Open has no division &#x27;kids&#x27;." in page
    assert "Juniors ≤ 14</a>" in page  # the divisions there are, to pick one


def test_a_new_member_shows_at_once_on_the_kept_page(
    client, divided, alice, django_capture_on_commit_callbacks
):
    url = reverse("tournament-detail", args=[divided.slug])
    first = client.get(url, {"division": "juniors"})
    assert "Player 1<" not in text(first).split('id="standings"')[1]
    api(client, divided, division="juniors")  # kept in the shared cache too
    with django_capture_on_commit_callbacks(execute=True):
        player_divisions_set(player=divided.players.get(number=1), by=alice, divisions=["juniors"])
    again = client.get(url, {"division": "juniors"}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert again["ETag"] != first["ETag"]
    assert "Player 1<" in text(again).split('id="standings"')[1]
    body = api(client, divided, division="juniors").json()
    assert 1 in [row["player"]["number"] for row in body["rows"]]


def test_standings_by_division_stay_within_the_query_bound(
    client, divided, django_assert_max_num_queries
):
    url = reverse("api-standings", kwargs={"slug": divided.slug})
    with django_assert_max_num_queries(8):
        assert client.get(url, {"division": "juniors"}).status_code == 200
    with django_assert_max_num_queries(8):
        assert len(standings_table(divided, division=divided.divisions.get(slug="juniors")).rows)


# --- stages and divisions -----------------------------------------------------------------


def _play(round_, alice):
    for game in Game.objects.filter(table__round=round_).order_by("table__number"):
        enter_rummikub(game, alice, "R4 B10 K2", "J 7", "O3")


@pytest.fixture
def staged(alice):
    """Qualification of 8, then a Juniors final of the top 2 juniors (#2, #3, #6, #8)."""
    tournament = make_tournament(alice, players=8, games_per_table=1)
    division_create(tournament=tournament, by=alice, name="Juniors")
    for player in tournament.players.filter(number__in=JUNIORS):
        player_divisions_set(player=player, by=alice, divisions=["juniors"])
    qualification = stage_create(tournament=tournament, by=alice, name="Qualification")
    final = stage_create(
        tournament=tournament, by=alice, name="Juniors final", cut_top=2, division="juniors"
    )
    _play(open_round(tournament, alice), alice)
    return tournament, qualification, final


def test_a_stage_limited_to_a_division_cuts_from_its_players(staged, alice):
    tournament, qualification, final = staged
    juniors = set(tournament.players.filter(number__in=JUNIORS).values_list("id", flat=True))
    rank = {row.player.id: row.rank for row in stage_rows(qualification)}
    # The two best juniors' places; juniors level on every metric may be drawn by lot, so
    # the places are compared, not who holds them.
    best_places = sorted(rank[player] for player in juniors)[:2]
    preview = stage_cut_preview(qualification)
    entrants = [p.id for p in preview.entrants]
    assert set(entrants) <= juniors
    assert sorted(rank[player] for player in entrants) == best_places
    stage_close(stage=qualification, by=alice, expected_entrants=entrants)
    assert set(final.entries.values_list("player_id", flat=True)) == set(entrants)


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"name": "Final", "cut_top": 2, "division": "kids"}, "no division 'kids'"),
        ({"name": "Final", "cut_top": 2, "division": ["juniors"]}, "one division"),
    ],
)
def test_a_stage_names_a_division_of_its_tournament(staged, alice, values, words):
    _tournament, _qualification, final = staged
    with pytest.raises(RuleError) as refused:
        stage_update(stage=final, by=alice, **values)
    assert refused.value.flatten()[0].path == ("division",)
    assert words in str(refused.value)


def test_a_division_of_another_tournament_is_a_400_in_the_api(staged, alice):
    tournament, _qualification, final = staged
    other = make_tournament(alice, name="Other")
    division_create(tournament=other, by=alice, name="Kids")
    client = APIClient()
    client.force_authenticate(alice)
    url = reverse("api-stage", kwargs={"slug": tournament.slug, "number": final.number})
    answer = client.patch(url, {"division": "kids"}, format="json")
    assert answer.status_code == 400
    assert list(answer.json()) == ["division"]
    final.refresh_from_db()
    assert final.division.slug == "juniors"
    assert client.get(url).json()["division"] == "juniors"


def test_stage_one_cannot_be_limited(alice):
    tournament = make_tournament(alice, players=4)
    division_create(tournament=tournament, by=alice, name="Juniors")
    with pytest.raises(RuleError) as refused:
        stage_create(tournament=tournament, by=alice, name="Qualification", division="juniors")
    assert refused.value.path == ("division",)
    assert not tournament.stages.exists()


def test_stage_standings_by_division(staged, alice, client, django_assert_max_num_queries):
    tournament, qualification, _final = staged
    url = reverse(
        "api-stage-standings", kwargs={"slug": tournament.slug, "number": qualification.number}
    )
    with django_assert_max_num_queries(8):
        body = client.get(url, {"division": "juniors"}).json()
    assert sorted(row["player"]["number"] for row in body["rows"]) == sorted(JUNIORS)
    assert body["rows"][0]["rank"] == 1
    answer = client.get(url, {"division": "kids"})
    assert (answer.status_code, list(answer.json())) == (400, ["division"])
    stage = Stage.objects.select_related("tournament").get(pk=qualification.pk)
    assert len(stage_rows(stage)) == 8


def test_a_limited_stage_round_seats_its_cut(staged, alice):
    tournament, qualification, _final = staged
    entrants = [p.id for p in stage_cut_preview(qualification).entrants]
    stage_close(stage=qualification, by=alice, expected_entrants=entrants)
    round_ = round_open(tournament=tournament, by=alice, method="random", seed=3)
    seated = set(round_.tables.values_list("seats__player_id", flat=True))
    assert seated == set(entrants)


# --- the final standings: prizes per division ---------------------------------------------


def test_a_finished_tournament_shows_each_divisions_prizes(client, divided, alice):
    juniors = divided.divisions.get(slug="juniors")
    division_update(division=juniors, by=alice, prizes=["Trophy", "Book voucher"])
    tournament_update(tournament=divided, by=alice, status="finished")
    whole = [row for row in whole_rows(divided) if row["player"]["number"] in JUNIORS]
    page = text(client.get(reverse("tournament-detail", args=[divided.slug])))
    section = page.split('id="division-prizes"')[1]
    first, second = whole[0]["player"]["name"], whole[1]["player"]["name"]
    prize = r'<span class="prize">Trophy</span>: <a\s+href="/t/club-open/players/'
    assert re.search(prize, section)
    assert section.index(first) < section.index("Book voucher") < section.index(second)
    assert f"#{whole[0]['rank']} overall" in section
    assert "Seniors" in section and "No players in this division." in section
    # A running tournament, or a page filtered to a division, shows no prize section.
    assert 'id="division-prizes"' not in text(
        client.get(reverse("tournament-detail", args=[divided.slug]), {"division": "juniors"})
    )


def test_prizes_go_by_rank_within_the_division_and_skip_the_withdrawn(divided, alice):
    juniors = divided.divisions.get(slug="juniors")
    division_update(division=juniors, by=alice, prizes=["Gold", "Silver", "Bronze", "Book"])
    rows = whole_rows(divided)
    best = next(row for row in rows if row["player"]["number"] in JUNIORS)
    player_update(player=divided.players.get(pk=best["player"]["id"]), by=alice, status="withdrawn")
    standings_recompute(tournament_id=divided.pk)
    juniors.refresh_from_db()
    (prizes, _seniors) = division_prizes(divided, whole_rows(divided))
    assert best["player"]["id"] not in [place.row["player"]["id"] for place in prizes.places]
    assert [place.rank for place in prizes.places] == rerank(
        [place.row["rank"] for place in prizes.places]
    )
    assert [place.prize for place in prizes.places][:1] == ["Gold"]
    assert len(prizes.places) == len(JUNIORS) - 1


def test_the_stage_page_filters_by_division_and_says_its_limit(staged, client, as_user):
    tournament, qualification, final = staged
    url = reverse("stage-detail", args=[tournament.slug, qualification.number])
    page = text(client.get(url, {"division": "juniors"}))
    assert "Qualification standings — Juniors" in page
    listed = {n for n in range(1, 9) if f"#{n}</span>" in page or f"#{n} " in page}
    assert listed == set(JUNIORS)
    assert client.get(url, {"division": "kids"}).status_code == 404
    final_page = text(client.get(reverse("stage-detail", args=[tournament.slug, final.number])))
    assert "its cut takes only the players of Juniors" in final_page
    form = text(as_user("alice").get(reverse("stage-new", args=[tournament.slug])))
    assert '<option value="juniors">Juniors</option>' in form


def test_a_players_page_links_their_divisions(client, divided):
    page = text(client.get(reverse("player-detail", args=[divided.slug, JUNIORS[0]])))
    assert '?division=juniors">Juniors ≤ 14</a>' in page
    other = text(client.get(reverse("player-detail", args=[divided.slug, 1])))
    assert "Divisions:" not in other
