"""The standings fragment and CSV, and the rack value shown while tiles are typed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web import text
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_standings_fragment_says_when_it_was_computed_and_polls(as_user, played):
    page = text(as_user("anon").get(reverse("standings-live", kwargs={"slug": played.slug})))
    played.refresh_from_db()
    assert f"(version {played.results_version})" in page
    assert "Computed at <time" in page
    assert 'hx-trigger="every 3s"' in page and "updating" not in page
    assert page.index("Player 1<") < page.index("Player 5<") < page.index("Player 2<")


def test_stale_standings_say_updating_and_poll_faster(
    as_user, played, monkeypatch, django_capture_on_commit_callbacks
):
    from games.services import standings as services
    from tournaments.events import pages_changed

    # A worker has been asked (and not finished): the old snapshot is shown, marked stale,
    # to a signed-in reader; anonymous readers are shown the newest snapshot, unmarked
    # (their page is kept until a new table is stored: games.views.caching).
    monkeypatch.setattr(services, "request_recompute", lambda tournament_id: True)
    live = reverse("standings-live", kwargs={"slug": played.slug})
    as_user("anon").get(live)
    Tournament.objects.filter(pk=played.pk).update(results_version=999)
    with django_capture_on_commit_callbacks(execute=True):
        pages_changed(played.slug)  # whatever kept page there was is old now
    page = text(as_user("alice").get(live))
    assert '<span class="stale">updating…</span>' in page
    assert 'hx-trigger="every 1s"' in page
    anonymous = text(as_user("anon").get(live))
    assert "updating…" not in anonymous and 'hx-trigger="every 3s"' in anonymous


def test_standings_csv_is_the_same_file_on_the_page_and_in_the_api(as_user, played):
    page = as_user("anon").get(reverse("standings-csv", kwargs={"slug": played.slug}))
    api = as_user("anon").get(reverse("api-standings-csv", kwargs={"slug": played.slug}))
    assert page.content == api.content
    lines = page.content.decode("utf-8-sig").splitlines()
    header = lines[0].split(",")
    # Player id first, then the ranking's metrics in order, then every other metric.
    assert header[:8] == [
        "rank", "player_id", "number", "name", "club", "status", "games_won", "score",
    ]  # fmt: skip
    assert {"games_played", "penalties", "rummikubs", "best_game"} <= set(header)
    player = played.players.get(number=1)
    assert lines[1].startswith(f"1,{player.pk},1,Player 1,Club 0,active,1,")


@pytest.mark.parametrize(
    ("tiles", "shown"),
    [
        ("R4 B10 J", "= 44 points (3 tiles, 1 joker)"),
        ("r4,b10", "= 14 points (2 tiles)"),
        ("", "empty rack"),
        ("R4 X10", "in tile &#x27;X10&#x27;"),
        ("R4 Q", "unknown tile &#x27;Q&#x27;"),
        ("R14", "numbers are 1 to 13"),
        ("J J J", "third joker"),
    ],
)
def test_rack_value(as_user, club, tiles, shown):
    url = reverse("rack-value", kwargs={"slug": club.slug})
    assert shown in text(as_user("bob").get(url, {"g1-r2-tiles": tiles}))


def test_rack_value_uses_the_tournaments_joker_penalty(as_user, alice, bob):
    from tests.factories import make_tournament

    mso = make_tournament(alice, name="MSO", preset="mso", scorekeepers=[bob])
    url = reverse("rack-value", kwargs={"slug": mso.slug})
    assert "= 57 points" in text(as_user("bob").get(url, {"tiles": "J 7"}))


def test_rack_value_is_for_anyone_who_may_view(as_user, club):
    """A calculator of the public rules, needed by a phone signed in by a table link (which
    scores at one table only): it may answer whoever may read the tournament."""
    url = reverse("rack-value", kwargs={"slug": club.slug})
    assert as_user("anon").get(url, {"tiles": "R4"}).status_code == 200
    Tournament.objects.filter(pk=club.pk).update(public=False)
    assert as_user("mallory").get(url, {"tiles": "R4"}).status_code in (403, 404)
    assert as_user("bob").get(url, {"tiles": "R4"}).status_code == 200


def test_finished_tournaments_are_not_polled(as_user, played):
    Tournament.objects.filter(pk=played.pk).update(status="finished")
    page = text(as_user("anon").get(reverse("standings-live", kwargs={"slug": played.slug})))
    assert "hx-trigger" not in page and "(version" in page
