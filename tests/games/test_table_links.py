"""Table links (`tournaments.table_links`): a printed QR signs a phone in as one table's
scorekeeper for one round — scoped, ended with the round, revocable, attributable — and the
printed sheets (links from PUBLIC_BASE_URL, one table per PDF page on A4 and Letter)."""

from __future__ import annotations

import io
import re

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from games.models import Game, Penalty, Result
from games.services.results import penalty_record, result_confirm
from games.services.rounds import round_cancel
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, seated
from tests.web import text
from tournaments.models import TableLink, Tournament
from tournaments.services.table_links import table_links_issue, table_links_revoke
from tournaments.services.tournaments import tournament_create, tournament_update
from tournaments.table_links import TableLinkRefused, table_link_check, token_for

pytestmark = pytest.mark.django_db

BASE = "http://club-laptop.test:8000"


@pytest.fixture(autouse=True)
def _base_url(settings):
    settings.PUBLIC_BASE_URL = BASE


def links_of(tournament: Tournament, by, round_number: int = 1) -> dict[int, TableLink]:
    round_ = tournament.rounds.get(number=round_number)
    numbers = round_.tables.values_list("number", flat=True)
    return table_links_issue(by=by, round_=round_, table_numbers=numbers)


def link_path(link: TableLink, *, table: int | None = None, round_number: int | None = None):
    return reverse(
        "table-link",
        kwargs={
            "slug": link.tournament.slug,
            "round_number": round_number or link.round.number,
            "table_number": table or link.table_number,
            "token": token_for(link),
        },
    )


def entry_path(tournament: Tournament, round_number: int, table: int) -> str:
    return reverse(
        "table-entry",
        kwargs={"slug": tournament.slug, "round_number": round_number, "table_number": table},
    )


def game_at(tournament: Tournament, table: int, number: int = 1, round_number: int = 1) -> Game:
    return Game.objects.get(
        table__round__tournament=tournament,
        table__round__number=round_number,
        table__number=table,
        number=number,
    )


def signed_in(link: TableLink) -> Client:
    phone = Client()
    response = phone.get(link_path(link))
    assert response.status_code == 302
    assert response["Location"] == entry_path(link.tournament, link.round.number, link.table_number)
    return phone


# --- the service: scope, end of round, revocation ------------------------------------------


def test_one_link_per_table_made_once_with_its_own_inactive_user(club, alice, bob):
    first = links_of(club, bob)
    again = links_of(club, alice)
    assert sorted(first) == [1, 2]
    assert {n: link.pk for n, link in first.items()} == {n: link.pk for n, link in again.items()}
    users = [link.user for link in first.values()]
    assert len({user.pk for user in users}) == 2
    assert all(not user.is_active and not user.has_usable_password() for user in users)
    assert users[0].get_full_name() == "Table 1, round 1 (table link)"


def test_the_token_opens_its_table_of_its_round_only(club, alice):
    links = links_of(club, alice)
    round_ = club.rounds.get(number=1)
    assert table_link_check(token=token_for(links[1]), round_=round_, table_number=1) == links[1]
    with pytest.raises(TableLinkRefused) as refused:
        table_link_check(token=token_for(links[1]), round_=round_, table_number=2)
    assert refused.value.status == 403
    assert "table 1 of round 1 only" in refused.value.message
    with pytest.raises(TableLinkRefused) as refused:
        table_link_check(token=token_for(links[1])[:-2] + "xx", round_=round_, table_number=1)
    assert refused.value.status == 403 and refused.value.title == "This table link is not valid"


def test_a_link_ends_when_the_next_round_opens_or_the_tournament_finishes(club, alice):
    links = links_of(club, alice)
    open_round(club, alice)
    with pytest.raises(TableLinkRefused) as refused:
        table_link_check(token=token_for(links[1]), round_=links[1].round, table_number=1)
    assert refused.value.status == 410
    assert "round 2 has been opened" in refused.value.message

    links_2 = links_of(club, alice, round_number=2)
    tournament_update(tournament=club, by=alice, status="finished")
    with pytest.raises(TableLinkRefused) as refused:
        table_link_check(token=token_for(links_2[2]), round_=links_2[2].round, table_number=2)
    assert "the tournament is finished" in refused.value.message


