"""A circuit: a federation's season of approved tournaments from any club, its national
ranking of people, and the final it feeds.

Terms (the rules: `scoring.circuits`):
* circuit — created by a superuser (the install's administrator), run by its
  *administrators* (`CircuitAdministrator`): they approve the tournaments that count,
  set the rule and the final, and merge duplicate people.
* circuit event — a tournament proposed to the circuit (by its organisers) or approved
  (by an administrator, who may also add one directly). Only approved, finished
  tournaments count. `field` is the number of players of its final standings (withdrawn
  players left out) while it counts, null otherwise.
* circuit finish — a person's place and ranking points in one event, stored when the
  event is refreshed: one event finishing recomputes only its own finishes, and the
  ranking is then totalled from the stored ones (the incremental recompute).
* ranking snapshot — the ranking and the qualified list at one `Circuit.version`, as
  the standings snapshot of a tournament; `version` goes up with every refresh.
* final entry — a qualified person's entry in the final (`Circuit.final`): their seed
  from the ranking, how they qualified, and the final's player made for them.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournaments.models import Person, Player, Tournament


class Circuit(models.Model):
    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=120)
    rule = models.JSONField(default=dict, help_text=_("The circuit's rule (scoring.circuits)."))
    cutoff = models.DateField(
        null=True, blank=True, help_text=_("The ranking's top qualifies as it stands this day.")
    )
    final = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="fed_by"
    )
    version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords(excluded_fields=["version"])

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class CircuitAdministrator(models.Model):
    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="administrators")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="circuit_roles"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["circuit", "user"], name="one_circuit_role_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} runs {self.circuit}"


class CircuitEvent(models.Model):
    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Proposed")
        APPROVED = "approved", _("Approved")

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="events")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="circuit_events"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PROPOSED)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    field = models.PositiveIntegerField(null=True, blank=True)
    unlinked = models.PositiveIntegerField(
        default=0, help_text=_("Players of the final standings linked to no person.")
    )

    history = HistoricalRecords(excluded_fields=["field", "unlinked"])

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["circuit", "tournament"], name="one_event_per_circuit")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} in {self.circuit} ({self.status})"


class CircuitFinish(models.Model):
    event = models.ForeignKey(CircuitEvent, on_delete=models.CASCADE, related_name="finishes")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="circuit_finishes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField()
    lot = models.BigIntegerField(default=0)
    points = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "person"], name="one_finish_per_person")
        ]

    def __str__(self) -> str:
        return f"{self.person} #{self.rank} in {self.event}"


class CircuitRanking(models.Model):
    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="rankings")
    computed_version = models.PositiveIntegerField()
    computed_at = models.DateTimeField(auto_now_add=True)
    rows = models.JSONField(default=list)
    qualified = models.JSONField(default=list)
    passed_down = models.JSONField(default=list)
    ties = models.JSONField(default=list)
    duration_ms = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["circuit", "computed_version"], name="one_ranking_per_version"
            )
        ]

    def __str__(self) -> str:
        return f"{self.circuit} at version {self.computed_version}"


class FinalEntry(models.Model):
    class Route(models.TextChoices):
        EVENT = "event", _("Event slot")
        RANKING = "ranking", _("Ranking")

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="final_entries")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="final_entries")
    seed = models.PositiveIntegerField()
    route = models.CharField(max_length=10, choices=Route.choices)
    event = models.ForeignKey(
        CircuitEvent, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["circuit", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["circuit", "person"], name="one_entry_per_person")
        ]

    def __str__(self) -> str:
        return f"{self.person}, seed {self.seed} of {self.circuit}"
