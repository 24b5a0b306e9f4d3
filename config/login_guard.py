"""Password guessing: who is locked out of signing in, and what they are told.

Built on django-axes, which counts failed sign-ins (the site's form, the admin's, and the
API's token endpoint: all go through `django.contrib.auth.authenticate`) in the database,
so the lockout works whether or not Redis is up.

The policy, chosen so that nobody can aim a lockout at someone else, and a club behind one
NAT address is not locked out as a whole:
* username at an address — a (username, address) pair is locked after
  `LOGIN_FAILURE_LIMIT` failures from that address (`AXES_LOCKOUT_PARAMETERS =
  [["username", "ip_address"]]`). Failures from elsewhere count against their own address
  only, so a stranger who knows a scorekeeper's (public) username cannot lock them out at
  the venue; guessing one password from many addresses is slowed by the address limit;
* address — locked only after `LOGIN_ADDRESS_FAILURE_LIMIT` failures (much higher; 0 turns
  it off) against usernames that were not locked yet: someone trying many usernames (or
  one username many times under different spellings) from one place. Attempts at an
  already locked pair are not counted at all, so a member (or a script) hammering a locked
  account neither extends its lock nor locks the club;
* both last `LOGIN_COOLOFF_MINUTES` after the last counted failure; a successful sign-in
  clears that username's failures at that address. Locks are visible in the admin
  ("Access attempts": username, address, failures, time); an administrator unlocks early by
  deleting them there or with `manage.py axes_reset_username <name>` /
  `axes_reset_ip <address>`.
"""

from __future__ import annotations

from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.throttling import BaseThrottle


def client_address(request: HttpRequest) -> str | None:
    """The client's address exactly as the API's throttles see it (`API_NUM_PROXIES`
    decides how much of X-Forwarded-For to trust), so both count the same person."""
    # get_ident reads only request.META, which a Django request has; the stubs ask for DRF's.
    return BaseThrottle().get_ident(request) or None  # type: ignore[arg-type]


def failures_from_address(request: Any) -> int:
    """Counted failures from the request's address within the cool-off, any username."""
    attempts = AccessAttempt.objects.filter(ip_address=request.axes_ip_address)
    if settings.AXES_COOLOFF_TIME is not None:
        attempts = attempts.filter(attempt_time__gte=get_cool_off_threshold(request))
    return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0


class LoginGuardHandler(AxesDatabaseHandler):
    """Axes' database handler (counts per username and address, `AXES_LOCKOUT_PARAMETERS
    = [["username", "ip_address"]]`) plus the per-address limit above."""

    def get_failures(self, request: Any, credentials: dict | None = None) -> int:
        failures = super().get_failures(request, credentials)
        limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
        if not limit or not getattr(request, "axes_ip_address", None):
            return failures
        username_limit = get_failure_limit(request, credentials)
        if failures < username_limit and failures_from_address(request) >= limit:
            request.login_locked_by_address = True
            return username_limit  # as good as locked: the address is
        return failures


def lockout_minutes(request: Any) -> int | None:
    cool_off = get_cool_off(request)
    return None if cool_off is None else max(1, round(cool_off.total_seconds() / 60))


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """The page a locked-out sign-in gets instead of the form (site and admin alike)."""
    username = get_client_username(request, credentials if isinstance(credentials, dict) else None)
    context = {
        "username": username or "",
        "by_address": getattr(request, "login_locked_by_address", False),
        "failure_limit": get_failure_limit(request, credentials),
        "minutes": lockout_minutes(request),
    }
    return render(request, "registration/locked_out.html", context, status=429)
