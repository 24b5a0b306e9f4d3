"""Signatures that expire: `X-Rummitab-Signature: t=<unix>,v1=<hex HMAC-SHA256 of
"<t>.<body>">`, checked by `verify_signature` with a tolerance — a captured delivery
replayed later than that is refused. The receiver (tests/receiver.py) uses the same
check on real deliveries."""

from __future__ import annotations

import hashlib
import hmac
import re
import time

import pytest

from tests.factories import make_tournament
from tests.receiver import Receiver
from tournaments.models import WebhookDelivery
from tournaments.services.webhook_deliveries import webhook_deliver
from tournaments.services.webhooks import webhook_create
from tournaments.webhook_signing import SIGNATURE_TOLERANCE, signature, verify_signature

SECRET = "a-shared-secret-of-some-length"
BODY = b'{"delivery":7,"event":"round.opened"}'
T = 1_796_497_333


def hex_hmac(message: bytes, secret: str = SECRET) -> str:
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def test_the_header_is_the_time_and_the_hmac_of_time_dot_body():
    assert signature(SECRET, BODY, T) == f"t={T},v1={hex_hmac(f'{T}.'.encode() + BODY)}"
    assert re.fullmatch(r"t=\d+,v1=[0-9a-f]{64}", signature(SECRET, BODY))
    assert abs(int(signature(SECRET, BODY).split(",")[0][2:]) - time.time()) <= 2


def test_a_fresh_signature_passes_within_the_tolerance_either_way():
    header = signature(SECRET, BODY, T)
    assert SIGNATURE_TOLERANCE == 300
    for now in (T, T + 300, T - 300):  # a receiver's clock a little behind, too
        assert verify_signature(header, BODY, SECRET, 300, now=now)


def test_a_replay_after_the_tolerance_is_refused():
    header = signature(SECRET, BODY, T)
    assert not verify_signature(header, BODY, SECRET, 300, now=T + 301)
    assert not verify_signature(header, BODY, SECRET, 300, now=T - 301)


@pytest.mark.parametrize(
    "header",
    [
        "",
        f"t={T}",
        f"v1={hex_hmac(f'{T}.'.encode() + BODY)}",
        f"sha256={hex_hmac(BODY)}",  # the old scheme: the body alone, no time
        f"t={T},v1={hex_hmac(BODY)}",  # the time left out of the HMAC
        f"t={T + 1},v1={hex_hmac(f'{T}.'.encode() + BODY)}",  # the time changed
        f"t=-{T},v1={hex_hmac(f'-{T}.'.encode() + BODY)}",
        f"t={T}.0,v1={hex_hmac(f'{T}.0.'.encode() + BODY)}",
        f"t=١٧٩٦٤٩٧٣٣٣,v1={hex_hmac(f'{T}.'.encode() + BODY)}",  # non-ASCII digits
        f"t={T},v1={hex_hmac(f'{T}.'.encode() + BODY, 'another secret, not ours')}",
    ],
)
def test_anything_else_is_refused(header):
    assert not verify_signature(header, BODY, SECRET, 300, now=T)


def test_a_changed_body_is_refused_and_any_matching_v1_passes():
    header = signature(SECRET, BODY, T)
    assert not verify_signature(header, BODY + b" ", SECRET, 300, now=T)
    # Several v1 values (a receiver rotating secrets): one that matches is enough.
    rotated = f"t={T},v1={'0' * 64},v1={hex_hmac(f'{T}.'.encode() + BODY)}"
    assert verify_signature(rotated, BODY, SECRET, 300, now=T)


@pytest.mark.django_db
def test_a_real_delivery_passes_the_receivers_check_and_its_replay_does_not(alice, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    tournament = make_tournament(alice, players=4)
    receiver = Receiver(SECRET, [200])
    try:
        hook, _ = webhook_create(tournament=tournament, by=alice, url=receiver.url, secret=SECRET)
        delivery = WebhookDelivery.objects.create(webhook=hook, event="round.opened")
        assert webhook_deliver(delivery_id=delivery.pk, timeout=3) == "delivered"
    finally:
        receiver.stop()
    got = receiver.received[0]
    assert got.signed
    header = got.headers["X-Rummitab-Signature"]
    sent_at = int(header.split(",")[0].removeprefix("t="))
    # The same bytes, captured and sent again six minutes later.
    assert not verify_signature(header, got.body, SECRET, 300, now=sent_at + 360)
