"""Rounds, stages (with their entry lists), check-in absences and seating plans.

Terms:
* round — one sitting of every active player at a table; how it was seated (`method`,
  `seed`) and how good the seating is (`quality`) are stored with it.
* absence — a player marked absent for one round number (check-in): not seated in that
  round, back in the next. Present is the default, so no row means present; the round
  need not exist yet (check-in comes before opening it).
* stage — a part of a tournament with its own rounds and ranking (`Stage`): qualification,
  semi-final, final, side event. Stages run in `number` order; rounds opened while a stage
  is the current one (the first not closed) belong to it. Rounds without a stage belong to
  stage 1 (a tournament's first stage may be implicit: stages added after round 1 take the
  earlier rounds as stage 1's). A tournament without stages behaves as it always did.
* cut — who enters a stage: its `cut_top` players (or those scoring at least
  `cut_min_score`) of the previous stage's standings, ties at the line as `cut_ties` says
  (`scoring.stages.cut`). Stored as the stage's entry list (`StageEntry`) when the
  previous stage is closed. Stage 1 has no cut: every player enters it.
* stage graph — a stage takes its entrants from its `source` (by default the main stage
  before it) by its `entry` rule: `top`, `min_score`, `ranks` (places `rank_from` to
  `rank_to`), `tables` (`table_top` per table of the source's last round plus
  `best_losers`), `division` (all its players) or `manual` (named by hand). Several
  stages may follow one source and run in parallel (`scoring.stage_graph`).
* carried — the score a player brings into a stage (`StageEntry.carried`): their previous
  stage total, as the stage's `carry_over` says (all / none / half).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from .players import Division, Player
from .tournaments import Tournament


class Round(models.Model):
    class Method(models.TextChoices):
        MANUAL = "manual", _("Manual")
        RANDOM = "random", _("Random (fewest repeat meetings)")
        SWISS = "swiss", _("Swiss (by standings)")
        PLAN = "plan", _("Planned schedule")
        ALTERNATING = "alternating", _("Alternating by seed (1, 3, 5 / 2, 4, 6)")
        SNAKE = "snake", _("Snake by seed (1, 4, 5 / 2, 3, 6)")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    method = models.CharField(max_length=12, choices=Method.choices)
    seed = models.BigIntegerField(null=True, blank=True, help_text=_("Seed of a drawn seating."))
    quality = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ends_at = models.DateTimeField(
        null=True, blank=True, help_text=_("The round clock: when play in this round ends.")
    )
    stage = models.ForeignKey(
        "Stage", null=True, blank=True, on_delete=models.RESTRICT, related_name="rounds"
    )

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class Stage(models.Model):
    """One stage of a tournament (see "stage" above); the cut fields say who enters it."""

    class Kind(models.TextChoices):
        QUALIFICATION = "qualification", _("Qualification")
        SEMI_FINAL = "semi_final", _("Semi-final")
        FINAL = "final", _("Final")
        SIDE = "side", _("Side event")

    class CarryOver(models.TextChoices):
        ALL = "all", _("All (scores continue)")
        NONE = "none", _("None (scores reset)")
        HALF = "half", _("Half")

    class CarryRounding(models.TextChoices):
        TOWARD_ZERO = "toward_zero", _("Toward zero (7 → 3, -7 → -3)")
        HALF_UP = "half_up", _("Half up (7 → 4, -7 → -3)")

    class Entry(models.TextChoices):
        TOP = "top", _("The top N")
        MIN_SCORE = "min_score", _("Everyone at or above a score")
        RANKS = "ranks", _("Places from … to …")
        TABLES = "tables", _("The top of each table, plus the best losers")
        DIVISION = "division", _("Every player of a division")
        MANUAL = "manual", _("Named by hand")

    class Seating(models.TextChoices):
        RANDOM = "random", _("Random (fewest repeat meetings)")
        SWISS = "swiss", _("Swiss (by standings)")
        ALTERNATING = "alternating", _("Alternating by seed (1, 3, 5 / 2, 4, 6)")
        SNAKE = "snake", _("Snake by seed (1, 4, 5 / 2, 3, 6)")

    class CutTies(models.TextChoices):
        INCLUDE = "include", _("Every tied player goes on")
        LOT = "lot", _("Decided by lot")

    class Status(models.TextChoices):
        UPCOMING = "upcoming", pgettext_lazy("stage status", "Next")
        RUNNING = "running", pgettext_lazy("stage status", "Running")
        CLOSED = "closed", pgettext_lazy("stage status", "Done")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.QUALIFICATION)
    ranking = models.JSONField(help_text=_("Ordered list of standings metric keys."))
    carry_over = models.CharField(max_length=4, choices=CarryOver.choices, default=CarryOver.NONE)
    cut_top = models.PositiveSmallIntegerField(null=True, blank=True)
    cut_min_score = models.IntegerField(null=True, blank=True)
    cut_ties = models.CharField(max_length=8, choices=CutTies.choices, default=CutTies.LOT)
    reseat_every_game = models.BooleanField(default=False)
    race_target = models.PositiveSmallIntegerField(null=True, blank=True)
    race_cap = models.PositiveSmallIntegerField(null=True, blank=True)
    # The rounds the organiser means to play in this stage (None: not said). It only
    # informs: the pages say "round 2 of 3"; opening more is not refused (a stage ends
    # when the organiser closes it), as with the tournament's own `rounds_planned`.
    rounds_planned = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.UPCOMING)
    # The stage graph (`scoring.stage_graph`): where the entrants come from and how. No
    # source: the main stage before this one. `entry` is "" for stage 1 and side events.
    source = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="feeds"
    )
    entry = models.CharField(max_length=10, choices=Entry.choices, blank=True, default="")
    rank_from = models.PositiveSmallIntegerField(null=True, blank=True)
    rank_to = models.PositiveSmallIntegerField(null=True, blank=True)
    table_top = models.PositiveSmallIntegerField(null=True, blank=True)
    best_losers = models.PositiveSmallIntegerField(default=0)
    carry_rounding = models.CharField(
        max_length=12, choices=CarryRounding.choices, default=CarryRounding.TOWARD_ZERO
    )
    # Per-stage play: games per table (None: the tournament's) and the seating method its
    # rounds are drawn by when the organiser names none ("": chosen at each round).
    games_per_table = models.PositiveSmallIntegerField(null=True, blank=True)
    seating = models.CharField(max_length=12, choices=Seating.choices, blank=True, default="")
    # The stage's order as it closed ([rank, player id], best first): a tournament's
    # qualification slots may follow it (`Tournament.qualify_stage`). Empty until closed.
    final_order = models.JSONField(default=list, blank=True)
    # A side event (kind `side`): the main stage whose players not cut enter it.
    side_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="side_stages"
    )
    # A stage limited to a division: its cut takes only that division's players. A
    # division in use by a stage cannot be deleted on its own (RESTRICT, not PROTECT: the
    # tournament's own delete, which takes the stage too, still goes through).
    division = models.ForeignKey(
        Division, null=True, blank=True, on_delete=models.RESTRICT, related_name="stages"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_stage_number"),
            # A side event, and only a side event, names the stage it comes from.
            models.CheckConstraint(
                condition=Q(kind="side", side_of__isnull=False)
                | (~Q(kind="side") & Q(side_of__isnull=True)),
                name="stage_side_of_side_only",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="stage_number_positive"),
            models.CheckConstraint(
                condition=Q(rounds_planned__isnull=True) | Q(rounds_planned__gte=1),
                name="stage_rounds_planned_positive",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["qualification", "semi_final", "final", "side"]),
                name="stage_kind_choice",
            ),
            models.CheckConstraint(
                condition=Q(carry_over__in=["all", "none", "half"]), name="stage_carry_over_choice"
            ),
            models.CheckConstraint(
                condition=Q(cut_ties__in=["include", "lot"]), name="stage_cut_ties_choice"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["upcoming", "running", "closed"]),
                name="stage_status_choice",
            ),
            # Stage 1 and side events have no cut; every later stage has one entry rule,
            # with exactly the fields that rule needs.
            models.CheckConstraint(
                condition=Q(cut_top__isnull=True, cut_min_score__isnull=True, entry="")
                & (Q(number=1) | Q(kind="side"))
                | (
                    Q(number__gte=2)
                    & ~Q(kind="side")
                    & (
                        Q(entry="top", cut_top__isnull=False, cut_min_score__isnull=True)
                        | Q(entry="min_score", cut_top__isnull=True, cut_min_score__isnull=False)
                        | Q(
                            entry__in=["ranks", "tables", "division", "manual"],
                            cut_top__isnull=True,
                            cut_min_score__isnull=True,
                        )
                    )
                ),
                name="stage_one_entry_rule",
            ),
            models.CheckConstraint(
                condition=~Q(entry="ranks") | Q(rank_from__gte=1, rank_to__gte=F("rank_from")),
                name="stage_rank_range_ordered",
            ),
            models.CheckConstraint(
                condition=~Q(entry="tables") | Q(table_top__gte=1),
                name="stage_table_top_positive",
            ),
            models.CheckConstraint(
                condition=~Q(entry="division") | Q(division__isnull=False),
                name="stage_division_entry_names_one",
            ),
            models.CheckConstraint(
                condition=Q(games_per_table__isnull=True)
                | Q(games_per_table__gte=1, games_per_table__lte=12),
                name="stage_games_per_table_1_to_12",
            ),
            models.CheckConstraint(
                condition=Q(cut_top__isnull=True) | Q(cut_top__gte=1), name="stage_cut_top_positive"
            ),
            models.CheckConstraint(
                condition=Q(race_target__isnull=True, race_cap__isnull=True)
                | Q(race_target__gte=1, race_cap__gte=F("race_target")),
                name="stage_race_cap_at_least_target",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} stage {self.number} ({self.name})"

    @property
    def one_game_rounds(self) -> bool:
        """Each round of this stage plays one game per table: it is re-seated every game,
        or a race to N (every game counts on its own)."""
        return self.reseat_every_game or self.race_target is not None

    @property
    def is_side(self) -> bool:
        return self.kind == self.Kind.SIDE


class StageEntry(models.Model):
    """A player in a stage's entry list: their place in the cut and the score carried."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="stage_entries")
    seed_rank = models.PositiveIntegerField(help_text=_("Rank in the previous stage's standings."))
    carried = models.IntegerField(default=0)

    class Meta:
        ordering = ["stage", "seed_rank", "player"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "player"], name="one_entry_per_stage"),
            models.CheckConstraint(condition=Q(seed_rank__gte=1), name="seed_rank_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.stage}"


class Absence(models.Model):
    """A player marked absent for one round (by its number): not seated in it. Marking
    them present again deletes the row; its history keeps who checked whom in or out."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="absences")
    round_number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="absences")
    marked_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "round_number", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round_number", "player"], name="one_absence_per_round"
            ),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="absence_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} absent in round {self.round_number}"


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
    players = models.JSONField(help_text=_("The sorted ids of the players it seats."))
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
