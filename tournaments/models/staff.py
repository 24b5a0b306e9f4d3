"""The people who run a tournament: its staff and the invitations to join them.

Terms:
* staff member — a user with a role in one tournament: an *organiser* changes everything,
  a *scorekeeper* enters results and penalties.
* invitation — a link an organiser hands to someone who has no account yet: opened
  before it expires, never used and not revoked, it lets them choose a username and a
  password and gives that new account the invitation's role (`StaffInvitation`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .tournaments import Tournament


class StaffMember(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        SCOREKEEPER = "scorekeeper", _("Scorekeeper")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles"
    )
    role = models.CharField(max_length=12, choices=Role.choices)
    added_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_role_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.tournament}"


class StaffInvitation(models.Model):
    """An invitation to join a tournament's staff with `role`, used at most once.

    The link carries this row's id signed with the site's secret
    (`tournaments.invitation_tokens`); the row says whether it is still good: not past
    `expires_at`, not `used_at`, not `revoked_at`.

    `username` addresses it to an existing account (an organiser named someone): only the
    account of that name, signed in, accepts it, and it joins as itself. Blank: the link
    makes a new account (`services.staff.staff_invitation_accept`).
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="staff_invitations"
    )
    role = models.CharField(max_length=12, choices=StaffMember.Role.choices)
    username = models.CharField(max_length=150, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    # The invitation's link token, set by the reads that list invitations to their staff
    # (`tournaments.invitation_tokens`); for the type checker only, not a column.
    token: str

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(role__in=["organiser", "scorekeeper"]), name="invitation_role_known"
            ),
            models.CheckConstraint(
                condition=Q(used_at__isnull=True) | Q(revoked_at__isnull=True),
                name="invitation_used_or_revoked_not_both",
            ),
        ]

    def __str__(self) -> str:
        return f"Invitation to {self.tournament} as {self.role}"
