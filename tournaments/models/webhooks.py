"""Webhooks and their deliveries."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .tournaments import Tournament


class Webhook(models.Model):
    """An address that is sent (POSTed) the tournament's events as they happen, signed
    with `secret` (`tournaments.webhook_signing` says how). The events it wants are one
    flag each, so the database itself refuses a hook that wants none."""

    class Event(models.TextChoices):
        RESULT_CONFIRMED = "result.confirmed", _("A result is confirmed")
        ROUND_OPENED = "round.opened", _("A round is opened")
        STANDINGS_UPDATED = "standings.updated", _("The standings are updated")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=200)
    on_result_confirmed = models.BooleanField(default=True)
    on_round_opened = models.BooleanField(default=True)
    on_standings_updated = models.BooleanField(default=True)
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # The flag of each event.
    FLAGS = {
        Event.RESULT_CONFIRMED: "on_result_confirmed",
        Event.ROUND_OPENED: "on_round_opened",
        Event.STANDINGS_UPDATED: "on_standings_updated",
    }

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(on_result_confirmed=True)
                | Q(on_round_opened=True)
                | Q(on_standings_updated=True),
                name="webhook_wants_an_event",
            ),
            models.CheckConstraint(condition=~Q(secret=""), name="webhook_has_a_secret"),
        ]

    def __str__(self) -> str:
        return f"{self.url} ({self.tournament})"

    @property
    def events(self) -> list[str]:
        return [event for event, flag in self.FLAGS.items() if getattr(self, flag)]


class WebhookDelivery(models.Model):
    """One event sent to one hook: the delivery log. `attempts` counts the POSTs made;
    `last_status_code` and `last_error` are the last attempt's answer (a code of 2xx
    delivers; anything else, or no answer, is tried again until the attempts run out).
    `sent_body` and `sent_signature` are what the last attempt sent: the JSON body and
    the exact `X-Rummitab-Signature` header value (blank when it sent nothing), so
    a receiver's check can be tested against them."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("webhook delivery status", "Pending")
        DELIVERED = "delivered", pgettext_lazy("webhook delivery status", "Delivered")
        FAILED = "failed", pgettext_lazy("webhook delivery status", "Failed")

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=30, choices=Webhook.Event.choices)
    payload = models.JSONField(default=dict)
    attempts = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    sent_body = models.TextField(blank=True)
    sent_signature = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["webhook", "-created_at"], name="delivery_log_of_hook")]
        constraints = [
            models.CheckConstraint(
                condition=Q(event__in=["result.confirmed", "round.opened", "standings.updated"]),
                name="delivery_event_known",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "delivered", "failed"]),
                name="delivery_status_known",
            ),
            models.CheckConstraint(
                condition=Q(status="delivered", delivered_at__isnull=False)
                | (~Q(status="delivered") & Q(delivered_at__isnull=True)),
                name="delivered_has_a_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} to {self.webhook.url}: {self.status}"
