"""The webhooks API: `webhooks/` (list, add), `webhooks/{id}/` (change, delete),
`webhooks/{id}/deliveries/` (the log). Organisers only; bad input is a 400 naming the
field and saves nothing."""

from __future__ import annotations

import pytest

from tests.api import ORGANISER_ONLY, matrix
from tournaments.models import Webhook, WebhookDelivery
from tournaments.services.webhooks import webhook_create

pytestmark = pytest.mark.django_db


def base(tournament) -> str:
    return f"/api/v1/tournaments/{tournament.slug}/webhooks/"


@pytest.fixture
def hook(tournament, alice):
    made, _ = webhook_create(
        tournament=tournament, by=alice, url="https://example.org/h", events=["round.opened"]
    )
    WebhookDelivery.objects.create(
        webhook=made, event="round.opened", payload={"round": {"number": 1}}, attempts=1
    )
    return made


def test_an_organiser_adds_a_hook_and_sees_the_secret_once(client_for, tournament):
    client = client_for("alice")
    response = client.post(
        base(tournament),
        {"url": "https://example.org/h", "events": ["result.confirmed"]},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["events"] == ["result.confirmed"] and body["created_by"] == "alice"
    assert body["secret"] == Webhook.objects.get().secret and len(body["secret"]) == 64
    listed = client.get(base(tournament)).json()
    assert [row["id"] for row in listed] == [body["id"]]
    assert "secret" not in listed[0]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": "ftp://example.org/h"}, "url"),
        ({"url": "not an address"}, "url"),
        ({"url": 5}, "url"),
        ({"url": "https://example.org/h", "events": []}, "events"),
        ({"url": "https://example.org/h", "events": ["game.eaten"]}, "events"),
        ({"url": "https://example.org/h", "secret": "short"}, "secret"),
        ({"url": "https://example.org/h", "active": "yes"}, "active"),
        ({"url": "https://example.org/h", "colour": "red"}, "colour"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(client_for, tournament, body, field):
    response = client_for("alice").post(base(tournament), body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(("who", "expected"), matrix(201, ORGANISER_ONLY))
def test_who_may_add_a_hook(client_for, tournament, who, expected):
    response = client_for(who).post(base(tournament), {"url": "https://x.example/h"}, format="json")
    assert response.status_code == expected
    assert Webhook.objects.exists() == (expected == 201)


# Reads need no credentials (IsAuthenticatedOrReadOnly), so nobody at all is refused: 403.
@pytest.mark.parametrize(("who", "expected"), matrix(200, {**ORGANISER_ONLY, "anon": 403}))
def test_who_may_read_the_delivery_log(client_for, tournament, hook, who, expected):
    response = client_for(who).get(f"{base(tournament)}{hook.pk}/deliveries/")
    assert response.status_code == expected
    if expected == 200:
        (row,) = response.json()
        assert (row["event"], row["status"], row["attempts"]) == ("round.opened", "pending", 1)
        assert row["payload"] == {"round": {"number": 1}}


def test_a_stranger_cannot_delete_or_change_a_hook(client_for, tournament, hook):
    for who in ("mallory", "bob"):
        client = client_for(who)
        assert client.delete(f"{base(tournament)}{hook.pk}/").status_code == 403
        response = client.patch(f"{base(tournament)}{hook.pk}/", {"active": False}, format="json")
        assert response.status_code == 403
    hook.refresh_from_db()
    assert hook.active


def test_an_organiser_pauses_and_deletes_a_hook(client_for, tournament, hook):
    client = client_for("alice")
    response = client.patch(
        f"{base(tournament)}{hook.pk}/", {"active": False, "url": "gopher://x"}, format="json"
    )
    assert response.status_code == 400 and "url" in response.json()
    hook.refresh_from_db()
    assert hook.active and hook.url == "https://example.org/h"
    response = client.patch(f"{base(tournament)}{hook.pk}/", {"active": False}, format="json")
    assert response.status_code == 200 and response.json()["active"] is False
    assert client.delete(f"{base(tournament)}{hook.pk}/").status_code == 204
    assert not Webhook.objects.exists() and not WebhookDelivery.objects.exists()
    assert client.delete(f"{base(tournament)}{hook.pk}/").status_code == 404
