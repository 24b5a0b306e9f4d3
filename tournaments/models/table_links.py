"""Table links: the printed QR that signs a phone in as one table's scorekeeper."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from .rounds import Round
from .tournaments import Tournament


class TableLink(models.Model):
    """A table link: the printed QR that signs a phone in as one table's scorekeeper for
    one round, without an account (`tournaments.table_links` says how it is signed, when
    it ends and how it is revoked).

    `user` is a real user made for this link alone (inactive, no password: nobody can
    sign in with it by name), so every result and penalty entered through the link names
    "table 3, round 2" in its history, and a later round's link is another user.
    `version` is part of the signed token: bumping it revokes every printed copy."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="table_links")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="table_links")
    table_number = models.PositiveSmallIntegerField()
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="table_link"
    )
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table_number"], name="one_link_per_round_table"
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="table_link_version_positive"),
        ]

    def __str__(self) -> str:
        return f"table {self.table_number}, round {self.round.number} of {self.tournament}"
