"""Webhooks that cannot reach inside: where a hook may point, checked when it is
registered (a 400 naming `url` through the API) and again before every delivery; one
lookup per attempt, and the connection goes to the address checked; no redirects; a
failed delivery says nothing a port scanner could use; the log keeps what was sent.

Every target in `REFUSED_ALWAYS` and `LOCAL` is tried against the real rules (the system
resolver reads `localhost`, `127.1`, `2130706433`, `0x7f.1`); the receivers are real HTTP
servers on 127.0.0.1.
"""

from __future__ import annotations

import socket

import pytest

from scoring.errors import RuleError
from tests.factories import open_round
from tests.receiver import Receiver
from tournaments import webhook_targets as targets
from tournaments.models import Webhook, WebhookDelivery
from tournaments.services.webhook_deliveries import NO_ANSWER, REFUSED, webhook_deliver
from tournaments.services.webhooks import webhook_create
from tournaments.webhook_signing import verify_signature
from tournaments.webhook_targets import Refused, check_target

pytestmark = pytest.mark.django_db

SECRET = "a-shared-secret-of-some-length"

# This machine and its private networks: refused unless WEBHOOK_ALLOW_PRIVATE is on.
LOCAL = [
    "http://127.0.0.1:8190/hook",
    "http://localhost:8190/hook",
    "http://[::1]:8190/hook",
    "http://127.1:8190/hook",
    "http://2130706433:8190/hook",
    "http://0x7f.1:8190/hook",
    "http://017700000001:8190/hook",
    "http://127.0.0.2/hook",
    "http://[::ffff:127.0.0.1]:8190/hook",
    "http://[::ffff:7f00:1]/hook",
    "http://[64:ff9b::7f00:1]/hook",
    "http://10.0.0.5:8080/hook",
    "http://172.16.3.4/hook",
    "http://192.168.1.20/hook",
    "https://192.168.1.20:8443/hook",
    "http://100.64.0.1/hook",
    "http://[fd00::1]/hook",
]
# Refused whatever the setting says.
REFUSED_ALWAYS = [
    "http://0.0.0.0:8190/hook",
    "http://0.0.0.0/hook",
    "http://0/hook",
    "http://0.1.2.3/hook",
    "http://[::]/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fe80::1]/hook",
    "http://224.0.0.1/hook",
    "http://[ff02::1]/hook",
    "http://240.0.0.1/hook",
    "http://255.255.255.255/hook",
    "http://[::ffff:169.254.169.254]/hook",
    "http://[2002:a9fe:a9fe::]/hook",  # 6to4 wrapping 169.254.169.254
    "http://127.0.0.1:5432/",  # PostgreSQL
    "http://127.0.0.1:6379/",  # Redis
    "http://localhost:5432/",
    "http://[::1]:6379/",
    "http://127.0.0.1:22/",
    "http://127.0.0.1:25/",
    "http://10.0.0.5:11211/",
    "http://127.0.0.1:0/",
    "http://127.0.0.1:99999/",
    "https://93.184.215.14:22/hook",  # a public host, but not an ordinary port
    "https://93.184.215.14:5432/hook",
    "http://user:password@93.184.215.14/hook",
    "http://93.184.215.14@127.0.0.1:8190/hook",
    "ftp://93.184.215.14/hook",
    "file:///etc/passwd",
    "gopher://127.0.0.1:6379/_INFO",
]
# Public: accepted (a host that cannot be found now is accepted too, see the service).
PUBLIC = [
    "http://93.184.215.14/hook",
    "https://93.184.215.14:8443/hook",
    "https://[2606:4700:4700::1111]/hook",
    "http://[::ffff:93.184.215.14]/hook",
    "https://hooks.example.org/rummitab",
]


def base(tournament) -> str:
    return f"/api/v1/tournaments/{tournament.slug}/webhooks/"


@pytest.mark.parametrize("url", LOCAL + REFUSED_ALWAYS)
def test_with_private_targets_off_every_inside_target_is_refused(
    client_for, tournament, settings, url
):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    response = client_for("alice").post(base(tournament), {"url": url}, format="json")
    assert response.status_code == 400, (url, response.content)
    assert list(response.json()) == ["url"]
    assert not Webhook.objects.exists()


@pytest.mark.parametrize("url", REFUSED_ALWAYS)
def test_allowing_private_targets_still_refuses_the_rest(tournament, alice, settings, url):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    with pytest.raises(RuleError) as caught:
        webhook_create(tournament=tournament, by=alice, url=url)
    assert caught.value.path == ("url",)


@pytest.mark.parametrize("url", LOCAL)
def test_allowing_private_targets_allows_the_club_network(tournament, alice, settings, url):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    hook, _ = webhook_create(tournament=tournament, by=alice, url=url)
    assert hook.url == url


@pytest.mark.parametrize("url", PUBLIC)
def test_public_targets_are_accepted(tournament, alice, settings, url):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    hook, _ = webhook_create(tournament=tournament, by=alice, url=url)
    assert hook.url == url


def test_changing_a_hook_to_an_inside_address_is_refused(client_for, tournament, alice):
    hook, _ = webhook_create(tournament=tournament, by=alice, url="https://93.184.215.14/h")
    response = client_for("alice").patch(
        f"{base(tournament)}{hook.pk}/", {"url": "http://127.1:6379/"}, format="json"
    )
    assert response.status_code == 400 and list(response.json()) == ["url"]
    hook.refresh_from_db()
    assert hook.url == "https://93.184.215.14/h"


