"""Staff by invitation only: naming an existing account on the Staff
page or in the API invites it; it joins when it accepts, signed in as itself; and the
answer is the same whether or not an account of that name exists."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import make_tournament
from tests.html import assert_in_html, html_text
from tournaments.models import StaffInvitation, StaffMember

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_open(alice):
    return make_tournament(alice, name="Club Open", players=4)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api_as(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def without(text: str, *words: str) -> str:
    """The page with the names and the per-request bits (CSRF tokens, links) taken out."""
    for word in words:
        text = text.replace(word, "NAME")
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
    text = re.sub(r"/invitations/[^/\"]+/", "/invitations/TOKEN/", text)
    text = re.sub(r'"X-CSRFToken": "[^"]+"', "", text)
    return re.sub(r"invitation-\d+|revoke/\d+|invitations/\d+", "ID", text)


def test_the_staff_page_answers_the_same_for_an_account_and_for_no_account(
    club_open, alice, mallory
):
    organiser = signed_in(alice)
    staff = f"/t/{club_open.slug}/staff/"
    answers = {}
    for name in ("mallory", "ghost"):
        response = organiser.post(staff, {"username": name, "role": "scorekeeper"}, follow=True)
        assert response.redirect_chain[0][1] == 302
        answers[name] = without(response.content.decode(), name)
        assert f"If an account named {name} exists, it is invited as scorekeeper" in (
            response.content.decode()
        )
    # Nobody was given a role without consent; the two answers say the same words, and the
    # page lists each invitation the same way, under the name typed.
    assert not club_open.staff.filter(user=mallory).exists()
    assert StaffInvitation.objects.filter(username__in=["mallory", "ghost"]).count() == 2
    said = {
        name: re.search(r'<ul class="messages".*?</ul>', page, re.S).group(0)
        for name, page in answers.items()
    }
    assert said["mallory"] == said["ghost"]
    for name in ("NAME", "mallory"):
        card = f"<strong>Scorekeeper</strong> · <bdi>{name}</bdi>"
        assert_in_html(card, answers["ghost"], count=1)
    cards = re.findall(r"Scorekeeper · (\w+) ·", html_text(answers["ghost"]))
    assert cards == ["NAME", "mallory"]  # newest first: ghost's (as NAME), then mallory's


def test_the_invited_account_accepts_from_its_home_page(club_open, alice, mallory, carol):
    signed_in(alice).post(
        f"/t/{club_open.slug}/staff/", {"username": "mallory", "role": "scorekeeper"}
    )
    invitation = StaffInvitation.objects.get(username="mallory")
    # Before accepting, mallory has no role at all.
    assert signed_in(mallory).get(f"/t/{club_open.slug}/checkin/").status_code == 403
    home = signed_in(mallory).get("/").content.decode()
    assert "Invitations for you" in home and "Join Club Open" in home
    link = re.search(r'href="(/invitations/[^"]+/)"', home).group(1)
    # Someone else holding the link cannot use it, nor make an account with it.
    other = signed_in(carol)
    assert other.get(link).status_code == 403
    assert other.post(link).status_code == 403
    assert "Invitations for you" not in other.get("/").content.decode()
    anonymous = Client().post(link, {"username": "sneak", "password": "a-Long-pass-42"})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert not club_open.staff.filter(user=carol).exists()
    # Mallory accepts.
    phone = signed_in(mallory)
    page = phone.get(link)
    assert page.status_code == 200 and "Accept and join" in page.content.decode()
    joined = phone.post(link)
    assert joined.status_code == 302
    assert club_open.staff.get(user=mallory).role == StaffMember.Role.SCOREKEEPER
    invitation.refresh_from_db()
    assert invitation.used_by == mallory and invitation.used_at is not None
    assert phone.post(link).status_code == 410  # one use
    assert "Invitations for you" not in phone.get("/").content.decode()


def test_the_api_answers_the_same_for_an_account_and_for_no_account(club_open, alice, carol):
    api = api_as(alice)
    url = f"/api/v1/tournaments/{club_open.slug}/staff/"
    known = api.post(url, {"username": "carol", "role": "organiser"}, format="json")
    unknown = api.post(url, {"username": "nobody", "role": "organiser"}, format="json")
    assert known.status_code == unknown.status_code == 201
    a, b = known.json(), unknown.json()
    assert set(a) == set(b)
    different = {key for key in a if a[key] != b[key]}
    assert different <= {"id", "username", "link", "created_at", "expires_at"}
    assert (a["username"], b["username"]) == ("carol", "nobody")
    assert a["state"] == b["state"] == "open"
    assert not club_open.staff.filter(user=carol).exists()
    # Carol accepts through the link the organiser was given.
    link = a["link"].split("testserver", 1)[1]
    assert signed_in(carol).post(link).status_code == 302
    assert club_open.staff.get(user=carol).role == StaffMember.Role.ORGANISER
    # Bad input is still a 400 naming the field, and nothing is made.
    before = StaffInvitation.objects.count()
    empty = api.post(url, {"username": " ", "role": "organiser"}, format="json")
    assert empty.status_code == 400 and "username" in empty.json()
    role = api.post(url, {"username": "carol", "role": "boss"}, format="json")
    assert role.status_code == 400 and "role" in role.json()
    assert StaffInvitation.objects.count() == before
