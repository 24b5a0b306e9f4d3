"""The finals on the pages: the race on the stage page and the timeline, the final
table's projector (live by conditional polling: a 304 while nothing changed, the new
race after a result), a side event started from a closed stage's page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from games.services.rounds import round_open
from tests.games.test_finals import _to_final, enter_win
from tests.web import text
from tournaments.models import Player, Stage

pytestmark = pytest.mark.django_db


def _url(tournament, number, name):
    return reverse(name, kwargs={"slug": tournament.slug, "stage_number": number})


def _win(tournament, alice, entrants, winner):
    round_ = round_open(tournament=tournament, by=alice, method="manual", tables=[entrants])
    enter_win(Game.objects.get(table__round=round_), alice, winner)


def test_the_stage_page_and_the_timeline_show_the_race(as_user, alice):
    tournament, _q, _final, entrants = _to_final(alice)
    names = dict(tournament.players.values_list("id", "name"))
    _win(tournament, alice, entrants, entrants[1])
    page = text(as_user("anon").get(_url(tournament, 2, "stage-detail")))
    assert "The race: first to 2 wins, at most 3 games" in page
    assert f"{names[entrants[1]]} 1" in page
    assert "1 of at most 3 games played" in page
    assert "Game 2 is next." in page
    assert "Projector page of this stage" in page
    _win(tournament, alice, entrants, entrants[1])
    home = text(as_user("anon").get(reverse("tournament-detail", kwargs={"slug": tournament.slug})))
    assert "Decided" in home
    assert f"{names[entrants[1]]} is the champion: 2 wins in game 2." in home


def test_the_final_projector_polls_and_shows_a_new_result(
    client, alice, django_capture_on_commit_callbacks
):
    tournament, _q, _final, entrants = _to_final(alice)
    names = dict(tournament.players.values_list("id", "name"))
    page = client.get(_url(tournament, 2, "stage-projector"))
    assert page.status_code == 200
    body = page.content.decode()
    assert "First to 2 wins" in body and "every 4s" in body
    assert "<script>" not in body and 'style="' not in body
    live = _url(tournament, 2, "stage-projector-live")
    first = client.get(live)
    assert client.get(live, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):  # as committed: the pages move
        _win(tournament, alice, entrants, entrants[2])
    again = client.get(live, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert "Game 2 is next." in again.content.decode()
    assert names[entrants[2]] in again.content.decode()


def test_an_unknown_stage_projector_is_404(client, alice):
    tournament, *_ = _to_final(alice)
    assert client.get(_url(tournament, 9, "stage-projector")).status_code == 404


def test_a_side_event_is_started_from_the_closed_stage_page(as_user, alice):
    tournament, _q, _final, _entrants = _to_final(alice)
    organiser = as_user("alice")
    page = text(organiser.get(_url(tournament, 1, "stage-detail")))
    assert "Start a side event for the 4 players out" in page
    assert "Start a side event" not in text(
        as_user("anon").get(_url(tournament, 1, "stage-detail"))
    )
    answer = organiser.post(_url(tournament, 1, "stage-side"), {"name": "Consolation"})
    side = Stage.objects.get(kind="side")
    assert answer.status_code == 302 and answer["Location"].endswith("/stages/3/")
    assert side.name == "Consolation" and side.entries.count() == 4
    again = organiser.post(_url(tournament, 1, "stage-side"), {"name": "Again"}, follow=True)
    assert "has a side event already" in text(again)
    assert Stage.objects.filter(kind="side").count() == 1
    opening = text(organiser.get(reverse("round-open", kwargs={"slug": tournament.slug})))
    assert "Two stages are open at once" in opening


def test_a_decided_final_says_decided_on_its_page_and_in_the_timeline_never_running(as_user, alice):
    """One label for the stage's state (`stage_state_words`): the race decided, the stage
    page's own line and the timeline both say "Decided"; before, both say "Running"."""
    tournament, _q, _final, entrants = _to_final(alice)
    _win(tournament, alice, entrants, entrants[1])
    page = text(as_user("anon").get(_url(tournament, 2, "stage-detail")))
    assert "Final · Running" in page
    _win(tournament, alice, entrants, entrants[1])
    page = text(as_user("anon").get(_url(tournament, 2, "stage-detail")))
    assert "Final · Decided" in page
    assert "Running" not in page
    assert '<span class="stage-state">Decided</span>' in page


def test_the_champion_s_trophy_is_an_svg_the_site_ships_not_an_emoji(client, alice):
    tournament, _q, _final, entrants = _to_final(alice)
    for _game in range(2):
        _win(tournament, alice, entrants, entrants[3])
    body = client.get(_url(tournament, 2, "stage-projector-live")).content.decode()
    champion = body[body.index('class="final-champion"') :]
    champion = champion[: champion.index("</tr>")]
    assert '<svg class="icon trophy"' in champion and 'aria-hidden="true"' in champion
    assert "\U0001f3c6" not in body  # the emoji, an empty box without an emoji font
    assert 'style="' not in body


def test_the_race_s_sentences_isolate_the_names_they_hold(as_user, alice):
    """A right-to-left name inside a sentence built in Python (the race's summary, the
    champion's line) sits between FSI and PDI, so it neither reorders the sentence nor
    takes the wins count beside it."""
    tournament, _q, _final, entrants = _to_final(alice)
    Player.objects.filter(pk=entrants[1]).update(name="דנה כהן")
    for _game in range(2):
        _win(tournament, alice, entrants, entrants[1])
    body = as_user("anon").get(_url(tournament, 2, "stage-detail")).content.decode()
    assert "First to 2 wins: \u2068דנה כהן\u2069 2, " in body
    assert "\u2068דנה כהן\u2069 is the champion: 2 wins in game 2." in body