def test_a_host_with_one_private_address_among_public_ones_is_refused(monkeypatch):
    def answer(host, port, *args, **kwargs):
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", port)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.1.2.3", port)),
        ]

    monkeypatch.setattr(targets.socket, "getaddrinfo", answer)
    with pytest.raises(Refused):
        check_target("https://mixed.example.org/h", allow_private=False)


def test_a_target_refused_at_delivery_fails_at_once_and_sends_nothing(
    tournament, alice, settings, django_capture_on_commit_callbacks
):
    """Registered while private targets were allowed, delivered after they were not (as
    if its DNS had changed): nothing is sent, the delivery fails with a neutral word."""
    receiver = Receiver(SECRET, [200])
    try:
        settings.WEBHOOK_ALLOW_PRIVATE = True
        webhook_create(tournament=tournament, by=alice, url=receiver.url, secret=SECRET)
        settings.WEBHOOK_ALLOW_PRIVATE = False
        with django_capture_on_commit_callbacks(execute=True):
            open_round(tournament, alice)
    finally:
        receiver.stop()
    assert receiver.received == []
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("failed", 1, None)
    assert delivery.last_error == REFUSED
    assert delivery.sent_signature == "" and delivery.sent_body == ""


def test_one_lookup_per_attempt_and_the_connection_goes_to_the_address_checked(
    tournament, alice, settings, monkeypatch
):
    """A rebinding DNS answers the check with the receiver's address and any later
    lookup with another one: the POST still reaches the receiver, after one lookup."""
    settings.WEBHOOK_ALLOW_PRIVATE = True
    receiver = Receiver(SECRET, [200])
    port = receiver.server.server_address[1]
    real = socket.getaddrinfo
    lookups = []

    def rebinding(host, *args, **kwargs):
        if host != "rebind.example.org":
            return real(host, *args, **kwargs)
        lookups.append(host)
        address = "127.0.0.1" if len(lookups) == 1 else "10.255.255.1"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    try:
        hook = Webhook.objects.create(
            tournament=tournament, url=f"http://rebind.example.org:{port}/hook", secret=SECRET
        )
        delivery = WebhookDelivery.objects.create(webhook=hook, event="round.opened")
        status = webhook_deliver(delivery_id=delivery.pk, timeout=3)
    finally:
        receiver.stop()
    assert status == "delivered" and lookups == ["rebind.example.org"]
    assert receiver.received[0].headers["Host"] == f"rebind.example.org:{port}"


def test_redirects_are_not_followed(tournament, alice, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    elsewhere = Receiver(SECRET, [200])
    redirecting = Receiver(SECRET, [307], headers={"Location": elsewhere.url})
    try:
        hook, _ = webhook_create(
            tournament=tournament, by=alice, url=redirecting.url, secret=SECRET
        )
        delivery = WebhookDelivery.objects.create(webhook=hook, event="round.opened")
        status = webhook_deliver(delivery_id=delivery.pk, timeout=3)
    finally:
        redirecting.stop()
        elsewhere.stop()
    assert status == "pending"  # a 3xx is not a delivery: tried again later
    delivery.refresh_from_db()
    assert (delivery.last_status_code, delivery.last_error) == (307, "answered 307")
    assert len(redirecting.received) == 1 and elsewhere.received == []


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_failed_delivery_says_nothing_a_port_scanner_could_use(tournament, settings):
    """A closed port, a host that does not exist and an answered 500 are told apart
    only by the answer's status: no socket error's text."""
    settings.WEBHOOK_ALLOW_PRIVATE = True
    refusing = Receiver(SECRET, [500])
    urls = [
        f"http://127.0.0.1:{closed_port()}/",
        "http://no-such-host.invalid/",
        refusing.url,
    ]
    try:
        logged = []
        for url in urls:
            hook = Webhook.objects.create(tournament=tournament, url=url, secret=SECRET)
            delivery = WebhookDelivery.objects.create(webhook=hook, event="round.opened")
            webhook_deliver(delivery_id=delivery.pk, last_try=True, timeout=2)
            delivery.refresh_from_db()
            logged.append((delivery.status, delivery.last_status_code, delivery.last_error))
    finally:
        refusing.stop()
    assert logged == [
        ("failed", None, NO_ANSWER),
        ("failed", None, NO_ANSWER),
        ("failed", 500, "answered 500"),
    ]


def test_the_log_keeps_the_body_and_the_exact_signature_sent(
    client_for, tournament, alice, settings
):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    receiver = Receiver(SECRET, [200])
    try:
        hook, _ = webhook_create(tournament=tournament, by=alice, url=receiver.url, secret=SECRET)
        delivery = WebhookDelivery.objects.create(
            webhook=hook, event="round.opened", payload={"round": {"number": 1}}
        )
        assert webhook_deliver(delivery_id=delivery.pk, timeout=3) == "delivered"
    finally:
        receiver.stop()
    got = receiver.received[0]
    delivery.refresh_from_db()
    assert delivery.sent_body.encode() == got.body
    assert delivery.sent_signature == got.headers["X-Rummitab-Signature"]
    assert verify_signature(delivery.sent_signature, got.body, SECRET)

    logged = client_for("alice").get(f"{base(tournament)}{hook.pk}/deliveries/").json()
    assert logged[0]["sent_body"] == delivery.sent_body
    assert logged[0]["sent_signature"] == delivery.sent_signature
    assert logged[0]["last_status_code"] == 200
