"""Conditional answers of the polled pages (standings page and fragment, round pages, CSV,
projector): validators from the page state, 304 without rendering, anonymous answers kept
in the shared cache and dropped when anything shown changes; the round clock and the
projector's movement column."""

from __future__ import annotations

import gzip
import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from config import page_cache
from games.models import Game
from games.selectors.standings import standings_movement, standings_table
from games.services.rounds import round_clock_set
from games.views.caching import page_cache_key, variant
from scoring.errors import RuleError
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tests.web import text
from tournaments.events import page_generation, page_generation_key, pages_changed
from tournaments.services.tournaments import tournament_update


@pytest.fixture(autouse=True)
def _no_local_window(settings):
    """Every request asks the shared cache for the page generation (in production a
    process trusts what it read for PAGE_CACHE_LOCAL_SECONDS)."""
    settings.PAGE_CACHE_LOCAL_SECONDS = 0


@pytest.fixture
def seated(alice, bob, django_capture_on_commit_callbacks):
    """Club Open with round 1 seated (two tables of four), as committed: the standings
    recomputed and the page generation counted, as after real requests."""
    with django_capture_on_commit_callbacks(execute=True):
        tournament = make_tournament(alice, scorekeepers=[bob], players=8)
        open_round(tournament, alice)
    return tournament


@pytest.fixture
def played(seated, bob, django_capture_on_commit_callbacks):
    """`seated` with game 1 of each table entered and committed."""
    with django_capture_on_commit_callbacks(execute=True):
        for game in Game.objects.filter(table__round__tournament=seated, number=1):
            enter_rummikub(game, bob)
    return seated


def forget_kept_answers(tournament) -> None:
    """Empty the shared cache and this process's kept answers, as when they expired: the
    page generation (anonymous readers' ETags are made from it) outlives them."""
    generation = cache.get(page_generation_key(tournament.slug))
    cache.clear()
    page_cache._entries.clear()
    cache.set(page_generation_key(tournament.slug), generation)


PAGES = ("tournament-detail", "standings-live", "standings-csv", "projector", "projector-live")


def url(name: str, tournament, **kwargs) -> str:
    return reverse(name, kwargs={"slug": tournament.slug, **kwargs})


def all_urls(tournament) -> list[str]:
    return [url(name, tournament) for name in PAGES] + [
        url("round-detail", tournament, round_number=1)
    ]


@pytest.mark.parametrize("index", range(len(PAGES) + 1))
def test_every_polled_page_carries_validators_and_answers_304(played, index):
    address = all_urls(played)[index]
    first = Client().get(address)
    assert first.status_code == 200
    assert first["ETag"].startswith('W/"')
    assert first["Last-Modified"]
    assert "no-cache" in first["Cache-Control"] and "public" in first["Cache-Control"]
    again = Client().get(address, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]
    other = Client().get(address, HTTP_IF_NONE_MATCH='W/"something-else"')
    assert other.status_code == 200


def test_if_modified_since_alone_answers_304(played):
    first = Client().get(url("standings-live", played))
    again = Client().get(
        url("standings-live", played), HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]
    )
    assert again.status_code == 304


def test_the_304_path_reads_at_most_two_queries_when_nothing_is_kept(
    played, django_assert_max_num_queries
):
    etag = Client().get(url("standings-live", played))["ETag"]
    forget_kept_answers(played)  # the view itself answers, from the page state
    with django_assert_max_num_queries(2):
        answer = Client().get(url("standings-live", played), HTTP_IF_NONE_MATCH=etag)
    assert answer.status_code == 304


@pytest.mark.parametrize("name", ["tournament-detail", "standings-live", "projector-live"])
def test_a_kept_answer_costs_no_query(played, name, django_assert_num_queries):
    first = Client().get(url(name, played))
    with django_assert_num_queries(0):
        kept = Client().get(url(name, played))
        not_modified = Client().get(url(name, played), HTTP_IF_NONE_MATCH=first["ETag"])
    assert kept.status_code == 200 and kept.content == first.content
    assert kept["Content-Security-Policy"] == first["Content-Security-Policy"]
    assert not_modified.status_code == 304
    assert not first.cookies  # no per-visitor CSRF cookie in what every reader gets


