"""Stage pages: the tournament page's timeline, a stage's standings, and the organiser
closing a stage (preview of the cut, then commit; a refusal shown, nothing saved)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Game
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tests.web import field_errors, text
from tournaments.models import Stage, StageEntry
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def staged(alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8, games_per_table=1)
    stage_create(tournament=tournament, by=alice, name="Qualification")
    stage_create(tournament=tournament, by=alice, name="Final", kind="final", cut_top=4)
    return tournament


def _play(tournament, alice):
    for game in Game.objects.filter(table__round=open_round(tournament, alice)):
        enter_rummikub(game, alice)


def _stage_url(tournament, number, name="stage-detail"):
    return reverse(name, kwargs={"slug": tournament.slug, "stage_number": number})


def test_the_tournament_page_shows_the_stages_as_a_timeline(as_user, staged, alice):
    open_round(staged, alice)
    page = text(as_user("anon").get(reverse("tournament-detail", kwargs={"slug": staged.slug})))
    assert re.search(r'class="stage-running[^"]*">\s*<a[^>]*>1\. Qualification', page)
    assert re.search(r'class="stage-upcoming[^"]*">\s*<a[^>]*>2\. Final', page)


def test_a_stage_page_shows_its_standings_and_no_cut_to_the_public(as_user, staged, alice):
    _play(staged, alice)
    page = text(as_user("anon").get(_stage_url(staged, 1)))
    assert "Qualification standings" in page
    assert len(re.findall(r"/players/\d+/", page)) == 8
    assert "Close Qualification" not in page


def test_the_organiser_previews_the_cut_then_commits_it(as_user, staged, alice):
    _play(staged, alice)
    client = as_user("alice")
    page = text(client.get(_stage_url(staged, 1)))
    assert "Go on (4)" in page and "Out (4)" in page
    entrants = re.findall(r'name="entrant" value="(\d+)"', page)
    assert len(entrants) == 4
    assert not StageEntry.objects.exists()
    response = client.post(_stage_url(staged, 1, "stage-close"), {"entrant": entrants})
    assert response.status_code == 302
    assert response["Location"] == _stage_url(staged, 2)
    assert sorted(StageEntry.objects.values_list("player_id", flat=True)) == sorted(
        map(int, entrants)
    )
    final = text(client.get(_stage_url(staged, 2)))
    assert "Final standings" in final and "Carried" in final
    assert len(re.findall(r"/players/\d+/", final)) == 4


def test_a_stale_cut_on_the_page_is_refused_with_a_message(as_user, staged, alice):
    _play(staged, alice)
    client = as_user("alice")
    response = client.post(_stage_url(staged, 1, "stage-close"), {"entrant": []}, follow=True)
    assert "The standings changed since the preview" in text(response)
    assert not StageEntry.objects.exists()
    assert Stage.objects.get(number=1).status == "running"


def test_only_the_organiser_closes_a_stage(as_user, staged, alice):
    _play(staged, alice)
    assert as_user("bob").post(_stage_url(staged, 1, "stage-close"), {}).status_code == 403
    assert not StageEntry.objects.exists()


def test_the_organiser_adds_a_stage_on_a_page(as_user, alice):
    tournament = make_tournament(alice, players=8)
    client = as_user("alice")
    url = reverse("stage-new", kwargs={"slug": tournament.slug})
    response = client.post(
        url,
        {"name": "Qualification", "kind": "qualification", "cut_ties": "lot", "carry_over": "none"},
    )
    assert response.status_code == 302
    bad = {
        "name": "Final",
        "kind": "final",
        "cut_top": "4",
        "cut_ties": "lot",
        "carry_over": "all",
        "ranking": "score, charisma",
    }
    page = text(client.post(url, bad))
    assert field_errors(page, "id_ranking")
    assert "charisma" in " ".join(field_errors(page, "id_ranking"))
    assert tournament.stages.count() == 1
    too_many = {**bad, "ranking": "", "cut_min_score": "10"}
    assert field_errors(text(client.post(url, too_many)), "id_cut_top")
    del bad["ranking"]
    assert client.post(url, bad).status_code == 302
    assert list(tournament.stages.values_list("name", "cut_top")) == [
        ("Qualification", None),
        ("Final", 4),
    ]


def test_a_staged_tournament_shows_each_running_stage_round_not_rounds_planned(
    as_user, staged, alice
):
    # Rounds planned (4) counts no stage: with the stages' rounds it read "5 of 4 rounds".
    staged.rounds_planned = 4
    staged.save(update_fields=["rounds_planned"])
    _play(staged, alice)
    client = as_user("alice")
    entrants = re.findall(r'name="entrant" value="(\d+)"', text(client.get(_stage_url(staged, 1))))
    client.post(_stage_url(staged, 1, "stage-close"), {"entrant": entrants})
    for _ in range(2):
        final_round = open_round(staged, alice, tables=[[int(e) for e in entrants]])
        for game in Game.objects.filter(table__round=final_round):
            enter_rummikub(game, alice)
    response = as_user("anon").get(reverse("tournament-detail", kwargs={"slug": staged.slug}))
    page = response.content.decode()
    subtitle = re.search(r'<p class="subtitle">(.*?)</p>', page, re.S).group(1)
    assert "<bdi>Final</bdi>: round 2" in subtitle
    assert "Qualification" not in subtitle  # closed: no longer running
    assert " of 4 rounds" not in subtitle
