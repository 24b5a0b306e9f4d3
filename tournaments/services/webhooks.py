"""Webhooks: a tournament's events POSTed, signed, to addresses its organisers give.
The hooks added, changed and deleted, and the deliveries made when an event happens;
sending them is `tournaments.services.webhook_deliveries`, where a hook may point
`tournaments.webhook_targets`, the signature `tournaments.webhook_signing`.

Terms:
* hook — a `Webhook`: an http(s) address, a secret and the events it wants
  (`result.confirmed`, `round.opened`, `standings.updated`). Only organisers add, change
  or delete hooks. A secret left blank is generated (`GENERATED_SECRET_BYTES` random
  bytes, hex) and answered once, by the call that made it; it is never shown again.
* delivery — one event for one hook (`WebhookDelivery`), the delivery log: made when the
  change that caused the event commits, then POSTed in the background (`WEBHOOK_TASK`).
  The log keeps the body sent, the exact signature header of the last attempt and the
  answer's status code; never the text of a network error.

A webhook never breaks the write that caused it: deliveries are made after the commit,
and any error while making or sending them is logged, never raised to the request.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.errors import RuleError, raise_all

from .. import jobs
from ..events import WEBHOOK_TASK
from ..models import Tournament, Webhook, WebhookDelivery
from ..permissions import User, require
from ..webhook_targets import Refused, check_target
from .validation import collect, signed_in_or_none

logger = logging.getLogger(__name__)

GENERATED_SECRET_BYTES = 32
MIN_SECRET_LENGTH = 16
EVENTS = [choice.value for choice in Webhook.Event]

# The job lane of deliveries in this process (no broker): a slow receiver delays other
# deliveries only, never a standings recompute.
WEBHOOK_LANE = "webhooks"


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
    _url_target(value)
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
    caller shows once. Every bad field at once, nothing saved.

    The address is checked (its host looked up) before the transaction: a slow DNS must
    not hold a database write lock (SQLite takes it when the transaction starts)."""
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
    with transaction.atomic():
        hook.save()
    return hook, hook.secret


def webhook_update(
    *,
    webhook: Webhook,
    by: User,
    url: object = None,
    events: object = None,
    active: object = None,
) -> Webhook:
    """Change a hook's address, events or whether it is active (what is not given stays);
    the secret stays (delete the hook and add it again for a new one). A new address is
    checked before the transaction, as in `webhook_create`."""
    require(by, webhook.tournament, "organise")
    errors: list[RuleError] = []
    clean_url = None if url is None else collect(errors, _url, url)
    with transaction.atomic():
        hook = Webhook.objects.select_for_update().get(pk=webhook.pk)
        if clean_url is not None:
            hook.url = clean_url
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


def webhook_enqueue(delivery_id: int, countdown: float = 0) -> bool:
    """Hand a delivery to a worker, or to this process's webhook lane when there is no
    broker (`tournaments.jobs`); False when the broker could not be reached (the periodic
    repair sends it later)."""
    if jobs.enqueue(WEBHOOK_TASK, delivery_id, countdown=countdown, lane=WEBHOOK_LANE):
        return True
    logger.warning("broker unreachable; webhook delivery %s waits", delivery_id)
    return False


def _url_target(url: str) -> None:
    """Registration's check of the target; a host that cannot be found now is accepted
    (the delivery checks again, and a club may add a hook while offline)."""
    try:
        check_target(url)
    except Refused as refused:
        raise RuleError("url", str(refused)) from None
    except OSError:
        pass
