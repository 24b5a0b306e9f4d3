"""Webhooks: a tournament's events POSTed, signed, to addresses its organisers give.

Terms:
* hook — a `Webhook`: an http(s) address, a secret and the events it wants
  (`result.confirmed`, `round.opened`, `standings.updated`). Only organisers add, change
  or delete hooks. A secret left blank is generated (`GENERATED_SECRET_BYTES` random
  bytes, hex) and answered once, by the call that made it; it is never shown again.
* delivery — one event for one hook (`WebhookDelivery`), the delivery log: made when the
  change that caused the event commits, then POSTed in the background (`WEBHOOK_TASK`).
  The log keeps the body sent, the exact signature header of the last attempt and the
  answer's status code; never the text of a network error.
* signature — the header `X-Rummitab-Signature: t=<unix seconds>,v1=<hex>`, where the hex
  is the HMAC-SHA256, keyed with the hook's secret, of `"<t>.<raw body>"` (the scheme of
  the big payment and chat platforms). A new `t` on every attempt. A receiver checks it
  with `verify_signature`: `t` within a tolerance of its clock (`SIGNATURE_TOLERANCE`,
  300 s) and the HMAC equal in constant time, so a captured delivery cannot be replayed
  later. `X-Rummitab-Event` names the event and `X-Rummitab-Delivery` the delivery's id
  (the same on every attempt, so a receiver can ignore a repeat).
* target rules — where a hook may point, checked when it is registered (a 400 naming
  `url`) and again before every attempt (DNS may have changed): an http(s) URL without a
  user name or password, on port 80, 443 or any port from 1024 up except the ports of
  databases, brokers and caches (`REFUSED_PORTS`; the privileged ports below 1024 are
  other services: mail, SSH, ...); its host resolved, and *every* address it has a
  public one — never loopback, private, shared (CGNAT), link-local, multicast,
  unspecified, "this network" (0.0.0.0/8) or reserved, an IPv4 address inside an IPv6
  one (`::ffff:127.0.0.1`, NAT64, 6to4, Teredo) judged as itself. The resolver reads
  the odd spellings (`127.1`, `2130706433`, `0x7f.1`) as what they mean.
  `WEBHOOK_ALLOW_PRIVATE` (off by default) also allows loopback and the private networks
  (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) for a club's own LAN; never the
  others, nor the refused ports. A host that cannot be found at registration is accepted
  (a club may set up while offline); the delivery checks again.
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

A webhook never breaks the write that caused it: deliveries are made after the commit,
and any error while making or sending them is logged, never raised to the request.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import http.client
import ipaddress
import json
import logging
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import SplitResult, urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.errors import RuleError, raise_all

from .. import jobs
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
# A receiver's check accepts a signature this many seconds old (or early) at most.
SIGNATURE_TOLERANCE = 300
# The job lane of deliveries in this process (no broker): a slow receiver delays other
# deliveries only, never a standings recompute.
WEBHOOK_LANE = "webhooks"
# What the delivery log says of an attempt without an answer, whatever the cause (refused,
# reset, timed out, no such host, TLS): the log must not tell a port scanner anything.
NO_ANSWER = "no answer"
# ... and of a target whose host now has an address the rules refuse (DNS changed since
# the hook was registered); nothing is sent and the delivery fails at once.
REFUSED = "refused: not a permitted address"

# Target rules (see the module): the ports allowed besides 80 and 443 start here ...
MIN_PORT = 1024
# ... except the ports of the services a Rummitab server itself runs on or beside
# (databases, brokers, caches, a Docker API), refused even where private targets are
# allowed: a webhook must never be able to speak to them.
REFUSED_PORTS = frozenset({2375, 2376, 3306, 5432, 5672, 6379, 9200, 11211, 27017})
# Allowed only with WEBHOOK_ALLOW_PRIVATE: this machine and the private networks.
PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(network)
    for network in (
        "127.0.0.0/8",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "100.64.0.0/10",
        "::1/128",
        "fc00::/7",
    )
)
# Never allowed, beside the unspecified, multicast, link-local and reserved addresses:
# "this network" (0.x.x.x reaches the machine itself on Linux).
ALWAYS_REFUSED = (ipaddress.ip_network("0.0.0.0/8"),)
NAT64 = ipaddress.ip_network("64:ff9b::/96")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

Payload = dict[str, Any] | Callable[[], dict[str, Any]]


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


# --- where a hook may point ----------------------------------------------------------------


class Refused(Exception):
    """A target the rules refuse (`check_target`); the message says why, for the
    organiser who registers the hook."""


def _not_public() -> Refused:
    return Refused(
        _(
            "must reach a public address: this server, private networks and reserved "
            "addresses are refused."
        )
    )


def _address_permitted(address: IPAddress, allow_private: bool) -> bool:
    """Whether a connection to `address` is allowed (see the module's *target rules*)."""
    address = _embedded_ipv4(address)
    if (
        address.is_unspecified
        or address.is_multicast
        or address.is_link_local
        or any(address in network for network in ALWAYS_REFUSED)
    ):
        return False
    if allow_private and any(address in network for network in PRIVATE_NETWORKS):
        return True  # before `is_reserved`: Python counts ::1 among the reserved ::/8
    return address.is_global and not address.is_reserved


def _embedded_ipv4(address: IPAddress) -> IPAddress:
    """The IPv4 address an IPv6 one carries (IPv4-mapped `::ffff:a.b.c.d`, NAT64
    `64:ff9b::a.b.c.d`, 6to4, Teredo), judged as itself; any other address unchanged."""
    if not isinstance(address, ipaddress.IPv6Address):
        return address
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    return address


def _port(parts: SplitResult) -> int:
    try:
        port = parts.port
    except ValueError:
        raise Refused(_("has a port that is not a number from 1 to 65535.")) from None
    if port is None:
        return 443 if parts.scheme == "https" else 80
    if port in (80, 443) or (port >= MIN_PORT and port not in REFUSED_PORTS):
        return port
    raise Refused(
        _("port %(port)s is not allowed: use 80, 443 or a port from %(minimum)s up.")
        % {"port": port, "minimum": MIN_PORT}
    )


def _split(url: str) -> tuple[SplitResult, str, int]:
    """The URL's parts, its host (ASCII) and port, refusing what is not an ordinary
    http(s) address."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(_("must be an http:// or https:// address with a host."))
    if parts.username is not None or parts.password is not None:
        raise Refused(_("must not hold a user name or password (use the signature)."))
    try:
        host = parts.hostname.encode("idna").decode("ascii")
    except UnicodeError:
        raise Refused(_("has a host name that is not valid.")) from None
    return parts, host, _port(parts)


def _resolve(host: str, port: int) -> list[IPAddress]:
    """Every address `host` has (a literal address is itself); OSError when it has none.
    The system resolver reads the legacy forms too (`127.1`, `2130706433`, `0x7f.1`),
    so they are judged by the address they mean."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    addresses = []
    for *_info, sockaddr in found:
        try:
            addresses.append(ipaddress.ip_address(sockaddr[0]))
        except ValueError:  # a scoped IPv6 address ("fe80::1%eth0"): link-local anyway
            raise _not_public() from None
    if not addresses:
        raise OSError("no address")
    return list(dict.fromkeys(addresses))


def check_target(
    url: str, *, allow_private: bool | None = None
) -> tuple[SplitResult, str, int, list[IPAddress]]:
    """The URL's parts, host, port and the addresses to connect to, every one of them
    permitted; `Refused` when the address or any address its host has is not allowed,
    OSError when the host cannot be found now.

    A host with several addresses is refused when any of them is not allowed (otherwise
    which one a connection gets would decide)."""
    if allow_private is None:
        allow_private = settings.WEBHOOK_ALLOW_PRIVATE
    parts, host, port = _split(url)
    addresses = _resolve(host, port)
    if not all(_address_permitted(address, allow_private) for address in addresses):
        raise _not_public()
    return parts, host, port, addresses


def _url_target(url: str) -> None:
    """Registration's check of the target; a host that cannot be found now is accepted
    (the delivery checks again, and a club may add a hook while offline)."""
    try:
        check_target(url)
    except Refused as refused:
        raise RuleError("url", str(refused)) from None
    except OSError:
        pass


# --- sending -----------------------------------------------------------------------------


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