def test_revoking_bumps_the_version_so_the_printed_token_fails(club, alice, bob):
    links = links_of(club, alice)
    old_token = token_for(links[2])
    with pytest.raises(PermissionDenied):
        table_links_revoke(by=bob, round_=links[2].round, table_number=2)  # a scorekeeper
    table_links_revoke(by=alice, round_=links[2].round, table_number=2)
    fresh = links_of(club, alice)
    assert fresh[2].version == 2 and fresh[1].version == 1
    with pytest.raises(TableLinkRefused) as refused:
        table_link_check(token=old_token, round_=fresh[2].round, table_number=2)
    assert refused.value.status == 410 and "revoked" in refused.value.title
    assert table_link_check(token=token_for(fresh[2]), round_=fresh[2].round, table_number=2)


def test_the_link_user_scores_at_its_table_only_and_is_named_in_the_history(club, alice):
    links = links_of(club, alice)
    table_user = links[1].user
    result = enter_rummikub(game_at(club, 1), table_user)
    assert result.submitted_by == table_user
    assert result.history.first().history_user == table_user
    with pytest.raises(PermissionDenied, match="table 1 in round 1 only"):
        enter_rummikub(game_at(club, 2), table_user)
    penalty = penalty_record(
        game=game_at(club, 1, 2),
        by=table_user,
        player=seated(game_at(club, 1, 2))[1],
        kind="timeout",
    )
    assert penalty.recorded_by == table_user
    open_round(club, alice)
    with pytest.raises(PermissionDenied):
        enter_rummikub(game_at(club, 1, 3), table_user)  # round 1 is over for the link


def test_double_entry_a_staff_member_confirms_what_a_table_link_entered(club, alice, bob):
    tournament_update(tournament=club, by=alice, results_need_confirmation=True)
    links = links_of(club, alice)
    entered = enter_rummikub(game_at(club, 1), links[1].user)
    assert entered.status == Result.Status.SUBMITTED
    with pytest.raises(PermissionDenied):
        result_confirm(result=entered, by=links[1].user)  # never its own entry
    confirmed = result_confirm(result=entered, by=bob)
    assert confirmed.status == Result.Status.CONFIRMED and confirmed.confirmed_by == bob


# --- the pages: sign-in without an account --------------------------------------------------


def test_a_phone_signs_in_with_the_link_and_enters_its_table(club, alice):
    link = links_of(club, alice)[1]
    phone = signed_in(link)
    page = phone.get(entry_path(club, 1, 1))
    assert page.status_code == 200
    game = game_at(club, 1)
    racks = phone.get(entry_path(club, 1, 1))
    assert racks.status_code == 200
    penalty = phone.post(
        entry_path(club, 1, 1),
        {
            "game": "1",
            "action": "penalty",
            "p1-player": str(seated(game)[1]),
            "p1-kind": "timeout",
        },
    )
    assert penalty.status_code == 302, text(penalty)
    recorded = Penalty.objects.get(game=game)
    assert recorded.recorded_by == link.user
    # The rack value helper of the entry page works for the phone as well.
    value = phone.get(reverse("rack-value", kwargs={"slug": club.slug}), {"tiles": "R4 B10"})
    assert "14" in text(value)


def test_the_phone_opens_no_other_table_no_other_round_and_no_staff_page(club, alice):
    link = links_of(club, alice)[1]
    phone = signed_in(link)
    other = phone.get(entry_path(club, 1, 2))
    assert other.status_code == 403
    assert "table 1 in round 1 only" in text(other)
    assert phone.get(link_path(link, table=2)).status_code == 403  # the token elsewhere
    for name in ("round-sheets", "confirm-queue", "tournament-edit"):
        kwargs = {"slug": club.slug} | ({"round_number": 1} if name == "round-sheets" else {})
        assert phone.get(reverse(name, kwargs=kwargs)).status_code == 403, name
    open_round(club, alice)
    round_2 = phone.get(entry_path(club, 2, 1))
    assert round_2.status_code == 302  # round 1 ended: the phone is signed out ...
    assert round_2["Location"] == link_path(link)  # ... and sent to its link's page
    assert "Round 1 is over" in text(phone.get(round_2["Location"]))


