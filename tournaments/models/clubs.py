"""Clubs, their organisers and members, and their seasons.

Terms:
* club — a club that runs tournaments; its *members* are people followed across its
  tournaments (a player of a tournament may be linked to a member). Club organisers may
  create tournaments under the club and organise every one of them.
* season — a club's tournaments grouped and totalled by a declared rule
  (`scoring.seasons`): a league's evenings, a grand prix. `version` goes up whenever the
  standings of one of its tournaments change, like a tournament's `results_version`.
* rated — a tournament whose confirmed games update its club members' ratings.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class Club(models.Model):
    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ClubOrganiser(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="organisers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_roles"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_club_role_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} organises {self.club}"


class Member(models.Model):
    """A person followed across a club's tournaments; `code` is the club's own membership
    number, if it has one."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="members")
    name = models.CharField(max_length=100)
    code = models.CharField(max_length=30, blank=True)
    joined_on = models.DateField(null=True, blank=True)
    # The same player at every club (`tournaments.models.people`).
    person = models.ForeignKey(
        "Person", null=True, blank=True, on_delete=models.PROTECT, related_name="memberships"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["club", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "code"], condition=~Q(code=""), name="unique_member_code"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    slug = models.SlugField(max_length=60)
    name = models.CharField(max_length=120)
    rule = models.JSONField(
        default=dict, help_text=_("How the evenings are totalled: rule, best, place_points, cap.")
    )
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords(excluded_fields=["version"])

    class Meta:
        ordering = ["club", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="unique_season_slug"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"
