"""Webhook deliveries sent: one attempt at a time, logged, tried again with growing
delays (`tournaments.services.webhooks` makes the deliveries; `tournaments.webhook_targets`
checks the address, `tournaments.webhook_signing` signs the body).

Terms:
* attempt — one POST to the address just checked (no second lookup: a rebinding DNS
  cannot swap it), within `WEBHOOK_TIMEOUT` seconds (default 5) in all, from the
  connection to the answer's status line (a receiver that drips its answer is cut off;
  the body of the answer is not read; the lookup before it is bounded by the system
  resolver's own timeout). Redirects are not followed (a 3xx is an answer that is not
  2xx) and no proxy from the environment is used. A 2xx answer delivers; anything else
  is tried again with growing delays (`retry_delay`), up to `WEBHOOK_ATTEMPTS` attempts
  (default 5); then the delivery is `failed`. A target refused at delivery fails at once
  ("refused: not a permitted address") and nothing is sent.
* without a broker (`tournaments.jobs`): deliveries run on this process's `webhooks`
  lane after the response, never in the request, with the same attempts and backoff as
  a worker (a retry is a job queued for later; retries still queued when the process
  stops are dropped and their delivery stays `pending`). In the test suite's inline mode
  (`JOBS_INLINE`) a delivery is tried once, right after the commit, with a timeout of
  `WEBHOOK_EAGER_TIMEOUT` seconds (default 2), and a failure is final.
"""

from __future__ import annotations

import contextlib
import http.client
import logging
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from .. import jobs
from ..models import Webhook, WebhookDelivery
from ..webhook_signing import (
    DELIVERY_HEADER,
    EVENT_HEADER,
    SIGNATURE_HEADER,
    delivery_body,
    signature,
)
from ..webhook_targets import IPAddress, Refused, check_target
from .webhooks import webhook_enqueue

logger = logging.getLogger(__name__)

ERROR_LENGTH = 300

# What the delivery log says of an attempt without an answer, whatever the cause (refused,
# reset, timed out, no such host, TLS): the log must not tell a port scanner anything.
NO_ANSWER = "no answer"
# ... and of a target whose host now has an address the rules refuse (DNS changed since
# the hook was registered); nothing is sent and the delivery fails at once.
REFUSED = "refused: not a permitted address"


@dataclass(frozen=True)
class Attempt:
    """One POST as the delivery log keeps it: the answer's status code (None without
    one), the neutral error, the body and the exact signature header sent ("" when
    nothing was sent); `final` when trying again cannot help."""

    code: int | None
    error: str
    body: bytes
    signature: str
    final: bool = False


def _cut(connection: http.client.HTTPConnection) -> None:
    """End a connection from another thread: the deadline of an attempt has passed."""
    sock = connection.sock
    if sock is not None:
        with contextlib.suppress(OSError):
            # The plain socket's shutdown, also under TLS: the reading thread wakes up.
            socket.socket.shutdown(sock, socket.SHUT_RDWR)


def _connect_to(addresses: list[IPAddress], port: int) -> Callable[..., socket.socket]:
    """A stand-in for `socket.create_connection` that dials the checked addresses only,
    whatever host name `http.client` passes: no second lookup (DNS rebinding)."""

    def create_connection(
        _address: object, timeout: object = None, source: object = None
    ) -> socket.socket:
        last: OSError | None = None
        for address in addresses:
            try:
                return socket.create_connection((str(address), port), timeout)  # type: ignore[arg-type]
            except OSError as error:
                last = error
        raise last or OSError("no address")

    return create_connection


