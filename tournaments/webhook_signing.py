"""How a webhook delivery is signed, and how its receiver checks it.

Terms:
* signature — the header `X-Rummitab-Signature: t=<unix seconds>,v1=<hex>`, where the hex
  is the HMAC-SHA256, keyed with the hook's secret, of `"<t>.<raw body>"` (the scheme of
  the big payment and chat platforms). A new `t` on every attempt. A receiver checks it
  with `verify_signature`: `t` within a tolerance of its clock (`SIGNATURE_TOLERANCE`,
  300 s) and the HMAC equal in constant time, so a captured delivery cannot be replayed
  later. `X-Rummitab-Event` names the event and `X-Rummitab-Delivery` the delivery's id
  (the same on every attempt, so a receiver can ignore a repeat).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time

from .models import WebhookDelivery

SIGNATURE_HEADER = "X-Rummitab-Signature"
EVENT_HEADER = "X-Rummitab-Event"
DELIVERY_HEADER = "X-Rummitab-Delivery"
ERROR_LENGTH = 300
# A receiver's check accepts a signature this many seconds old (or early) at most.
SIGNATURE_TOLERANCE = 300


def signature(secret: str, body: bytes, timestamp: int | None = None) -> str:
    """The signature header's value for `body` sent at `timestamp` (now when not given):
    `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>`."""
    t = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={t},v1={digest}"


def verify_signature(
    header: str,
    body: bytes,
    secret: str,
    tolerance: float = SIGNATURE_TOLERANCE,
    *,
    now: float | None = None,
) -> bool:
    """A receiver's check of `X-Rummitab-Signature`: the header names a time `t` within
    `tolerance` seconds of `now` (this machine's clock when not given) and one of its
    `v1` values is the HMAC-SHA256 of `"<t>.<body>"` with the secret (compared in
    constant time). A captured delivery replayed later than the tolerance is refused."""
    timestamp, given = None, []
    for item in header.split(","):
        name, _sep, value = item.strip().partition("=")
        if name == "t":
            timestamp = value
        elif name == "v1":
            given.append(value)
    if not timestamp or not (timestamp.isascii() and timestamp.isdigit()) or not given:
        return False
    if abs((time.time() if now is None else now) - int(timestamp)) > tolerance:
        return False
    key = secret.encode()
    expected = hmac.new(key, f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, value) for value in given)


def delivery_body(delivery: WebhookDelivery) -> bytes:
    """The JSON POSTed: the event, the delivery's id and the payload (the same bytes on
    every attempt)."""
    document = {"event": delivery.event, "delivery": delivery.pk, **delivery.payload}
    return json.dumps(document, sort_keys=True, separators=(",", ":")).encode()
