"""Webhooks: who may add them, what a bad address says, and the signed POSTs a real local
receiver gets when a round opens, a result is confirmed and the standings follow (jobs
in-process here: one short attempt each; the worker's retries are the integration
test's)."""

from __future__ import annotations

import hashlib
import hmac
import socket
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Game, Result
from games.services.results import result_confirm, result_submit
from games.services.standings import latest_standings, standings_announce
from scoring.errors import RuleError
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, rummikub_racks, seated
from tests.receiver import Receiver
from tournaments.models import Webhook, WebhookDelivery
from tournaments.services.webhook_deliveries import webhook_deliver, webhooks_repair
from tournaments.services.webhooks import webhook_create, webhook_delete, webhook_update
from tournaments.webhook_signing import delivery_body, signature

pytestmark = pytest.mark.django_db

SECRET = "a-shared-secret-of-some-length"


@pytest.fixture
def tournament(alice, bob, django_capture_on_commit_callbacks):
    # Committed, so that a later change enqueues its own recompute.
    with django_capture_on_commit_callbacks(execute=True):
        return make_tournament(alice, players=4, scorekeepers=[bob])


@pytest.fixture(autouse=True)
def _local_receivers(settings):
    """The receivers here listen on 127.0.0.1: allowed only as a club's own network."""
    settings.WEBHOOK_ALLOW_PRIVATE = True


def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens (bound once, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def receiver():
    running = Receiver(SECRET, [200])
    yield running
    running.stop()


def test_a_hook_gets_a_generated_secret_and_every_event_by_default(tournament, alice):
    hook, secret = webhook_create(tournament=tournament, by=alice, url="https://example.org/h")
    assert len(secret) == 64 and int(secret, 16) >= 0
    assert hook.secret == secret
    assert hook.events == ["result.confirmed", "round.opened", "standings.updated"]
    assert hook.created_by == alice


def test_a_bad_address_and_unknown_events_are_named_together(tournament, alice):
    with pytest.raises(RuleError) as caught:
        webhook_create(
            tournament=tournament, by=alice, url="ftp://example.org/h", events=["result.eaten"]
        )
    paths = {single.path for single in caught.value.flatten()}
    assert paths == {("url",), ("events",)}
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [("url", "javascript:alert(1)"), ("url", "http://"), ("url", ""), ("secret", "short")],
)
def test_each_bad_field_is_refused(tournament, alice, field, value):
    values = {"url": "https://example.org/h", field: value}
    with pytest.raises(RuleError) as caught:
        webhook_create(tournament=tournament, by=alice, **values)
    assert caught.value.path == (field,)


def test_only_organisers_manage_hooks(tournament, alice, bob, mallory):
    for stranger in (bob, mallory):
        with pytest.raises(PermissionDenied):
            webhook_create(tournament=tournament, by=stranger, url="https://example.org/h")
    hook, _ = webhook_create(tournament=tournament, by=alice, url="https://example.org/h")
    with pytest.raises(PermissionDenied):
        webhook_update(webhook=hook, by=bob, active=False)
    with pytest.raises(PermissionDenied):
        webhook_delete(webhook=hook, by=mallory)
    webhook_update(webhook=hook, by=alice, events=["round.opened"], active=False)
    hook.refresh_from_db()
    assert hook.events == ["round.opened"] and not hook.active
    webhook_delete(webhook=hook, by=alice)
    assert not Webhook.objects.exists()


def test_the_database_refuses_a_hook_without_events(tournament):
    with pytest.raises(IntegrityError), transaction.atomic():
        Webhook.objects.create(
            tournament=tournament,
            url="https://example.org/h",
            secret=SECRET,
            on_result_confirmed=False,
            on_round_opened=False,
            on_standings_updated=False,
        )