def test_a_confirmed_result_changes_the_etag_and_the_table(
    played, bob, django_capture_on_commit_callbacks
):
    live = url("standings-live", played)
    before = Client().get(live)
    page_before = Client().get(url("tournament-detail", played))
    game = Game.objects.get(table__round__tournament=played, table__number=1, number=2)
    with django_capture_on_commit_callbacks(execute=True):
        enter_rummikub(game, bob)
    after = Client().get(live, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    version = standings_table(played).computed_version
    assert f"(version {version})" in text(after)
    assert f"(version {version})" not in text(before)
    page_after = Client().get(url("tournament-detail", played))
    assert page_after["ETag"] != page_before["ETag"]
    assert f"(version {version})" in text(page_after)


def test_a_correction_that_changes_no_score_moves_nothing_public(
    played, bob, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """A confirmed correction that enters the same racks again: a new results version and
    a new snapshot, but the same table, so the generation, the kept page and the ETag
    stay, and the polling phones keep getting 304 from the cache alone."""
    live = url("standings-live", played)
    first = Client().get(live)
    generation = page_generation(played.slug)
    game = Game.objects.get(table__round__tournament=played, table__number=1, number=1)
    versions = standings_table(played).computed_version
    with django_capture_on_commit_callbacks(execute=True):
        enter_rummikub(game, bob, based_on=1)
    assert standings_table(played).computed_version > versions  # recomputed...
    assert page_generation(played.slug) == generation  # ...and nothing public moved
    with django_assert_num_queries(0):
        again = Client().get(live, HTTP_IF_NONE_MATCH=first["ETag"])
        kept = Client().get(live)
    assert again.status_code == 304
    assert kept.content == first.content


def test_a_confirmed_result_reaches_the_public_pages_within_a_second(
    played, bob, settings, django_capture_on_commit_callbacks
):
    """Changes are coalesced to one move of the generation a second per tournament: a
    result confirmed right after a move is not shown at once, and is within the second."""
    settings.PAGE_CACHE_COALESCE_SECONDS = 1.0
    live = url("standings-live", played)
    Client().get(live)
    with django_capture_on_commit_callbacks(execute=True):
        pages_changed(played.slug)
    first = Client().get(live)  # promotes that change: the generation has just moved
    moved = time.monotonic()
    game = Game.objects.get(table__round__tournament=played, table__number=1, number=2)
    with django_capture_on_commit_callbacks(execute=True):
        enter_rummikub(game, bob)
    version = standings_table(played).computed_version
    if time.monotonic() - moved < 0.9:  # still within the second: the page as it was
        assert Client().get(live, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    time.sleep(max(0.0, 1.05 - (time.monotonic() - moved)))
    after = Client().get(live, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    assert f"(version {version})" in text(after)
    assert time.monotonic() - moved < 3  # within the second, with the test's own time


def test_a_tournament_made_private_is_no_longer_served_from_the_cache(
    played, alice, django_capture_on_commit_callbacks
):
    assert Client().get(url("tournament-detail", played)).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        tournament_update(tournament=played, by=alice, public=False)
    assert Client().get(url("tournament-detail", played)).status_code == 404
    assert Client().get(url("standings-live", played)).status_code == 404


def test_a_new_round_shows_on_the_kept_standings_page(
    played, alice, bob, django_capture_on_commit_callbacks
):
    Client().get(url("tournament-detail", played))
    with django_capture_on_commit_callbacks(execute=True):
        for game in Game.objects.filter(table__round__tournament=played).exclude(number=1):
            enter_rummikub(game, bob)
        open_round(played, alice)
    assert url("round-detail", played, round_number=2) in text(
        Client().get(url("tournament-detail", played))
    )


def test_signed_in_readers_get_private_answers_of_their_own(played, as_user):
    anonymous = Client().get(url("tournament-detail", played))
    alice = as_user("alice").get(url("tournament-detail", played))
    bob = as_user("bob").get(url("tournament-detail", played))
    assert "private" in alice["Cache-Control"]
    assert len({anonymous["ETag"], alice["ETag"], bob["ETag"]}) == 3
    assert "Sign out (alice)" in text(alice)
    assert (
        as_user("alice")
        .get(url("tournament-detail", played), HTTP_IF_NONE_MATCH=alice["ETag"])
        .status_code
        == 304
    )
    # Alice's ETag is not anybody else's.
    assert (
        as_user("bob")
        .get(url("tournament-detail", played), HTTP_IF_NONE_MATCH=alice["ETag"])
        .status_code
        == 200
    )


def test_a_waiting_message_is_shown_not_answered_304(played, as_user):
    client = as_user("alice")
    etag = client.get(url("tournament-detail", played))["ETag"]
    client.cookies["messages"] = "anything"
    assert client.get(url("tournament-detail", played), HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_the_language_is_part_of_the_etag(played):
    english = Client().get(url("standings-live", played), HTTP_ACCEPT_LANGUAGE="en")
    dutch = Client().get(url("standings-live", played), HTTP_ACCEPT_LANGUAGE="nl")
    assert english["ETag"] != dutch["ETag"]


def _dutch_by_cookie(address: str, settings):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    return client.get(address)


@pytest.mark.parametrize("accept", ["nl", "nl-NL,nl;q=0.9,en;q=0.5", "nl-BE", "fr,nl;q=0.8"])
def test_every_way_of_asking_for_dutch_is_one_variant(played, rf, settings, accept):
    address = url("standings-live", played)
    by_header = rf.get(address, HTTP_ACCEPT_LANGUAGE=accept)
    by_cookie = rf.get(address)
    by_cookie.COOKIES[settings.LANGUAGE_COOKIE_NAME] = "nl"
    assert variant(by_header) == variant(by_cookie) == "nl"
    assert page_cache_key(played.slug, by_header) == page_cache_key(played.slug, by_cookie)
    english = rf.get(address, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
    assert page_cache_key(played.slug, english) != page_cache_key(played.slug, by_header)


def test_dutch_by_header_and_by_cookie_share_one_etag_and_one_kept_answer(
    played, settings, django_assert_num_queries
):
    address = url("standings-live", played)
    by_header = Client().get(address, HTTP_ACCEPT_LANGUAGE="nl-NL,nl;q=0.9")
    with django_assert_num_queries(0):  # the header's answer serves the cookie's reader
        by_cookie = _dutch_by_cookie(address, settings)
    assert by_cookie.status_code == 200
    assert by_cookie["ETag"] == by_header["ETag"]
    assert by_cookie.content == by_header.content
    assert "Accept-Language" in by_cookie["Vary"] and "Cookie" in by_cookie["Vary"]


@pytest.mark.parametrize("page", ["standings-live", "tournament-detail", "projector"])
def test_a_304_is_never_answered_across_languages(played, settings, page):
    address = url(page, played)
    english = Client().get(address, HTTP_ACCEPT_LANGUAGE="en")
    dutch = Client().get(address, HTTP_ACCEPT_LANGUAGE="nl")
    assert english["ETag"] != dutch["ETag"]
    # Kept answers and the views both refuse the other language's validator.
    for stored in (True, False):
        if not stored:
            forget_kept_answers(played)
        assert (
            Client().get(address, HTTP_ACCEPT_LANGUAGE="nl", HTTP_IF_NONE_MATCH=english["ETag"])
        ).status_code == 200
        client = Client()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "he"
        assert client.get(address, HTTP_IF_NONE_MATCH=dutch["ETag"]).status_code == 200
    again = Client().get(address, HTTP_ACCEPT_LANGUAGE="nl-BE", HTTP_IF_NONE_MATCH=dutch["ETag"])
    assert again.status_code == 304


def test_the_fragment_carries_its_etag_for_the_next_poll(played):
    answer = Client().get(url("standings-live", played))
    shown = answer["ETag"].replace('"', "&quot;")
    assert f'data-etag="{shown}"' in text(answer)


# --- the round clock ---------------------------------------------------------------------


def test_an_organiser_sets_and_stops_the_round_clock(seated, alice):
    round_ = seated.rounds.get(number=1)
    before = timezone.now()
    round_clock_set(round_=round_, by=alice, minutes=45)
    round_.refresh_from_db()
    assert (
        before + timedelta(minutes=45) <= round_.ends_at <= timezone.now() + timedelta(minutes=45)
    )
    round_clock_set(round_=round_, by=alice, minutes=0)
    round_.refresh_from_db()
    assert round_.ends_at is None


@pytest.mark.parametrize("minutes", [-5, 601, "ten", 2.5])
def test_a_bad_round_clock_is_refused_beside_the_field(seated, alice, minutes):
    with pytest.raises(RuleError) as refused:
        round_clock_set(round_=seated.rounds.get(number=1), by=alice, minutes=minutes)
    assert refused.value.path == ("minutes",)


def test_a_scorekeeper_may_not_set_the_clock(seated, bob):
    with pytest.raises(PermissionDenied):
        round_clock_set(round_=seated.rounds.get(number=1), by=bob, minutes=30)


def test_the_clock_form_on_the_round_page_starts_the_projector_countdown(
    seated, as_user, django_capture_on_commit_callbacks
):
    client = as_user("alice")
    projector = Client().get(url("projector", seated))
    assert "data-ends-at" not in text(projector)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url("round-clock", seated, round_number=1), {"minutes": "30"})
    assert answer.status_code == 302
    refreshed = Client().get(url("projector", seated), HTTP_IF_NONE_MATCH=projector["ETag"])
    assert refreshed.status_code == 200
    assert 'data-slide="clock"' in text(refreshed)
    bad = client.post(url("round-clock", seated, round_number=1), {"minutes": "999"})
    assert bad.status_code == 200
    assert "between 1 and 600" in text(bad)


# --- the projector ---------------------------------------------------------------------


def test_the_projector_shows_top_n_the_tables_and_movement(played, alice, bob):
    for game in Game.objects.filter(table__round__tournament=played).exclude(number=1):
        enter_rummikub(game, bob)
    open_round(played, alice)
    page = text(Client().get(url("projector", played) + "?top=3&cycle=1"))
    assert 'data-cycle="1"' in page
    assert page.count('class="num rank"') == 3
    assert 'data-slide="tables"' in page and "Table 2" in page
    table = standings_table(played)
    movement = standings_movement(played, table.rows, 2)
    # Round 2 has no results yet: nobody moved since the standings before it.
    assert movement == [0] * len(table.rows)
    assert standings_movement(played, table.rows, 1) == [None] * len(table.rows)


def test_a_new_csrf_token_is_a_new_page_for_a_signed_in_reader(played, as_user):
    client = as_user("alice")
    client.cookies["csrftoken"] = "a" * 32
    first = client.get(url("tournament-detail", played))
    assert (
        client.get(url("tournament-detail", played), HTTP_IF_NONE_MATCH=first["ETag"]).status_code
        == 304
    )
    client.cookies["csrftoken"] = "b" * 32  # signed in again: a new token
    assert (
        client.get(url("tournament-detail", played), HTTP_IF_NONE_MATCH=first["ETag"]).status_code
        == 200
    )


def test_the_projector_of_a_tournament_without_rounds_shows_the_standings_alone(alice):
    tournament = make_tournament(alice, name="Quiet Cup", players=3)
    page = text(Client().get(url("projector", tournament)))
    assert 'data-slide="standings"' in page
    assert 'data-slide="tables"' not in page and 'data-slide="clock"' not in page
    assert page.count('class="num rank"') == 3


def test_while_one_reader_renders_a_change_the_others_get_the_page_before_it(
    played, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """One render per change: the first reader after a move renders under a lock in the
    shared cache; a reader arriving meanwhile is answered the answer kept before (its
    phone's ETag still earns a 304), without a query; once the lock is gone, the new one."""
    live = url("standings-live", played)
    first = Client().get(live)
    key = page_cache_key(played.slug, RequestFactory().get(live))
    with django_capture_on_commit_callbacks(execute=True):
        pages_changed(played.slug)
    page_cache._generations.clear()
    cache.add(f"{key}:rendering", 1, 10)  # another process is rendering the new page
    with django_assert_num_queries(0):
        meanwhile = Client().get(live, HTTP_IF_NONE_MATCH=first["ETag"])
    assert meanwhile.status_code == 304
    cache.delete(f"{key}:rendering")
    after = Client().get(live, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    assert cache.get(f"{key}:rendering") is None  # the render let go of its lock


def test_a_kept_page_is_sent_compressed_to_a_reader_that_accepts_gzip(
    played, django_assert_num_queries
):
    """The kept answer is compressed once, when it is kept, and the same bytes go to every
    reader that accepts gzip; the others get it as text, with the same (weak) ETag, and
    both say that the answer varies with Accept-Encoding."""
    live = url("standings-live", played)
    first = Client().get(live, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert first.status_code == 200 and first["Content-Encoding"] == "gzip"
    plain = gzip.decompress(first.content)
    assert b"(version " in plain
    assert int(first["Content-Length"]) == len(first.content) < len(plain)
    assert "Accept-Encoding" in first["Vary"]
    with django_assert_num_queries(0):
        again = Client().get(live, HTTP_ACCEPT_ENCODING="gzip")
        as_text = Client().get(live)
        not_modified = Client().get(
            live, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"]
        )
    assert again.content == first.content
    assert not as_text.has_header("Content-Encoding") and as_text.content == plain
    assert as_text["ETag"] == first["ETag"] and "Accept-Encoding" in as_text["Vary"]
    assert not_modified.status_code == 304 and not_modified.content == b""


def test_the_reader_who_renders_gets_what_the_next_reader_gets(played):
    live = url("standings-live", played)
    rendered = Client().get(live, HTTP_ACCEPT_ENCODING="gzip")
    kept = Client().get(live, HTTP_ACCEPT_ENCODING="gzip")
    assert rendered.content == kept.content
    assert dict(rendered.items()).keys() == dict(kept.items()).keys()


def test_a_signed_in_reader_is_never_served_a_kept_public_answer(played, as_user):
    live = url("standings-live", played)
    public = Client().get(live, HTTP_ACCEPT_ENCODING="gzip")
    organiser = as_user("alice")
    mine = organiser.get(live, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=public["ETag"])
    assert mine.status_code == 200
    assert "private" in mine["Cache-Control"] and not mine.has_header("Content-Encoding")
    assert mine["ETag"] != public["ETag"]
