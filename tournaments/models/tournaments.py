"""The tournament: its settings, rules, ranking and lifecycle.

Terms:
* tournament — one event with its own rule set (`rules`, every option resolved and stored,
  so a later change of a preset never changes it) and ranking order (`ranking`).
* status — the lifecycle `upcoming -> running -> finished` (`tournaments.lifecycle`):
  opening the first round makes an upcoming tournament running; an organiser finishes
  it, and may reopen a finished one (back to running). It goes back to upcoming only
  while it has no round. A finished tournament is locked: results, penalties, players
  and rounds are refused (409) until it is reopened; its settings and staff may change.
* first result — the moment the first result of any game was entered
  (`first_result_at`): from then on the rules cannot change and the tournament cannot be
  deleted. Stamped by the results service under the tournament's row lock.
* results_version — goes up by one in the same transaction as every change that affects
  standings; a standings snapshot says which version it was computed from.
* forfeit rule — `forfeit_rule`: how a game is scored that a withdrawn player's seat
  forfeits (`scoring.game.score_forfeit`).
* substitute games — games someone else played in a player's seat; they count for the
  seat's player only when `credit_substitute_games` is set.
* club avoidance — how hard the draw keeps players of one club from sharing a table
  (`scoring.seating.draw`, `scoring.seating.swiss`): `weighted` (the default) keeps
  them apart in round 1 as hard as a repeat meeting and, later, after every repeat;
  `first_round` in round 1 only; `off` never (the round's quality still counts
  `same_club_pairs`).
* qualification slots — a tournament may declare that its top `qualify_slots` players
  qualify for a named event (`qualify_event`, e.g. a national final). A player flagged
  `already_qualified` (qualified at an earlier event) passes their slot down to the next
  player in the standings (`scoring.qualification`).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from scoring.rules import RuleSet
from scoring.seating import MAX_TABLE_SIZE, MIN_TABLE_SIZE

from .clubs import Club, Season


class Tournament(models.Model):
    class MissedRounds(models.TextChoices):
        NOT_PLAYED = "not_played", _("Not played (nothing added)")
        AVERAGE = "average", _("At the player's own average per game")
        ZERO = "zero", _("Played, scoring zero")

    class ForfeitRule(models.TextChoices):
        SHARED = "shared", _("Shared by the players present")
        ABSENT_ONLY = "absent_only", _("Charged to the absent seat only")

    class Status(models.TextChoices):
        UPCOMING = "upcoming", pgettext_lazy("tournament status", "Upcoming")
        RUNNING = "running", pgettext_lazy("tournament status", "Running")
        FINISHED = "finished", pgettext_lazy("tournament status", "Finished")

    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=120)
    starts_on = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.UPCOMING)
    rules = models.JSONField(help_text=_("The preset name and the value of every rule option."))
    ranking = models.JSONField(help_text=_("Ordered list of standings metric keys."))
    table_size = models.PositiveSmallIntegerField(default=MAX_TABLE_SIZE)
    games_per_table = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Games per table in a round; empty = one per player.")
    )
    rounds_planned = models.PositiveSmallIntegerField(null=True, blank=True)
    target_score = models.IntegerField(null=True, blank=True)
    # A target-score match ends after this many games at the latest (scoring.match).
    target_games_cap = models.PositiveSmallIntegerField(null=True, blank=True)
    results_need_confirmation = models.BooleanField(default=False)

    class ClubAvoidance(models.TextChoices):
        WEIGHTED = "weighted", _("Round 1 apart, later weighted")
        FIRST_ROUND = "first_round", _("Round 1 only")
        OFF = "off", pgettext_lazy("club avoidance", "Off")

    club_avoidance = models.CharField(
        max_length=12,
        choices=ClubAvoidance.choices,
        default=ClubAvoidance.WEIGHTED,
        help_text=_("How hard the draw keeps players of one club from sharing a table."),
    )
    public = models.BooleanField(default=True)
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments"
    )
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    rated = models.BooleanField(
        default=False, help_text=_("Its confirmed games update the club members' ratings.")
    )
    results_version = models.PositiveIntegerField(default=0)
    # How a late entry's missed rounds count (docs/rules/decisions.md#late-entries;
    # scoring.standings "missed games").
    missed_rounds = models.CharField(
        max_length=12, choices=MissedRounds.choices, default=MissedRounds.NOT_PLAYED
    )
    forfeit_rule = models.CharField(
        max_length=12, choices=ForfeitRule.choices, default=ForfeitRule.SHARED
    )
    credit_substitute_games = models.BooleanField(
        default=False,
        help_text=_("Count the games a substitute played for the seat's player."),
    )
    first_result_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text=_("When the first result was entered; from then on the rules are frozen."),
    )
    qualify_slots = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("How many of the final standings qualify; empty: none."),
    )
    # The qualification slots follow this stage's final order (a final's race order)
    # instead of the whole tournament's standings; None: the tournament's standings.
    qualify_stage = models.ForeignKey(
        "Stage", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    qualify_event = models.CharField(
        max_length=120, blank=True, help_text=_("The event the qualifiers go on to.")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords(excluded_fields=["results_version", "updated_at"])

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(table_size__gte=MIN_TABLE_SIZE, table_size__lte=MAX_TABLE_SIZE),
                name="table_size_2_to_4",
            ),
            models.CheckConstraint(
                condition=Q(games_per_table__isnull=True)
                | Q(games_per_table__gte=1, games_per_table__lte=12),
                name="games_per_table_1_to_12",
            ),
            models.CheckConstraint(
                condition=Q(rounds_planned__isnull=True) | Q(rounds_planned__gte=1),
                name="rounds_planned_positive",
            ),
            models.CheckConstraint(
                condition=Q(target_score__isnull=True) | Q(target_score__gte=1),
                name="target_score_positive",
            ),
            models.CheckConstraint(
                condition=Q(target_games_cap__isnull=True)
                | Q(target_games_cap__gte=1, target_games_cap__lte=50),
                name="target_games_cap_1_to_50",
            ),
            models.CheckConstraint(
                condition=Q(missed_rounds__in=["not_played", "average", "zero"]),
                name="missed_rounds_choice",
            ),
            models.CheckConstraint(
                condition=Q(forfeit_rule__in=["shared", "absent_only"]),
                name="forfeit_rule_choice",
            ),
            # Slots name the event they lead to, and an event without slots is none.
            models.CheckConstraint(
                condition=Q(qualify_slots__isnull=True, qualify_event="")
                | Q(qualify_slots__gte=1, qualify_slots__lte=1000) & ~Q(qualify_event=""),
                name="qualify_slots_with_event",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rule_set(self) -> RuleSet:
        return RuleSet.from_dict(self.rules)