def test_events_reach_the_receiver_signed(
    tournament, alice, bob, receiver, django_capture_on_commit_callbacks
):
    webhook_create(tournament=tournament, by=alice, url=receiver.url, secret=SECRET)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = open_round(tournament, alice)
    game = Game.objects.filter(table__round=round_).order_by("number").first()
    with django_capture_on_commit_callbacks(execute=True):
        enter_rummikub(game, bob)

    events = [got.headers["X-Rummitab-Event"] for got in receiver.received]
    assert events[0] == "round.opened"
    assert "result.confirmed" in events and "standings.updated" in events
    assert all(got.signed for got in receiver.received)
    deliveries = {d.pk: d for d in WebhookDelivery.objects.all()}
    for got in receiver.received:
        delivery = deliveries[int(got.headers["X-Rummitab-Delivery"])]
        assert delivery.status == "delivered" and delivery.attempts == 1
        assert delivery.last_status_code == 200 and delivery.delivered_at is not None
        assert got.document["event"] == delivery.event
        assert got.document["tournament"]["slug"] == tournament.slug

    opened = receiver.received[0].document
    assert opened["round"]["number"] == 1
    assert [seat["player"]["name"] for seat in opened["tables"][0]["seats"]] == [
        "Player 1",
        "Player 2",
        "Player 3",
        "Player 4",
    ]
    confirmed = next(
        g.document for g in receiver.received if g.document["event"] == "result.confirmed"
    )
    assert (confirmed["round"], confirmed["table"], confirmed["version"]) == (1, 1, 1)
    assert confirmed["game"]["number"] == game.number
    assert [rack["seat"] for rack in confirmed["racks"]] == [1, 2, 3, 4]
    assert confirmed["racks"][0]["winner"] is True
    standings = next(
        g.document for g in receiver.received if g.document["event"] == "standings.updated"
    )
    tournament.refresh_from_db()
    assert standings["computed_version"] == tournament.results_version
    assert len(standings["rows"]) == 4 and standings["rows"][0]["rank"] == 1


def test_a_submitted_result_is_announced_when_confirmed_not_before(
    alice, bob, carol, receiver, django_capture_on_commit_callbacks
):
    tournament = make_tournament(
        alice, players=4, scorekeepers=[bob, carol], results_need_confirmation=True
    )
    game = open_round(tournament, alice).tables.get().games.get(number=1)
    webhook_create(
        tournament=tournament,
        by=alice,
        url=receiver.url,
        secret=SECRET,
        events=["result.confirmed"],
    )
    with django_capture_on_commit_callbacks(execute=True):
        result = result_submit(
            game=game,
            by=bob,
            based_on=0,
            end="rummikub",
            winner=seated(game)[0],
            racks=rummikub_racks(game, "R4", "J", "O3"),
        )
    assert result.status == Result.Status.SUBMITTED and receiver.received == []
    with django_capture_on_commit_callbacks(execute=True):
        result_confirm(result=result, by=carol)
    assert [got.document["event"] for got in receiver.received] == ["result.confirmed"]


def test_a_failing_receiver_never_breaks_the_write(
    tournament, alice, bob, django_capture_on_commit_callbacks
):
    refusing = Receiver(SECRET, [500])
    try:
        webhook_create(tournament=tournament, by=alice, url=refusing.url, secret=SECRET)
        webhook_create(
            tournament=tournament,
            by=alice,
            url=f"http://127.0.0.1:{closed_port()}/nobody",
            secret=SECRET,
        )
        with django_capture_on_commit_callbacks(execute=True):
            round_ = open_round(tournament, alice)
    finally:
        refusing.stop()
    assert round_.pk is not None and round_.tables.count() == 1
    refused, unanswered = WebhookDelivery.objects.order_by("webhook__created_at", "webhook_id")
    # In process: one short attempt, final.
    assert (refused.status, refused.attempts, refused.last_status_code) == ("failed", 1, 500)
    assert unanswered.status == "failed" and unanswered.last_status_code is None
    # Neutral: not the socket's "Connection refused" (no port scanner).
    assert unanswered.last_error == "no answer"


