"""REST API for a tournament's webhooks (organisers only): list and add hooks
(`webhooks/`), change or delete one (`webhooks/{id}/`) and read its delivery log
(`webhooks/{id}/deliveries/`). How deliveries are signed and retried:
`tournaments.services.webhooks`.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import selectors
from ..models import Webhook, WebhookDelivery
from ..permissions import require
from ..services import webhooks as services
from . import examples
from .common import (
    RawJSONField,
    StrictBooleanField,
    StrictCharField,
    StrictInput,
    TournamentScoped,
    errors,
    valid,
)

EVENTS_SCHEMA = {
    "type": "array",
    "description": "The events to send, at least one (default: all of them). An unknown "
    "one is a 400 naming `events`.",
    "items": {"type": "string", "enum": services.EVENTS},
}


class WebhookInSerializer(StrictInput):
    url = StrictCharField(
        allow_blank=True,
        trim_whitespace=False,
        help_text="The http:// or https:// address events are POSTed to.",
    )
    secret = StrictCharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text="The HMAC key (16 to 200 characters); left out or blank, one is "
        "generated and answered once.",
    )
    events = RawJSONField(schema=EVENTS_SCHEMA, required=False)
    active = StrictBooleanField(required=False)


class WebhookChangeInSerializer(StrictInput):
    url = StrictCharField(required=False, allow_blank=True, trim_whitespace=False)
    events = RawJSONField(schema=EVENTS_SCHEMA, required=False)
    active = StrictBooleanField(required=False)


class WebhookOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    events = serializers.ListField(child=serializers.CharField())
    active = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    created_by = serializers.CharField(source="created_by.username", allow_null=True)


class WebhookCreatedOutSerializer(WebhookOutSerializer):
    secret = serializers.CharField(help_text="Answered this once; never shown again.")


class DeliveryOutSerializer(serializers.ModelSerializer):
    class Meta:
        model = WebhookDelivery
        fields = [
            "id",
            "event",
            "status",
            "attempts",
            "last_status_code",
            "last_error",
            "created_at",
            "delivered_at",
            "payload",
            "sent_body",
            "sent_signature",
        ]
        extra_kwargs = {
            "sent_body": {
                "help_text": "The JSON body the last attempt POSTed, byte for byte (blank when "
                "it sent nothing: a target refused, a host not found)."
            },
            "sent_signature": {
                "help_text": "The exact `X-Rummitab-Signature` header the last attempt sent: "
                '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`.'
            },
        }


class WebhookListView(TournamentScoped, APIView):
    @extend_schema(
        tags=["webhooks"],
        summary="List the webhooks",
        description="Organisers only: the tournament's hooks, oldest first (secrets are "
        "never listed).",
        responses={200: WebhookOutSerializer(many=True), **errors(401, 403, 404)},
        examples=examples.WEBHOOK_LIST_GET,
    )
    def get(self, request: Any, slug: str) -> Response:
        hooks = selectors.webhooks_of(self.tournament, request.user).select_related("created_by")
        return Response(WebhookOutSerializer(hooks, many=True).data)

    @extend_schema(
        tags=["webhooks"],
        summary="Add a webhook",
        description="Organisers only: POST the chosen events to `url` from now on, signed "
        "with `X-Rummitab-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "
        '"<t>.<raw body>" with the secret>` (receivers refuse a `t` more than 300 s from '
        "their clock: no replays), with `X-Rummitab-Event` and `X-Rummitab-Delivery` (the "
        "delivery's id, the same on every attempt). A non-2xx answer is retried with "
        "growing delays, up to `WEBHOOK_ATTEMPTS` attempts (default 5); redirects are not "
        "followed. A `url` that is not http(s), has a user name or password, uses a port "
        "other than 80, 443 or 1024 and up (database and broker ports excluded), or whose "
        "host resolves to this server, a private network (unless `WEBHOOK_ALLOW_PRIVATE`), "
        "a link-local, multicast, unspecified or reserved address is a 400 naming `url`. "
        "The secret is answered once, here.",
        request=WebhookInSerializer,
        responses={201: WebhookCreatedOutSerializer, **errors(400, 401, 403, 404)},
        examples=examples.WEBHOOK_LIST_POST,
    )
    def post(self, request: Any, slug: str) -> Response:
        data = valid(WebhookInSerializer, request.data)
        hook, secret = services.webhook_create(tournament=self.tournament, by=request.user, **data)
        body = {**WebhookOutSerializer(hook).data, "secret": secret}
        return Response(body, status=status.HTTP_201_CREATED)


class WebhookScoped(TournamentScoped):
    def hook(self, pk: int) -> Webhook:
        # Refused before the lookup: a stranger cannot tell which hook ids exist.
        require(self.request.user, self.tournament, "organise")
        hook = self.tournament.webhooks.select_related("created_by").filter(pk=pk).first()
        if hook is None:
            raise Http404(_("No such webhook in this tournament."))
        hook.tournament = self.tournament
        return hook


class WebhookDetailView(WebhookScoped, APIView):
    @extend_schema(
        tags=["webhooks"],
        summary="Change a webhook",
        description="Organisers only: a new `url`, other `events` or `active` false to "
        "pause it (what is left out stays; the secret stays).",
        request=WebhookChangeInSerializer,
        responses={200: WebhookOutSerializer, **errors(400, 401, 403, 404)},
        examples=examples.WEBHOOK_DETAIL_PATCH,
    )
    def patch(self, request: Any, slug: str, pk: int) -> Response:
        hook = self.hook(pk)
        data = valid(WebhookChangeInSerializer, request.data)
        hook = services.webhook_update(webhook=hook, by=request.user, **data)
        return Response(WebhookOutSerializer(hook).data)

    @extend_schema(
        tags=["webhooks"],
        summary="Delete a webhook",
        description="Organisers only: the hook and its delivery log are deleted; queued "
        "deliveries are not sent.",
        request=None,
        responses={204: None, **errors(401, 403, 404)},
        examples=examples.WEBHOOK_DETAIL_DELETE,
    )
    def delete(self, request: Any, slug: str, pk: int) -> Response:
        services.webhook_delete(webhook=self.hook(pk), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookDeliveriesView(WebhookScoped, APIView):
    @extend_schema(
        tags=["webhooks"],
        summary="A webhook's delivery log",
        description="Organisers only: the hook's last 50 deliveries, newest first: the "
        "event, `pending`/`delivered`/`failed`, the attempts made and the last answer, "
        "and what the last attempt sent (`sent_body`, `sent_signature`: the exact "
        "signature header, to test a receiver's check against).",
        responses={200: DeliveryOutSerializer(many=True), **errors(401, 403, 404)},
        examples=examples.WEBHOOK_DELIVERIES_GET,
    )
    def get(self, request: Any, slug: str, pk: int) -> Response:
        deliveries = selectors.webhook_deliveries(self.hook(pk), request.user)
        return Response(DeliveryOutSerializer(deliveries, many=True).data)
