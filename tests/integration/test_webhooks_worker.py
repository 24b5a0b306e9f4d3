"""Webhooks delivered by a real Celery worker on Redis to a real HTTP receiver on
localhost (allowed by WEBHOOK_ALLOW_PRIVATE): the receiver refuses the first POST (500)
and takes the second (200), and checks the timed signature of each against the hook's
secret."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tests.integration.conftest import Worker, wait_for, worker_environment
from tests.receiver import Receiver
from tournaments.models import WebhookDelivery
from tournaments.services.webhooks import webhook_create

pytestmark = pytest.mark.integration

SECRET = "integration-test-secret-0123456789"


def settled(event: str) -> WebhookDelivery | None:
    delivery = WebhookDelivery.objects.filter(event=event).first()
    if delivery is None or delivery.status == WebhookDelivery.Status.PENDING:
        return None
    return delivery


@pytest.fixture(autouse=True)
def _local_receivers(settings):
    """The receivers listen on 127.0.0.1: allowed here (registration, in this process)
    and in the workers (WEBHOOK_ALLOW_PRIVATE in their environment)."""
    settings.WEBHOOK_ALLOW_PRIVATE = True


def test_a_refused_delivery_is_retried_by_the_worker_and_signed_each_time(
    live_jobs, alice, bob, tmp_path
):
    env = worker_environment(live_jobs, WEBHOOK_ALLOW_PRIVATE="1")
    worker = Worker("config", env, tmp_path / "worker.log")
    receiver = Receiver(SECRET, [500, 200])
    try:
        tournament = make_tournament(alice, players=4, scorekeepers=[bob])
        webhook_create(
            tournament=tournament,
            by=alice,
            url=receiver.url,
            secret=SECRET,
            events=["round.opened"],
        )
        round_ = open_round(tournament, alice)
        delivery, _ = wait_for(lambda: settled("round.opened"), timeout=30)
        assert delivery is not None, worker.log.read_text()[-3000:]
    finally:
        receiver.stop()
        worker.stop()

    assert delivery.status == "delivered", (delivery.last_error, delivery.attempts)
    assert (delivery.attempts, delivery.last_status_code) == (2, 200)
    assert len(receiver.received) == 2
    assert all(got.signed for got in receiver.received)
    assert {got.headers["X-Rummitab-Delivery"] for got in receiver.received} == {str(delivery.pk)}
    assert receiver.received[0].body == receiver.received[1].body
    # The log keeps what the last attempt sent, byte for byte.
    assert delivery.sent_body.encode() == receiver.received[1].body
    assert delivery.sent_signature == receiver.received[1].headers["X-Rummitab-Signature"]
    assert receiver.received[1].document["round"]["number"] == round_.number


def test_a_receiver_that_keeps_refusing_ends_failed_after_every_attempt(
    live_jobs, alice, bob, tmp_path
):
    env = worker_environment(
        live_jobs, WEBHOOK_ATTEMPTS="3", WEBHOOK_RETRY_BASE_SECONDS="1", WEBHOOK_ALLOW_PRIVATE="1"
    )
    running = Worker("config", env, tmp_path / "worker.log")
    receiver = Receiver("not-the-hook-secret-at-all", [503])
    try:
        tournament = make_tournament(alice, players=4, scorekeepers=[bob])
        game_round = open_round(tournament, alice)
        webhook_create(
            tournament=tournament,
            by=alice,
            url=receiver.url,
            secret=SECRET,
            events=["result.confirmed"],
        )
        enter_rummikub(Game.objects.filter(table__round=game_round).first(), bob)
        delivery, _ = wait_for(lambda: settled("result.confirmed"), timeout=30)
        assert delivery is not None, (tmp_path / "worker.log").read_text()[-3000:]
    finally:
        receiver.stop()
        running.stop()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("failed", 3, 503)
    assert len(receiver.received) == 3
    # A receiver holding another secret sees a signature it cannot match.
    assert not any(got.signed for got in receiver.received)