def test_hooks_not_wanting_the_event_or_inactive_get_nothing(
    tournament, alice, receiver, django_capture_on_commit_callbacks
):
    webhook_create(
        tournament=tournament,
        by=alice,
        url=receiver.url,
        secret=SECRET,
        events=["result.confirmed"],
    )
    webhook_create(tournament=tournament, by=alice, url=receiver.url, secret=SECRET, active=False)
    with django_capture_on_commit_callbacks(execute=True):
        open_round(tournament, alice)
    assert receiver.received == [] and not WebhookDelivery.objects.exists()


def test_a_worker_tries_again_until_delivered_counting_attempts(tournament, alice):
    flaky = Receiver(SECRET, [500, 503, 200])
    try:
        hook, _ = webhook_create(tournament=tournament, by=alice, url=flaky.url, secret=SECRET)
        delivery = WebhookDelivery.objects.create(
            webhook=hook, event="round.opened", payload={"round": {"number": 1}}
        )
        statuses = [webhook_deliver(delivery_id=delivery.pk) for _ in range(4)]
    finally:
        flaky.stop()
    assert statuses == ["pending", "pending", "delivered", "delivered"]
    delivery.refresh_from_db()
    assert (delivery.attempts, delivery.last_status_code, delivery.last_error) == (3, 200, "")
    # Every attempt carried the same signed bytes.
    assert len({got.body for got in flaky.received}) == 1
    assert all(got.signed for got in flaky.received)


def test_attempts_run_out_into_failed(tournament, alice, settings):
    settings.WEBHOOK_ATTEMPTS = 2
    refusing = Receiver(SECRET, [500])
    try:
        hook, _ = webhook_create(tournament=tournament, by=alice, url=refusing.url, secret=SECRET)
        delivery = WebhookDelivery.objects.create(webhook=hook, event="round.opened")
        statuses = [webhook_deliver(delivery_id=delivery.pk) for _ in range(3)]
    finally:
        refusing.stop()
    assert statuses == ["pending", "failed", "failed"]
    assert len(refusing.received) == 2


def test_the_signature_is_hmac_sha256_of_the_time_and_the_body(tournament, alice):
    hook, secret = webhook_create(tournament=tournament, by=alice, url="https://example.org/h")
    delivery = WebhookDelivery.objects.create(webhook=hook, event="round.opened", payload={"a": 1})
    body = delivery_body(delivery)
    expected = hmac.new(secret.encode(), b"1764000000." + body, hashlib.sha256).hexdigest()
    assert signature(secret, body, 1764000000) == f"t=1764000000,v1={expected}"
    assert signature("another secret here", body, 1) != signature(secret, body, 1)


def test_a_snapshot_is_announced_once_per_hook(
    tournament, alice, receiver, django_capture_on_commit_callbacks
):
    webhook_create(
        tournament=tournament,
        by=alice,
        url=receiver.url,
        secret=SECRET,
        events=["standings.updated"],
    )
    snapshot = latest_standings(tournament)
    for _ in range(2):  # the job found the same snapshot twice
        with django_capture_on_commit_callbacks(execute=True):
            standings_announce(snapshot)
    assert WebhookDelivery.objects.filter(event="standings.updated").count() == 1
    assert [got.document["computed_version"] for got in receiver.received] == [
        snapshot.computed_version
    ]


def test_the_repair_sends_deliveries_left_waiting(tournament, alice, receiver, settings):
    hook, _ = webhook_create(tournament=tournament, by=alice, url=receiver.url, secret=SECRET)
    old = WebhookDelivery.objects.create(webhook=hook, event="round.opened")
    new = WebhookDelivery.objects.create(webhook=hook, event="round.opened")
    WebhookDelivery.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(seconds=settings.WEBHOOK_REPAIR_SECONDS + 1)
    )
    assert webhooks_repair() == [old.pk]
    old.refresh_from_db()
    new.refresh_from_db()
    assert old.status == "delivered" and new.status == "pending"
    assert [got.headers["X-Rummitab-Delivery"] for got in receiver.received] == [str(old.pk)]
