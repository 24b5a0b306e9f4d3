"""The Webhooks page: organisers add a hook (its generated secret shown once), see each
hook's delivery log with its status, delete a hook; bad input shows beside its field and
saves nothing; anyone else is refused."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.web import field_errors, text
from tournaments.models import Webhook, WebhookDelivery
from tournaments.services.webhooks import webhook_create

pytestmark = pytest.mark.django_db


def page(tournament) -> str:
    return reverse("tournament-webhooks", args=[tournament.slug])


def test_the_tournament_menu_links_the_page_for_organisers_only(as_user, club):
    url = page(club)
    assert url in text(as_user("alice").get(reverse("tournament-detail", args=[club.slug])))
    assert url not in text(as_user("bob").get(reverse("tournament-detail", args=[club.slug])))


def test_an_organiser_adds_a_hook_and_sees_its_secret_once(as_user, club):
    client = as_user("alice")
    response = client.post(page(club), {"url": "https://example.org/h", "events": ["round.opened"]})
    assert response.status_code == 200
    hook = Webhook.objects.get()
    assert hook.events == ["round.opened"]
    assert hook.secret in text(response)
    again = text(client.get(page(club)))
    assert "https://example.org/h" in again and hook.secret not in again


def test_a_bad_address_shows_beside_the_field(as_user, club):
    response = as_user("alice").post(
        page(club), {"url": "ftp://example.org/h", "events": ["round.opened"]}
    )
    assert response.status_code == 200
    assert field_errors(text(response), "id_url") == [
        "must be an http:// or https:// address with a host."
    ]
    assert not Webhook.objects.exists()


def test_no_event_chosen_shows_beside_the_events(as_user, club):
    response = as_user("alice").post(page(club), {"url": "https://example.org/h"})
    assert "choose at least one" in " ".join(field_errors(text(response), "id_events"))
    assert not Webhook.objects.exists()


@pytest.mark.parametrize("who", ["bob", "mallory"])
def test_anyone_else_is_refused(as_user, club, alice, who):
    hook, _ = webhook_create(tournament=club, by=alice, url="https://example.org/h")
    client = as_user(who)
    assert client.get(page(club)).status_code == 403
    assert client.post(page(club), {"url": "https://x.example/h"}).status_code == 403
    delete = reverse("webhook-delete", args=[club.slug, hook.pk])
    assert client.post(delete).status_code == 403
    assert Webhook.objects.count() == 1


def test_the_log_shows_each_delivery_and_delete_removes_the_hook(
    as_user, club, alice, django_assert_max_num_queries
):
    hook, _ = webhook_create(tournament=club, by=alice, url="https://example.org/h")
    WebhookDelivery.objects.create(
        webhook=hook, event="result.confirmed", status="failed", attempts=5, last_status_code=500
    )
    client = as_user("alice")
    with django_assert_max_num_queries(12):
        shown = text(client.get(page(club)))
    assert "result.confirmed" in shown and "Failed" in shown and "500" in shown
    response = client.post(reverse("webhook-delete", args=[club.slug, hook.pk]))
    assert response.status_code == 302
    assert not Webhook.objects.exists() and not WebhookDelivery.objects.exists()


def test_an_address_inside_shows_beside_the_field(as_user, club, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    response = as_user("alice").post(
        page(club), {"url": "http://127.1:6379/", "events": ["round.opened"]}
    )
    assert response.status_code == 200
    assert field_errors(text(response), "id_url") == [
        "port 6379 is not allowed: use 80, 443 or a port from 1024 up."
    ]
    response = as_user("alice").post(
        page(club), {"url": "http://localhost:8000/", "events": ["round.opened"]}
    )
    assert "must reach a public address" in " ".join(field_errors(text(response), "id_url"))
    assert not Webhook.objects.exists()


def test_the_log_shows_the_body_and_the_signature_header_sent(as_user, club, alice):
    hook, _ = webhook_create(tournament=club, by=alice, url="https://example.org/h")
    WebhookDelivery.objects.create(
        webhook=hook,
        event="round.opened",
        status="delivered",
        delivered_at=hook.created_at,
        attempts=1,
        last_status_code=200,
        sent_body='{"delivery":1,"event":"round.opened"}',
        sent_signature="t=1796497333,v1=" + "ab" * 32,
    )
    shown = html.unescape(text(as_user("alice").get(page(club))))
    assert "X-Rummitab-Signature: t=1796497333,v1=" + "ab" * 32 in shown
    assert '{"delivery":1,"event":"round.opened"}' in shown