def test_after_the_round_or_a_revoke_the_link_shows_a_clear_page(club, alice):
    links = links_of(club, alice)
    phone = signed_in(links[2])
    table_links_revoke(by=alice, round_=links[2].round, table_number=2)
    back = phone.get(entry_path(club, 1, 2), follow=True)  # signed out at once
    assert back.status_code == 410 and "This table link was revoked" in text(back)
    again = Client().get(link_path(links[2]))
    assert again.status_code == 410
    assert "This table link was revoked" in text(again)

    open_round(club, alice)
    ended = Client().get(link_path(links[1]))
    assert ended.status_code == 410
    page = text(ended)
    assert "Round 1 is over" in page and "round 2 has been opened" in page


def test_a_private_tournament_opens_to_its_table_link(alice):
    tournament = make_tournament(alice, players=4, public=False)
    open_round(tournament, alice)
    phone = signed_in(links_of(tournament, alice)[1])
    assert phone.get(entry_path(tournament, 1, 1)).status_code == 200
    # Its table only (config/table_link_scope.py): not even the tournament's standings.
    assert (
        phone.get(reverse("tournament-detail", kwargs={"slug": tournament.slug})).status_code == 403
    )


def test_a_staff_member_opening_a_link_stays_themselves(club, alice, as_user):
    link = links_of(club, alice)[1]
    organiser = as_user("alice")
    assert organiser.get(link_path(link)).status_code == 302
    assert organiser.get(reverse("tournament-edit", kwargs={"slug": club.slug})).status_code == 200


def test_the_api_does_not_accept_a_table_link_session(club, alice):
    phone = signed_in(links_of(club, alice)[1])
    response = phone.post(
        f"/api/v1/tournaments/{club.slug}/penalties/", {}, content_type="application/json"
    )
    assert response.status_code in (401, 403, 404, 405)


def test_the_organiser_revokes_from_the_sheets_page(club, alice, as_user):
    links = links_of(club, alice)
    organiser = as_user("alice")
    revoke = reverse("table-links-revoke", kwargs={"slug": club.slug, "round_number": 1})
    response = organiser.post(revoke, {"table": ""}, follow=True)
    assert "Table links of tables 1, 2 revoked" in text(response)
    assert {link.version for link in TableLink.objects.filter(round=links[1].round)} == {2}
    assert as_user("bob").post(revoke, {"table": "1"}).status_code == 403


# --- links and QR codes from the configured base URL ---------------------------------------


def test_sheets_use_the_public_base_url_whatever_the_request_host(club, as_user, settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "organiser.example"]
    page = text(
        as_user("bob").get(
            reverse("round-sheets", kwargs={"slug": club.slug, "round_number": 1}),
            HTTP_HOST="organiser.example",
        )
    )
    links = re.findall(r"<small>(\S+/link/\S+/)</small>", page)
    assert len(links) == 2
    assert all(link.startswith(BASE + "/t/club-open/rounds/1/tables/") for link in links), links
    assert "organiser.example" not in page


# --- the PDF: one table per page on A4 and on Letter -----------------------------------------


# The whole round's PDF is a background job: tests/games/test_sheets_job.py.


def test_twelve_games_still_fit_one_page(alice, bob, as_user):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8, games_per_table=12)
    open_round(tournament, alice)
    response = as_user("bob").get(
        reverse("round-sheets-pdf", kwargs={"slug": tournament.slug, "round_number": 1}),
        {"paper": "letter", "table": 2},
    )
    pdf = PdfReader(io.BytesIO(response.content))
    assert len(pdf.pages) == 1 and "Game 12" in pdf.pages[0].extract_text()


def test_an_unknown_paper_is_not_found(club, as_user):
    path = reverse("round-sheets-pdf", kwargs={"slug": club.slug, "round_number": 1})
    assert as_user("bob").get(path, {"paper": "a3"}).status_code == 404


def test_a_table_link_creates_no_tournament(club, alice):
    with pytest.raises(PermissionDenied):
        tournament_create(by=links_of(club, alice)[1].user, name="Not Mine")
    phone = signed_in(links_of(club, alice)[1])
    assert "Sign out (Table 1, round 1)" in text(phone.get(entry_path(club, 1, 1)))


def test_a_round_cancelled_and_opened_again_gets_new_links(club, alice):
    first = links_of(club, alice)[1]
    round_cancel(round_=first.round, by=alice)
    open_round(club, alice)
    again = links_of(club, alice)[1]
    assert again.user.username == "club-open-r1-t1-link-2"
    assert again.user != first.user
