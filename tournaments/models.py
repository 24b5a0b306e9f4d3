"""Tournaments, the people who run them, the players, and the rounds.

Terms:
* tournament — one event with its own rule set (`rules`, every option resolved and stored,
  so a later change of a preset never changes it) and ranking order (`ranking`).
* status — the lifecycle `upcoming -> running -> finished` (`tournaments.lifecycle`):
  opening the first round makes an upcoming tournament running; an organiser finishes
  it, and may reopen a finished one (back to running). It goes back to upcoming only
  while it has no round. A finished tournament is locked: results, penalties, players
  and rounds are refused (409) until it is reopened; its settings and staff may change.
* staff member — a user with a role in one tournament: an *organiser* changes everything,
  a *scorekeeper* enters results and penalties.
* player — someone registered in one tournament; `number` is their start number there.
  A withdrawn player keeps their games but is not seated again.
* round — one sitting of every active player at a table; how it was seated (`method`,
  `seed`) and how good the seating is (`quality`) are stored with it.
* first result — the moment the first result of any game was entered
  (`first_result_at`): from then on the rules cannot change and the tournament cannot be
  deleted. Stamped by the results service under the tournament's row lock.
* results_version — goes up by one in the same transaction as every change that affects
  standings; a standings snapshot says which version it was computed from.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from scoring.rules import RuleSet
from scoring.seating import MAX_TABLE_SIZE, MIN_TABLE_SIZE


class Tournament(models.Model):
    class Status(models.TextChoices):
        UPCOMING = "upcoming", "Upcoming"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=120)
    starts_on = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.UPCOMING)
    rules = models.JSONField(help_text="The preset name and the value of every rule option.")
    ranking = models.JSONField(help_text="Ordered list of standings metric keys.")
    table_size = models.PositiveSmallIntegerField(default=MAX_TABLE_SIZE)
    games_per_table = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Games per table in a round; empty = one per player."
    )
    rounds_planned = models.PositiveSmallIntegerField(null=True, blank=True)
    target_score = models.IntegerField(null=True, blank=True)
    results_need_confirmation = models.BooleanField(default=False)
    public = models.BooleanField(default=True)
    results_version = models.PositiveIntegerField(default=0)
    first_result_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When the first result was entered; from then on the rules are frozen.",
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
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rule_set(self) -> RuleSet:
        return RuleSet.from_dict(self.rules)


class StaffMember(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", "Organiser"
        SCOREKEEPER = "scorekeeper", "Scorekeeper"

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


class Player(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        WITHDRAWN = "withdrawn", "Withdrawn"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=100)
    club = models.CharField(max_length=100, blank=True)
    rating = models.IntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    registered_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_start_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="start_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.number})"


class Round(models.Model):
    class Method(models.TextChoices):
        MANUAL = "manual", "Manual"
        RANDOM = "random", "Random (fewest repeat meetings)"
        SWISS = "swiss", "Swiss (by standings)"
        PLAN = "plan", "Planned schedule"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    method = models.CharField(max_length=10, choices=Method.choices)
    seed = models.BigIntegerField(null=True, blank=True, help_text="Seed of a drawn seating.")
    quality = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ends_at = models.DateTimeField(
        null=True, blank=True, help_text="The round clock: when play in this round ends."
    )

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class SeatingPlan(models.Model):
    """A schedule seated for several rounds at once (method `plan`), used round by round.

    `rounds` holds, from round `first_round` on, each round's tables as lists of player
    ids in seat order. It is valid for exactly the `players` it was made for: when the
    active players change (a withdrawal, a late entry), the rest is planned anew.
    """

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="seating_plan"
    )
    seed = models.BigIntegerField()
    players = models.JSONField(help_text="The sorted ids of the players it seats.")
    first_round = models.PositiveSmallIntegerField()
    rounds = models.JSONField()
    created_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Seating plan of {self.tournament} from round {self.first_round}"

    def tables_for(self, number: int, players: list[int]) -> list[list[int]] | None:
        """The planned tables of round `number`, if the plan still fits these players."""
        index = number - self.first_round
        if sorted(players) != self.players or not 0 <= index < len(self.rounds):
            return None
        return self.rounds[index]