def _post(hook: Webhook, delivery: WebhookDelivery, timeout: float) -> Attempt:
    """POST once, within `timeout` seconds from the connection to the answer's status
    line and headers (a receiver that drips its answer is cut off; the body is not
    read)."""
    body = delivery_body(delivery)
    try:
        parts, host, port, addresses = check_target(hook.url)
    except Refused:
        return Attempt(None, REFUSED, b"", "", final=True)
    except OSError:  # the host cannot be found: nothing sent
        return Attempt(None, NO_ANSWER, b"", "")
    header = signature(hook.secret, body)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(host, port, timeout=timeout)
    connection._create_connection = _connect_to(addresses, port)  # type: ignore[attr-defined]
    deadline = threading.Timer(timeout, _cut, args=(connection,))
    deadline.daemon = True
    deadline.start()
    try:
        path = parts.path or "/"
        connection.request(
            "POST",
            f"{path}?{parts.query}" if parts.query else path,
            body=body,
            headers={
                "Content-Type": "application/json",
                "User-Agent": "Rummitab-Webhook/2",
                EVENT_HEADER: delivery.event,
                DELIVERY_HEADER: str(delivery.pk),
                SIGNATURE_HEADER: header,
            },
        )
        code = connection.getresponse().status
    except Exception:  # refused, reset, timed out, cut, TLS, a garbled answer: no answer
        return Attempt(None, NO_ANSWER, body, header)
    finally:
        deadline.cancel()
        connection.close()
    return Attempt(code, "" if 200 <= code < 300 else f"answered {code}", body, header)


def webhook_deliver(
    *, delivery_id: int, last_try: bool = False, timeout: float | None = None
) -> str:
    """Make one attempt at a pending delivery and log it; its status afterwards
    (`pending` means: try again). A delivery already delivered, failed or deleted is left
    alone (a task run twice sends once more at most)."""
    delivery = _attempt(delivery_id, last_try, timeout)
    return "gone" if delivery is None else delivery.status


def _attempt(delivery_id: int, last_try: bool, timeout: float | None) -> WebhookDelivery | None:
    delivery = WebhookDelivery.objects.select_related("webhook").filter(pk=delivery_id).first()
    if delivery is None or delivery.status != WebhookDelivery.Status.PENDING:
        return delivery
    attempt = _post(delivery.webhook, delivery, timeout or settings.WEBHOOK_TIMEOUT)
    delivery.attempts += 1
    delivery.last_status_code = attempt.code
    delivery.last_error = attempt.error[:ERROR_LENGTH]
    delivery.sent_body = attempt.body.decode()
    delivery.sent_signature = attempt.signature
    if attempt.code is not None and 200 <= attempt.code < 300:
        delivery.status = WebhookDelivery.Status.DELIVERED
        delivery.delivered_at = timezone.now()
    elif attempt.final or last_try or delivery.attempts >= settings.WEBHOOK_ATTEMPTS:
        delivery.status = WebhookDelivery.Status.FAILED
    delivery.save(
        update_fields=[
            "attempts",
            "last_status_code",
            "last_error",
            "sent_body",
            "sent_signature",
            "status",
            "delivered_at",
        ]
    )
    return delivery


def webhook_deliver_in_process(*, delivery_id: int) -> str:
    """The delivery job without a broker (`tournaments.jobs`): inline (the test suite),
    one short attempt, final; on the webhook lane, an attempt with the full timeout and,
    while attempts are left, the next one queued after `retry_delay` — the backoff a
    worker uses. Its status afterwards."""
    if jobs.mode() == jobs.INLINE:
        return webhook_deliver(
            delivery_id=delivery_id, last_try=True, timeout=settings.WEBHOOK_EAGER_TIMEOUT
        )
    delivery = _attempt(delivery_id, False, settings.WEBHOOK_TIMEOUT)
    if delivery is None:
        return "gone"
    if delivery.status == WebhookDelivery.Status.PENDING:
        webhook_enqueue(delivery_id, countdown=retry_delay(delivery.attempts))
    return delivery.status


def webhooks_repair() -> list[int]:
    """Hand pending deliveries to a worker again when nothing has tried them for
    `WEBHOOK_REPAIR_SECONDS` (a broker that was down, a worker that died): their ids."""
    since = timezone.now() - timedelta(seconds=settings.WEBHOOK_REPAIR_SECONDS)
    waiting = list(
        WebhookDelivery.objects.filter(
            status=WebhookDelivery.Status.PENDING, created_at__lt=since
        ).values_list("pk", flat=True)[:500]
    )
    for delivery_id in waiting:
        webhook_enqueue(delivery_id)
    return waiting


def retry_delay(attempts: int) -> int:
    """Seconds before the next attempt after `attempts` failed ones: 2, 4, 8, 16, ..."""
    return int(settings.WEBHOOK_RETRY_BASE_SECONDS * 2 ** max(attempts - 1, 0))
