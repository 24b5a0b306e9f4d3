"""A club organiser's evening in a phone-sized browser (412x900), with no API and no
admin: create a club, add two members, declare a season, hold a tournament under it and
confirm the players' name matches. Inputs are found by their labels."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import sign_in
from tests.browser.test_csp import Watch
from tests.factories import make_tournament
from tournaments.models import Club, Season
from tournaments.services.clubs import club_create, member_create, tournament_hold_under

pytestmark = pytest.mark.django_db(transaction=True)


def test_organiser_runs_a_club_from_its_pages(new_page, alice):
    tournament = make_tournament(alice, name="Evening 1", players=3)
    page = new_page()
    sign_in(page, "alice", "alice-pass-123")

    page.goto("/")
    page.get_by_role("link", name="Create a club").click()
    page.get_by_label("Club name").fill("Haifa Joker")
    page.get_by_role("button", name="Create the club").click()
    expect(page.get_by_text("Haifa Joker is created; you organise it.")).to_be_visible()
    club = Club.objects.get()

    for name, code in (("Player 1", "H-1"), ("Player 2", "H-2")):
        page.get_by_label("Name", exact=True).fill(name)
        page.get_by_label("Membership code").fill(code)
        page.get_by_label("Joined on").fill("2024-09-01")
        page.get_by_role("button", name="Add the member").click()
        expect(page.get_by_text(f"{name} is a member of Haifa Joker.")).to_be_visible()
    # A taken code is said beside the field, and nothing is added.
    page.get_by_label("Name", exact=True).fill("Player 3")
    page.get_by_label("Membership code").fill("H-1")
    page.get_by_role("button", name="Add the member").click()
    expect(page.locator("#id_code_errors")).to_contain_text("H-1 is taken")
    assert club.members.count() == 2

    page.get_by_role("link", name="Declare a season").click()
    page.get_by_label("Season name").fill("Autumn")
    page.get_by_label("Total by").select_option("best")
    page.get_by_role("button", name="Declare the season").click()
    expect(page.locator("#id_best_errors")).to_contain_text("needs N")
    page.get_by_label("Best N").fill("2")
    page.get_by_role("button", name="Declare the season").click()
    expect(page.get_by_text("The season Autumn is declared.")).to_be_visible()
    season = Season.objects.get()
    assert season.rule["best"] == 2

    page.goto(f"/t/{tournament.slug}/")
    page.get_by_role("link", name="Club & season").click()
    page.get_by_label("Club", exact=True).select_option(label="Haifa Joker")
    page.get_by_label("Season").select_option(label="Haifa Joker — Autumn")
    page.get_by_label("Rated").check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Evening 1 is held under Haifa Joker.")).to_be_visible()

    page.get_by_role("link", name="Link its players to the club's members").click()
    expect(page.get_by_label("#1 Player 1 → Player 1 (H-1)")).to_be_checked()
    page.get_by_label("#2 Player 2 → Player 2 (H-2)").uncheck()
    page.get_by_role("button", name="Link the ticked players").click()
    expect(page.get_by_text("1 player linked.")).to_be_visible()
    page.get_by_label("Member for #2 Player 2").select_option(label="Player 2 (H-2)")
    page.get_by_role("button", name="Save the member of Player 2").click()
    expect(page.get_by_text("#2 Player 2 is linked to Player 2.")).to_be_visible()

    tournament.refresh_from_db()
    assert (tournament.club, tournament.season, tournament.rated) == (club, season, True)
    linked = dict(tournament.players.exclude(member=None).values_list("name", "member__code"))
    assert linked == {"Player 1": "H-1", "Player 2": "H-2"}


def test_the_club_pages_keep_the_content_security_policy(new_page, alice):
    club = club_create(by=alice, name="Haifa Joker")
    member = member_create(club=club, by=alice, name="Player 1", code="H-1")
    tournament = make_tournament(alice, name="Evening 1", players=2)
    tournament_hold_under(tournament=tournament, by=alice, club=club)
    watch = Watch(new_page, "alice", "alice-pass-123")
    for path in (
        "/",
        "/new-club/",
        f"/clubs/{club.slug}/",
        f"/clubs/{club.slug}/members/",
        f"/clubs/{club.slug}/members/{member.pk}/edit/",
        f"/clubs/{club.slug}/new-season/",
        f"/t/{tournament.slug}/club/",
        f"/t/{tournament.slug}/club/players/",
    ):
        watch.visit(path)
    watch.assert_clean()
