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
* invitation — a link an organiser hands to someone who has no account yet: opened
  before it expires, never used and not revoked, it lets them choose a username and a
  password and gives that new account the invitation's role (`StaffInvitation`).
* player — someone registered in one tournament; `number` is their start number there.
  A withdrawn player keeps their games but is not seated again.
* late entry — a player registered once round 1 exists: `joined_round` is the round they
  can first be seated in (the next one); the rounds before it are *missed rounds*, counted
  in the standings as the tournament's `missed_rounds` says (not played / average / zero).
* forfeit rule — `forfeit_rule`: how a game is scored that a withdrawn player's seat
  forfeits (`scoring.game.score_forfeit`).
* substitute games — games someone else played in a player's seat; they count for the
  seat's player only when `credit_substitute_games` is set.
* round — one sitting of every active player at a table; how it was seated (`method`,
  `seed`) and how good the seating is (`quality`) are stored with it.
* first result — the moment the first result of any game was entered
  (`first_result_at`): from then on the rules cannot change and the tournament cannot be
  deleted. Stamped by the results service under the tournament's row lock.
* club — a club that runs tournaments; its *members* are people followed across its
  tournaments (a player of a tournament may be linked to a member). Club organisers may
  create tournaments under the club and organise every one of them.
* season — a club's tournaments grouped and totalled by a declared rule
  (`scoring.seasons`): a league's evenings, a grand prix. `version` goes up whenever the
  standings of one of its tournaments change, like a tournament's `results_version`.
* rated — a tournament whose confirmed games update its club members' ratings.
* results_version — goes up by one in the same transaction as every change that affects
  standings; a standings snapshot says which version it was computed from.
* club avoidance — how hard the draw keeps players of one club from sharing a table
  (`scoring.seating.draw`): `weighted` (the default) keeps them apart in round 1 as hard
  as a repeat meeting and, later, after every repeat; `first_round` in round 1 only;
  `off` never (the round's quality still counts `same_club_pairs`).
* fixed table — a table number a player always sits at (a mobility need); the drawn
  methods honour it, a hand-made (`manual`) seating is the organiser's own.
* carried lot — `Player.lot`: a player of a tournament imported from an event file keeps
  the tie-breaking lot the original site drew, so ties rank as they did there.
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
* qualification slots — a tournament may declare that its top `qualify_slots` players
  qualify for a named event (`qualify_event`, e.g. a national final). A player flagged
  `already_qualified` (qualified at an earlier event) passes their slot down to the next
  player in the standings (`scoring.qualification`).
* carried — the score a player brings into a stage (`StageEntry.carried`): their previous
  stage total, as the stage's `carry_over` says (all / none / half).
* division — a category of a tournament's players ranked apart as well as in the whole
  field (Juniors ≤ 14, Seniors, Beginners, a strength flight): a player is in zero or
  more (`Player.divisions`). Its standings are the tournament's, filtered to its players
  and ranked again 1..n (`scoring.standings.rerank`); its `prizes` are the labels of its
  first places on the final standings. A later stage may be limited to a division
  (`Stage.division`): its cut takes only that division's players.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from scoring.rules import RuleSet
from scoring.seating import MAX_TABLE_SIZE, MIN_TABLE_SIZE


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
    # The same player at every club (`tournaments.person_model`).
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
    (`services.staff.invitation_token`); the row says whether it is still good: not past
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


class Round(models.Model):
    class Method(models.TextChoices):
        MANUAL = "manual", _("Manual")
        RANDOM = "random", _("Random (fewest repeat meetings)")
        SWISS = "swiss", _("Swiss (by standings)")
        PLAN = "plan", _("Planned schedule")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    method = models.CharField(max_length=10, choices=Method.choices)
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
        HALF = "half", _("Half (rounded toward zero)")

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
            # Stage 1 and side events have no cut; every later stage has exactly one rule.
            models.CheckConstraint(
                condition=Q(cut_top__isnull=True, cut_min_score__isnull=True)
                & (Q(number=1) | Q(kind="side"))
                | (
                    Q(number__gte=2)
                    & ~Q(kind="side")
                    & (
                        Q(cut_top__isnull=False, cut_min_score__isnull=True)
                        | Q(cut_top__isnull=True, cut_min_score__isnull=False)
                    )
                ),
                name="stage_one_cut_rule",
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


class Webhook(models.Model):
    """An address that is sent (POSTed) the tournament's events as they happen, signed
    with `secret` (`tournaments.services.webhooks` says how). The events it wants are one
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


# Defined beside, registered here (the app's models module imports every model).
from .person_model import Person as Person  # noqa: E402
