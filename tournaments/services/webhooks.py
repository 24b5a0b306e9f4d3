"""Webhooks: a tournament's events POSTed, signed, to addresses its organisers give.

Terms:
* hook — a `Webhook`: an http(s) address, a secret and the events it wants
  (`result.confirmed`, `round.opened`, `standings.updated`). Only organisers add, change
  or delete hooks. A secret left blank is generated (`GENERATED_SECRET_BYTES` random
  bytes, hex) and answered once, by the call that made it; it is never shown again.
* delivery — one event for one hook (`WebhookDelivery`), the delivery log: made when the
  change that caused the event commits, then POSTed by a worker (`WEBHOOK_TASK`).
* signature — the header `X-Rummitab-Signature: sha256=<hex>`, the HMAC-SHA256 of the
  raw request body with the hook's secret. A receiver computes it over the bytes it got
  and compares in constant time. `X-Rummitab-Event` names the event and
  `X-Rummitab-Delivery` the delivery's id (the same on every attempt, so a receiver can
  ignore a repeat).
* attempt — one POST with a timeout of `WEBHOOK_TIMEOUT` seconds (default 5). A 2xx
  answer delivers; anything else (another code, a refused connection, a timeout) is
  tried again by the worker with growing delays, up to `WEBHOOK_ATTEMPTS` attempts
  (default 5); then the delivery is `failed`. Each attempt is counted on the row with its
  status code or error.
* in-process mode (no broker, `CELERY_TASK_ALWAYS_EAGER`): a delivery is tried once,
  right after the commit, with a timeout of `WEBHOOK_EAGER_TIMEOUT` seconds (default 2),
  so that a request waits at most that long per hook; a failure is final (`failed`), as
  there is no worker to try again later.

A webhook never breaks the write that caused it: deliveries are made after the commit,
and any error while making or sending them is logged, never raised to the request.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import urllib.error
import urllib.request
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.errors import RuleError, raise_all

from ..events import WEBHOOK_TASK
from ..models import Tournament, Webhook, WebhookDelivery
from ..permissions import User, require
from .validation import collect, signed_in_or_none

logger = logging.getLogger(__name__)

GENERATED_SECRET_BYTES = 32
MIN_SECRET_LENGTH = 16
EVENTS = [choice.value for choice in Webhook.Event]
SIGNATURE_HEADER = "X-Rummitab-Signature"
EVENT_HEADER = "X-Rummitab-Event"
DELIVERY_HEADER = "X-Rummitab-Delivery"
ERROR_LENGTH = 300

Payload = dict[str, Any] | Callable[[], dict[str, Any]]


# --- hooks --------------------------------------------------------------------------------


def _url(value: object) -> str:
    limit = Webhook._meta.get_field("url").max_length or 500
    if not isinstance(value, str) or not value.strip():
        raise RuleError("url", _("is required: the http(s) address to send the events to."))
    value = value.strip()
    if len(value) > limit:
        raise RuleError(
            "url",
            _("is %(length)s characters long; at most %(limit)s allowed.")
            % {"length": len(value), "limit": limit},
        )
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RuleError("url", _("must be an http:// or https:// address with a host."))
    return value


def _secret(value: object) -> str | None:
    """The secret given, or None to generate one."""
    if value is None or value == "":
        return None
    limit = Webhook._meta.get_field("secret").max_length or 200
    if not isinstance(value, str) or not (MIN_SECRET_LENGTH <= len(value) <= limit):
        raise RuleError(
            "secret",
            _("must be %(minimum)s to %(limit)s characters, or left blank to generate one.")
            % {"minimum": MIN_SECRET_LENGTH, "limit": limit},
        )
    return value


def _events(value: object) -> list[str]:
    if not isinstance(value, list | tuple) or not value:
        raise RuleError(
            "events", _("choose at least one of: %(events)s.") % {"events": ", ".join(EVENTS)}
        )
    unknown = [str(event) for event in value if event not in EVENTS]
    if unknown:
        raise RuleError(
            "events",
            _("%(unknown)s: not an event; choose from %(events)s.")
            % {"unknown": ", ".join(unknown), "events": ", ".join(EVENTS)},
        )
    return list(dict.fromkeys(value))


def _active(value: object) -> bool:
    if not isinstance(value, bool):
        raise RuleError("active", _("must be true or false."))
    return value


def _set_events(hook: Webhook, events: list[str]) -> None:
    for event, flag in Webhook.FLAGS.items():
        setattr(hook, flag, event in events)


@transaction.atomic
def webhook_create(
    *,
    tournament: Tournament,
    by: User,
    url: object,
    secret: object = None,
    events: object = None,
    active: object = True,
) -> tuple[Webhook, str]:
    """Add a hook; returns it with its secret (generated when none was given), which the
    caller shows once. Every bad field at once, nothing saved."""
    require(by, tournament, "organise")
    errors: list[RuleError] = []
    clean_url = collect(errors, _url, url)
    given = collect(errors, _secret, secret)
    clean_events = collect(errors, _events, EVENTS if events is None else events)
    clean_active = collect(errors, _active, active)
    raise_all(errors)
    hook = Webhook(
        tournament=tournament,
        url=clean_url,
        secret=given or secrets.token_hex(GENERATED_SECRET_BYTES),
        active=clean_active,
        created_by=signed_in_or_none(by),
    )
    _set_events(hook, clean_events)
    hook.save()
    return hook, hook.secret


@transaction.atomic
def webhook_update(
    *,
    webhook: Webhook,
    by: User,
    url: object = None,
    events: object = None,
    active: object = None,
) -> Webhook:
    """Change a hook's address, events or whether it is active (what is not given stays);
    the secret stays (delete the hook and add it again for a new one)."""
    require(by, webhook.tournament, "organise")
    errors: list[RuleError] = []
    hook = Webhook.objects.select_for_update().get(pk=webhook.pk)
    if url is not None:
        hook.url = collect(errors, _url, url)
    if events is not None:
        clean_events = collect(errors, _events, events)
        if clean_events:
            _set_events(hook, clean_events)
    if active is not None:
        hook.active = collect(errors, _active, active)
    raise_all(errors)
    hook.save()
    return hook


@transaction.atomic
def webhook_delete(*, webhook: Webhook, by: User) -> None:
    """Delete a hook and its delivery log; deliveries still queued find nothing to send."""
    require(by, webhook.tournament, "organise")
    Webhook.objects.filter(pk=webhook.pk).delete()


# --- events ------------------------------------------------------------------------------


def webhooks_emit(*, tournament: Tournament, event: str, payload: Payload) -> None:
    """Once the current transaction commits (at once outside one): a delivery for every
    active hook of the tournament that wants `event`, each handed to a worker.

    `payload` may be a function, called only when some hook wants the event, so a
    tournament without hooks pays one small query after the commit and nothing else.
    """
    assert event in EVENTS, event
    tournament_id, slug, name = tournament.pk, tournament.slug, tournament.name

    def emit() -> None:
        try:
            _emit(tournament_id, {"slug": slug, "name": name}, event, payload)
        except Exception:
            logger.exception("webhooks of %s for %s not made", slug, event)

    transaction.on_commit(emit, robust=True)


def _emit(tournament_id: int, about: dict[str, str], event: str, payload: Payload) -> None:
    flag = Webhook.FLAGS[Webhook.Event(event)]
    hooks = list(Webhook.objects.filter(tournament_id=tournament_id, active=True, **{flag: True}))
    if not hooks:
        return
    data = {"tournament": about, **(payload() if callable(payload) else payload)}
    if event == Webhook.Event.STANDINGS_UPDATED:
        # A snapshot is announced once per hook, however often the job stores or finds it.
        sent = set(
            WebhookDelivery.objects.filter(
                webhook__in=hooks,
                event=event,
                payload__computed_version=data.get("computed_version"),
            ).values_list("webhook_id", flat=True)
        )
        hooks = [hook for hook in hooks if hook.pk not in sent]
    made = [
        WebhookDelivery.objects.create(webhook=hook, event=event, payload=data) for hook in hooks
    ]
    for delivery in made:
        webhook_enqueue(delivery.pk)


def webhook_enqueue(delivery_id: int) -> bool:
    """Hand a delivery to a worker (in-process mode: try it here, once); False when the
    broker could not be reached (the periodic repair sends it later)."""
    job = current_app.signature(WEBHOOK_TASK, args=(delivery_id,))
    if current_app.conf.task_always_eager:
        job.apply()
        return True
    try:
        job.apply_async()
    except Exception:
        logger.warning("broker unreachable; webhook delivery %s waits", delivery_id)
        return False
    return True


# --- sending -----------------------------------------------------------------------------


def signature(secret: str, body: bytes) -> str:
    """The signature header's value for `body`."""
    digest = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def delivery_body(delivery: WebhookDelivery) -> bytes:
    """The JSON POSTed: the event, the delivery's id and the payload (the same bytes on
    every attempt)."""
    document = {"event": delivery.event, "delivery": delivery.pk, **delivery.payload}
    return json.dumps(document, sort_keys=True, separators=(",", ":")).encode()


