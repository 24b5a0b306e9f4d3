"""Staff without the Django admin: accounts made by an organiser, invitation links, role
changes and removal — the services and the Staff page (the API: tests/tournaments/api/
test_staff.py). Refusals save nothing: no user, no staff row, no used-up invitation."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.errors import Conflict, RuleError
from tests.web import field_errors, text
from tournaments.invitation_tokens import invitation_token
from tournaments.models import StaffInvitation, StaffMember
from tournaments.permissions import can_organise, can_score
from tournaments.services.staff import (
    GENERATED_PASSWORD_LENGTH,
    staff_account_create,
    staff_invitation_accept,
    staff_invitation_revoke,
    staff_invite,
    staff_remove,
    staff_role_change,
)

pytestmark = pytest.mark.django_db

User = get_user_model()


def member_of(tournament, user) -> StaffMember:
    return tournament.staff.get(user=user)


def counts() -> tuple[int, int, int]:
    return (
        User.objects.count(),
        StaffMember.objects.count(),
        StaffInvitation.objects.filter(used_at__isnull=False).count(),
    )


# --- accounts -----------------------------------------------------------------------------


def test_an_account_with_a_generated_password(club, alice):
    created = staff_account_create(tournament=club, by=alice, username="table4", role="scorekeeper")
    assert len(created.password) == GENERATED_PASSWORD_LENGTH
    user = User.objects.get(username="table4")
    assert user.check_password(created.password) and user == created.member.user
    assert can_score(user, club) and not can_organise(user, club)
    assert created.member.history.get().history_user == alice


def test_an_account_with_a_chosen_password(club, alice):
    created = staff_account_create(
        tournament=club, by=alice, username="ruth", password="tile-rack-42", role="organiser"
    )
    assert created.password is None  # nothing to show: the organiser chose it
    assert User.objects.get(username="ruth").check_password("tile-rack-42")
    assert can_organise(created.member.user, club)


def test_bad_username_and_password_are_named_together_and_nothing_is_made(club, alice):
    before = counts()
    with pytest.raises(RuleError) as refused:
        staff_account_create(
            tournament=club, by=alice, username="bad name!", password="123", role="scorekeeper"
        )
    fields = {error.path for error in refused.value.flatten()}
    assert fields == {("username",), ("password",)}
    assert counts() == before


@pytest.mark.parametrize(
    ("username", "password", "field", "words"),
    [
        ("BOB", "tile-rack-42", "username", "taken"),  # bob exists; case does not matter
        ("", "tile-rack-42", "username", "required"),
        ("x" * 151, "tile-rack-42", "username", "at most 150"),
        ("newbie", "newbie12", "password", "too similar"),
        ("newbie", "password", "password", "too common"),
        ("newbie", "84736251", "password", "entirely numeric"),
    ],
)
def test_account_refusals_name_the_field(club, alice, bob, username, password, field, words):
    before = counts()
    with pytest.raises(RuleError) as refused:
        staff_account_create(
            tournament=club, by=alice, username=username, password=password, role="scorekeeper"
        )
    assert [e.path for e in refused.value.flatten()] == [(field,)]
    assert words in str(refused.value)
    assert counts() == before


def test_a_bad_role_makes_no_account(club, alice):
    before = counts()
    with pytest.raises(RuleError) as refused:
        staff_account_create(tournament=club, by=alice, username="newbie", role="referee")
    assert refused.value.path == ("role",)
    assert counts() == before


# --- roles and removal --------------------------------------------------------------------


def test_roles_change_both_ways(club, alice, bob):
    bob_row = member_of(club, bob)
    staff_role_change(member=bob_row, by=alice, role="organiser")
    assert can_organise(bob, club)
    # With bob organising too, alice may step down to scorekeeper.
    staff_role_change(member=member_of(club, alice), by=alice, role="scorekeeper")
    assert member_of(club, alice).role == "scorekeeper"
    assert member_of(club, alice).history.latest().history_user == alice


def test_the_last_organiser_cannot_step_down(club, alice):
    with pytest.raises(Conflict) as refused:
        staff_role_change(member=member_of(club, alice), by=alice, role="scorekeeper")
    assert refused.value.path == ("role",)
    assert "alice is the only organiser" in refused.value.message
    assert member_of(club, alice).role == "organiser"


def test_removed_staff_lose_access_and_keep_their_account(club, alice, bob):
    staff_remove(member=member_of(club, bob), by=alice)
    bob = User.objects.get(pk=bob.pk)  # a fresh user: no cached role
    assert not can_score(bob, club)
    assert not club.staff.filter(user=bob).exists()


def test_the_last_organiser_cannot_be_removed(club, alice, root):
    before = counts()
    with pytest.raises(Conflict) as refused:
        staff_remove(member=member_of(club, alice), by=root)  # not even by a superuser
    assert refused.value.path == ("staff",)
    assert counts() == before


def test_an_organiser_may_leave_when_another_stays(club, alice, bob):
    staff_role_change(member=member_of(club, bob), by=alice, role="organiser")
    staff_remove(member=member_of(club, alice), by=alice)
    assert list(club.staff.values_list("user__username", "role")) == [("bob", "organiser")]


@pytest.mark.parametrize("who", ["bob", "mallory"])
def test_only_organisers_manage_staff(club, alice, bob, who, request):
    person = request.getfixturevalue(who)
    before = (counts(), list(StaffMember.objects.values_list("role", flat=True)))
    for attempt in (
        lambda: staff_account_create(tournament=club, by=person, username="x1", role="organiser"),
        lambda: staff_role_change(member=member_of(club, bob), by=person, role="organiser"),
        lambda: staff_remove(member=member_of(club, alice), by=person),
        lambda: staff_invite(tournament=club, by=person, role="organiser"),
    ):
        with pytest.raises(PermissionDenied):
            attempt()
    assert (counts(), list(StaffMember.objects.values_list("role", flat=True))) == before
    assert not StaffInvitation.objects.exists()


# --- invitations --------------------------------------------------------------------------


def test_an_invitation_makes_one_account(club, alice):
    invitation = staff_invite(tournament=club, by=alice, role="scorekeeper")
    member = staff_invitation_accept(
        token=invitation.token, by=None, username="walt", password="tile-rack-42"
    )
    assert (member.user.username, member.role, member.tournament) == ("walt", "scorekeeper", club)
    invitation.refresh_from_db()
    assert invitation.used_by == member.user and invitation.used_at is not None
    before = counts()
    with pytest.raises(RuleError, match="used already"):
        staff_invitation_accept(
            token=invitation.token, by=None, username="walt2", password="tile-rack-42"
        )
    assert counts() == before


def test_an_invitation_lasts_the_configured_days(club, alice, settings):
    settings.STAFF_INVITATION_DAYS = 3
    invitation = staff_invite(tournament=club, by=alice, role="organiser")
    left = invitation.expires_at - timezone.now()
    assert timedelta(days=3) - timedelta(minutes=1) < left <= timedelta(days=3)


def _expired(invitation):
    StaffInvitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )


@pytest.mark.parametrize(
    ("spoil", "words"),
    [
        (_expired, "expired on"),
        (lambda i: staff_invitation_revoke(invitation=i, by=i.created_by), "withdrawn"),
    ],
)
def test_an_expired_or_revoked_invitation_makes_nothing(club, alice, spoil, words):
    invitation = staff_invite(tournament=club, by=alice, role="scorekeeper")
    spoil(invitation)
    before = counts()
    with pytest.raises(RuleError) as refused:
        staff_invitation_accept(
            token=invitation.token, by=None, username="walt", password="tile-rack-42"
        )
    assert refused.value.path == ("token",)
    assert words in refused.value.message
    assert counts() == before


@pytest.mark.parametrize("token", ["", "1", "1:abc:def", "x" * 300])
def test_a_broken_or_forged_token_makes_nothing(club, alice, token):
    staff_invite(tournament=club, by=alice, role="organiser")
    before = counts()
    with pytest.raises(RuleError, match="not valid"):
        staff_invitation_accept(token=token, by=None, username="walt", password="tile-rack-42")
    assert counts() == before


def test_a_bad_password_leaves_the_invitation_open(club, alice):
    invitation = staff_invite(tournament=club, by=alice, role="scorekeeper")
    with pytest.raises(RuleError) as refused:
        staff_invitation_accept(token=invitation.token, by=None, username="walt", password="1")
    assert {error.path for error in refused.value.flatten()} == {("password",)}
    invitation.refresh_from_db()
    assert invitation.used_at is None
    assert not User.objects.filter(username="walt").exists()


def test_a_used_invitation_cannot_be_revoked(club, alice):
    invitation = staff_invite(tournament=club, by=alice, role="scorekeeper")
    staff_invitation_accept(token=invitation.token, by=None, username="walt", password="t-r-42-ok")
    with pytest.raises(Conflict) as refused:
        staff_invitation_revoke(invitation=invitation, by=alice)
    assert refused.value.path == ("invitation",)


# --- the Staff page -----------------------------------------------------------------------


def staff_url(club, name="tournament-staff", *args):
    return reverse(name, args=[club.slug, *args])


def test_the_staff_page_lists_staff_with_role_and_remove(club, as_user, bob):
    page = text(as_user("alice").get(staff_url(club)))
    assert 'Change role<span class="vh"> of bob</span>' in page
    assert staff_url(club, "staff-remove", member_of(club, bob).pk) in page
    assert "Create an account" in page and "Invite by link" in page


def test_the_page_creates_an_account_and_shows_its_password_once(club, as_user):
    client = as_user("alice")
    page = text(
        client.post(
            staff_url(club, "staff-account"),
            {"account-username": "table4", "account-password": "", "account-role": "scorekeeper"},
        )
    )
    assert "Account table4 created" in page
    password = page.split('id="created-password">')[1].split("<")[0]
    signed_in = Client().post(reverse("login"), {"username": "table4", "password": password})
    assert signed_in.status_code == 302
    assert password not in text(client.get(staff_url(club)))  # once only


def test_the_page_shows_account_errors_beside_the_fields(club, as_user):
    before = counts()
    response = as_user("alice").post(
        staff_url(club, "staff-account"),
        {"account-username": "two words", "account-password": "abc", "account-role": "organiser"},
    )
    page = text(response)
    assert response.status_code == 200
    assert field_errors(page, "id_account-username")[0].startswith("Enter a valid username")
    assert "too short" in field_errors(page, "id_account-password")[0]
    assert counts() == before


@pytest.mark.parametrize("who", ["bob", "mallory"])
def test_only_organisers_open_or_post_the_staff_pages(club, as_user, who, alice):
    client = as_user(who)
    alice_row = member_of(club, alice)
    before = counts()
    assert client.get(staff_url(club)).status_code == 403
    assert (
        client.post(staff_url(club, "staff-account"), {"account-username": "x2"}).status_code == 403
    )
    assert (
        client.post(
            staff_url(club, "staff-role", alice_row.pk), {"role": "scorekeeper"}
        ).status_code
        == 403
    )
    assert client.post(staff_url(club, "staff-remove", alice_row.pk)).status_code == 403
    assert (
        client.post(
            staff_url(club, "staff-invitation-create"), {"invite-role": "organiser"}
        ).status_code
        == 403
    )
    assert counts() == before
    assert member_of(club, alice).role == "organiser"


def test_the_page_changes_a_role(club, as_user, bob):
    response = as_user("alice").post(
        staff_url(club, "staff-role", member_of(club, bob).pk), {"role": "organiser"}, follow=True
    )
    assert "bob is now Organiser." in text(response)
    assert member_of(club, bob).role == "organiser"


def test_the_page_says_beside_the_role_why_the_last_organiser_stays(club, as_user, alice):
    row = member_of(club, alice)
    page = text(
        as_user("alice").post(staff_url(club, "staff-role", row.pk), {"role": "scorekeeper"})
    )
    assert field_errors(page, f"role-{row.pk}") == [
        "Alice is the only organiser; make someone else organiser first."
    ]
    assert member_of(club, alice).role == "organiser"


def test_remove_asks_first_then_removes(club, as_user, bob):
    client = as_user("alice")
    address = staff_url(club, "staff-remove", member_of(club, bob).pk)
    confirm = text(client.get(address))
    assert "Remove bob (Scorekeeper) from the staff?" in confirm
    assert club.staff.filter(user=bob).exists()  # a GET removes nothing
    done = client.post(address, follow=True)
    assert "bob is no longer staff here." in text(done)
    assert not club.staff.filter(user=bob).exists()
    assert as_user("bob").get(reverse("table-entry", args=[club.slug, 1, 1])).status_code == 403


def test_the_page_keeps_the_last_organiser(club, as_user, alice):
    address = staff_url(club, "staff-remove", member_of(club, alice).pk)
    done = as_user("alice").post(address, follow=True)
    assert "Alice is the only organiser" in text(done)
    assert club.staff.filter(user=alice).exists()


def test_invitation_by_page_from_link_to_table(club, as_user):
    organiser = as_user("alice")
    organiser.post(staff_url(club, "staff-invitation-create"), {"invite-role": "scorekeeper"})
    invitation = StaffInvitation.objects.get()
    link = reverse("invitation-accept", args=[invitation_token(invitation)])
    assert link in text(organiser.get(staff_url(club)))

    invitee = Client()
    form = invitee.get(link)
    assert form.status_code == 200 and "invited as <strong>Scorekeeper</strong>" in text(form)
    bad = text(invitee.post(link, {"username": "", "password": "short"}))
    assert field_errors(bad, "id_username") == ["is required."]
    assert "too short" in field_errors(bad, "id_password")[0]
    assert not User.objects.filter(username="walt").exists()
    joined = invitee.post(link, {"username": "walt", "password": "tile-rack-42"}, follow=True)
    assert "Welcome, walt" in text(joined)
    assert invitee.get(reverse("table-entry", args=[club.slug, 1, 1])).status_code == 200

    again = Client().get(link)
    assert again.status_code == 410
    assert "used already" in text(again)
    assert '<form method="post" novalidate>' not in text(again)


@pytest.mark.parametrize("state", ["expired", "revoked", "broken"])
def test_an_unusable_link_shows_a_clear_page_and_makes_nothing(club, alice, as_user, state):
    invitation = staff_invite(tournament=club, by=alice, role="organiser")
    token = invitation.token
    if state == "expired":
        _expired(invitation)
    elif state == "revoked":
        as_user("alice").post(staff_url(club, "staff-invitation-revoke", invitation.pk))
    else:
        token = token[:-3]
    link = reverse("invitation-accept", args=[token])
    before = counts()
    shown = Client().get(link)
    posted = Client().post(link, {"username": "walt", "password": "tile-rack-42"})
    for response in (shown, posted):
        assert response.status_code == 410
        assert "This invitation cannot be used" in text(response)
        assert "No account was made." in text(response)
    words = {"expired": "expired on", "revoked": "withdrawn", "broken": "not valid"}[state]
    assert words in text(shown)
    assert counts() == before


def test_the_staff_page_costs_the_same_for_a_large_staff(
    club, alice, as_user, django_assert_max_num_queries
):
    client = as_user("alice")
    client.get(staff_url(club))  # warm the session
    for n in range(12):
        staff_account_create(tournament=club, by=alice, username=f"helper{n}", role="scorekeeper")
        staff_invite(tournament=club, by=alice, role="scorekeeper")
    with django_assert_max_num_queries(8):
        page = text(client.get(staff_url(club)))
    assert page.count("Revoke this invitation") == 12
    assert "helper11" in page


def test_a_member_removed_meanwhile_is_a_conflict_not_a_crash(club, alice, bob, as_user):
    stale = member_of(club, bob)
    staff_remove(member=member_of(club, bob), by=alice)
    with pytest.raises(Conflict) as refused:
        staff_role_change(member=stale, by=alice, role="organiser")
    assert refused.value.path == ("staff",)
    with pytest.raises(Conflict):
        staff_remove(member=stale, by=alice)
    assert not club.staff.filter(user=bob).exists()


def test_the_admin_shows_invitations_and_changes_none(club, alice, as_user):
    invitation = staff_invite(tournament=club, by=alice, role="organiser")
    root = as_user("root")
    assert root.get("/admin/tournaments/staffinvitation/").status_code == 200
    page = root.get(f"/admin/tournaments/staffinvitation/{invitation.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in text(page)
    root.post(f"/admin/tournaments/staffinvitation/{invitation.pk}/delete/", {"post": "yes"})
    assert StaffInvitation.objects.filter(pk=invitation.pk).exists()
