"""A person: one identity across the clubs of an install (and a circuit's ranking).

Terms:
* person — someone who plays: a name, an optional federation id (unique on the install
  when given), an optional e-mail and year of birth (junior and senior divisions). A
  club's members and the players of any tournament may be linked to a person, so the
  same player is one person at every club (`Member.person`, `Player.person`).
* privacy — other clubs see a person's name and federation id only; the e-mail, year of
  birth and clubs are for the organisers of a club the person is a member of, the one who
  registered the person, and circuit administrators (`tournaments.services.people`,
  `circuits.api.people`).
* merged — a duplicate person merged into another (`merged_into`): their players and
  memberships now point to the person kept; the duplicate's row stays (with its history)
  so old links still lead somewhere.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class Person(models.Model):
    name = models.CharField(max_length=100)
    federation_id = models.CharField(
        max_length=30, blank=True, help_text=_("The federation's id, unique when given.")
    )
    email = models.EmailField(blank=True)
    birth_year = models.PositiveSmallIntegerField(null=True, blank=True)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation_id"],
                condition=~Q(federation_id=""),
                name="unique_federation_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.federation_id})" if self.federation_id else self.name
