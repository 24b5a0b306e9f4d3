"""A tournament's players and its divisions.

Terms:
* player — someone registered in one tournament; `number` is their start number there.
  A withdrawn player keeps their games but is not seated again.
* late entry — a player registered once round 1 exists: `joined_round` is the round they
  can first be seated in (the next one); the rounds before it are *missed rounds*, counted
  in the standings as the tournament's `missed_rounds` says (not played / average / zero).
* fixed table — a table number a player always sits at (a mobility need); the drawn
  methods honour it, a hand-made (`manual`) seating is the organiser's own.
* carried lot — `Player.lot`: a player of a tournament imported from an event file keeps
  the tie-breaking lot the original site drew, so ties rank as they did there.
* division — a category of a tournament's players ranked apart as well as in the whole
  field (Juniors ≤ 14, Seniors, Beginners, a strength flight): a player is in zero or
  more (`Player.divisions`). Its standings are the tournament's, filtered to its players
  and ranked again 1..n (`scoring.standings.rerank`); its `prizes` are the labels of its
  first places on the final standings. A later stage may be limited to a division
  (`Stage.division`): its cut takes only that division's players.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from .clubs import Member
from .tournaments import Tournament


class Division(models.Model):
    """A division of one tournament (see "division" above). `slug` names it in addresses
    (`?division=juniors`); `order` places it among the tournament's divisions; `prizes`
    are the labels of its places in order ("Trophy", "Book voucher", ...)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=60)
    slug = models.SlugField(max_length=40)
    order = models.PositiveSmallIntegerField(default=0)
    prizes = models.JSONField(
        default=list, blank=True, help_text=_("Labels of its places, 1st first.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "order", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_division_name"),
            models.UniqueConstraint(fields=["tournament", "slug"], name="unique_division_slug"),
            models.CheckConstraint(condition=~Q(slug=""), name="division_has_a_slug"),
            models.CheckConstraint(condition=~Q(name=""), name="division_has_a_name"),
        ]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", pgettext_lazy("player status", "Active")
        WITHDRAWN = "withdrawn", pgettext_lazy("player status", "Withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=100)
    club = models.CharField(max_length=100, blank=True)
    rating = models.IntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    member = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.PROTECT, related_name="players"
    )
    person = models.ForeignKey(
        "Person", null=True, blank=True, on_delete=models.PROTECT, related_name="players"
    )
    fixed_table = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("The table number this player always sits at (a mobility need); empty: any."),
    )
    # A late entry: the first round they could be seated in (null = from the start).
    joined_round = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    # The tie-breaking lot carried over from an imported event file (the original site's
    # draw); null = drawn here from the tournament and the player (`scoring.standings`).
    lot = models.BigIntegerField(null=True, blank=True, editable=False)
    # Only divisions of the player's own tournament: checked by
    # `tournaments.services.divisions` (a cross-table rule no portable constraint states).
    divisions = models.ManyToManyField(Division, blank=True, related_name="players")
    already_qualified = models.BooleanField(
        default=False,
        help_text=_("Already qualified for the qualify event: passes the slot down."),
    )
    registered_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_start_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="start_number_positive"),
            models.UniqueConstraint(
                fields=["tournament", "member"],
                condition=Q(member__isnull=False),
                name="one_player_per_member",
            ),
            models.UniqueConstraint(
                fields=["tournament", "person"],
                condition=Q(person__isnull=False),
                name="one_player_per_person",
            ),
            models.CheckConstraint(
                condition=Q(fixed_table__isnull=True) | Q(fixed_table__gte=1),
                name="fixed_table_positive",
            ),
            models.CheckConstraint(
                condition=Q(joined_round__isnull=True) | Q(joined_round__gte=2),
                name="joined_round_after_first",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.number})"