def _post(hook: Webhook, delivery: WebhookDelivery, timeout: float) -> tuple[int | None, str]:
    """POST once: the status code (None without an answer) and an error in words."""
    body = delivery_body(delivery)
    request = urllib.request.Request(
        hook.url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": "Rummitab-Webhook/1",
            EVENT_HEADER: delivery.event,
            DELIVERY_HEADER: str(delivery.pk),
            SIGNATURE_HEADER: signature(hook.secret, body),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, ""
    except urllib.error.HTTPError as error:
        return error.code, f"answered {error.code} {error.reason}"[:ERROR_LENGTH]
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        return None, f"no answer: {reason}"[:ERROR_LENGTH]


def webhook_deliver(
    *, delivery_id: int, last_try: bool = False, timeout: float | None = None
) -> str:
    """Make one attempt at a pending delivery and log it; its status afterwards
    (`pending` means: try again). A delivery already delivered, failed or deleted is left
    alone (a task run twice sends once more at most)."""
    delivery = WebhookDelivery.objects.select_related("webhook").filter(pk=delivery_id).first()
    if delivery is None:
        return "gone"
    if delivery.status != WebhookDelivery.Status.PENDING:
        return delivery.status
    code, error = _post(delivery.webhook, delivery, timeout or settings.WEBHOOK_TIMEOUT)
    delivery.attempts += 1
    delivery.last_status_code = code
    delivery.last_error = error
    if code is not None and 200 <= code < 300:
        delivery.status = WebhookDelivery.Status.DELIVERED
        delivery.delivered_at = timezone.now()
    elif last_try or delivery.attempts >= settings.WEBHOOK_ATTEMPTS:
        delivery.status = WebhookDelivery.Status.FAILED
    delivery.save(
        update_fields=["attempts", "last_status_code", "last_error", "status", "delivered_at"]
    )
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
