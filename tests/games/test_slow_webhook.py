"""Nothing slow on the request path: without a broker, a webhook receiver that
hangs — a real server on 127.0.0.1 that accepts and never finishes its answer, dripping
a byte every half second or sending nothing — neither delays nor fails a result
submitted through a real threaded server (`live_server`, no test client): the answer is
201 at once, the result is stored, the standings follow on the jobs thread while the
hook still hangs, and the delivery is later logged as retrying, then failed, with the
neutral "no answer". Also: the thread mode retries a refused delivery with the backoff.
"""

from __future__ import annotations

import time

import pytest
import requests
from rest_framework.authtoken.models import Token

from games.models import Game, Result
from games.services.standings import latest_standings
from tests.factories import make_tournament, open_round
from tests.games.helpers import seated
from tests.receiver import Hanging, Receiver
from tournaments import jobs
from tournaments.models import Tournament, WebhookDelivery
from tournaments.services.webhook_deliveries import NO_ANSWER
from tournaments.services.webhooks import webhook_create

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "a-shared-secret-of-some-length"
# The answer's bound, well below WEBHOOK_EAGER_TIMEOUT (set to 5 s here): the time the
# request used to wait per hook at best (a dripping receiver made it wait ~31 s, then
# 500). An ordinary submission takes 0.2-0.7 s on a busy two-core test machine.
EAGER_TIMEOUT = 5
# Below the hook's EAGER_TIMEOUT, so a submission that waited on the hook still fails; room
# above the ordinary time for a suite running in several processes on two cores.
FAST = 3.0


@pytest.fixture
def thread_jobs(settings):
    """The club laptop without a broker: jobs on the worker threads; short webhook
    attempts so the test sees the retry and the failure."""
    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.WEBHOOK_TIMEOUT = 3
    settings.WEBHOOK_ATTEMPTS = 2
    settings.WEBHOOK_RETRY_BASE_SECONDS = 1
    settings.JOBS_INLINE = False
    yield
    jobs.shutdown(timeout=10)


def wait_for(predicate, timeout: float):
    deadline = time.monotonic() + timeout
    while (value := predicate()) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return value


def entry(game: Game) -> dict:
    p1, p2, p3, p4 = seated(game)
    return {
        "based_on": 0,
        "end": "rummikub",
        "winner": p1,
        "racks": [
            {"player": p1, "tiles": ""},
            {"player": p2, "tiles": "R4 B10 K2"},
            {"player": p3, "tiles": "J 7"},
            {"player": p4, "tiles": "O3"},
        ],
    }


@pytest.mark.parametrize("drip", [0.5, None], ids=["drips", "silent"])
def test_a_hanging_receiver_neither_delays_nor_fails_a_submission(
    live_server, alice, bob, settings, drip
):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.WEBHOOK_EAGER_TIMEOUT = EAGER_TIMEOUT
    settings.WEBHOOK_TIMEOUT = 3
    settings.WEBHOOK_ATTEMPTS = 2
    settings.WEBHOOK_RETRY_BASE_SECONDS = 1
    tournament = make_tournament(alice, players=4, scorekeepers=[bob])
    game = Game.objects.get(table__round=open_round(tournament, alice), number=1)
    hanging = Hanging(drip=drip)
    webhook_create(
        tournament=tournament,
        by=alice,
        url=hanging.url,
        secret=SECRET,
        events=["result.confirmed"],
    )
    # From here on the club laptop without a broker (set-up above ran inline).
    settings.JOBS_INLINE = False
    session = requests.Session()
    session.headers["Authorization"] = f"Token {Token.objects.create(user=bob).key}"
    url = f"{live_server.url}/api/v1/games/{game.pk}/results/"
    try:
        assert session.get(url, timeout=10).status_code == 200  # warm the server up
        started = time.monotonic()
        answer = session.post(url, json=entry(game), timeout=30)
        took = time.monotonic() - started
        print(f"submission answered {answer.status_code} in {took:.3f} s (hook: {drip=})")
        assert answer.status_code == 201, answer.text
        assert took < FAST, f"the submission took {took:.2f} s"
        assert Result.objects.filter(game=game, status="confirmed").count() == 1

        # The standings follow on the jobs thread while the hook still hangs.
        version = Tournament.objects.get(pk=tournament.pk).results_version

        def fresh():
            snapshot = latest_standings(tournament)
            return snapshot if snapshot and snapshot.computed_version == version else None

        assert wait_for(fresh, 4) is not None  # before the hang's cut-off at EAGER_TIMEOUT
        delivery = WebhookDelivery.objects.get()
        assert (delivery.status, delivery.attempts) == ("pending", 0)  # still hanging

        retrying = wait_for(
            lambda: WebhookDelivery.objects.filter(attempts=1, status="pending").first(), 6
        )
        assert retrying is not None, "the first attempt was not cut off"
        assert (retrying.last_status_code, retrying.last_error) == (None, NO_ANSWER)
        failed = wait_for(lambda: WebhookDelivery.objects.filter(status="failed").first(), 10)
        assert failed is not None, "the retry did not come"
        assert (failed.attempts, failed.last_status_code, failed.last_error) == (
            2,
            None,
            NO_ANSWER,
        )
        assert hanging.accepted == 2
    finally:
        jobs.shutdown(timeout=10)
        hanging.stop()


def test_the_thread_retries_a_refused_delivery_with_the_backoff(alice, bob, thread_jobs):
    tournament = make_tournament(alice, players=4, scorekeepers=[bob])
    flaky = Receiver(SECRET, [503, 200])
    try:
        webhook_create(
            tournament=tournament,
            by=alice,
            url=flaky.url,
            secret=SECRET,
            events=["round.opened"],
        )
        started = time.monotonic()
        open_round(tournament, alice)
        assert time.monotonic() - started < 2  # the round opens without waiting
        delivered = wait_for(lambda: WebhookDelivery.objects.filter(status="delivered").first(), 10)
    finally:
        jobs.shutdown(timeout=5)
        flaky.stop()
    assert delivered is not None
    assert (delivered.attempts, delivered.last_status_code) == (2, 200)
    assert [got.signed for got in flaky.received] == [True, True]
    # The retry waited its backoff (WEBHOOK_RETRY_BASE_SECONDS after the first try) and
    # was signed anew: same body, a new time.
    first, second = flaky.received
    assert first.body == second.body
    assert first.headers["X-Rummitab-Signature"] != second.headers["X-Rummitab-Signature"]
