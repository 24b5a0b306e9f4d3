"""Tables, seats, games, versioned results and penalties.

Terms:
* table — one table of a round; `seats` say who sits where (position 1..4).
* series — the games played at one table in one round; game n is started by the seat
  ((n-1) mod seats) + 1, the *starter*.
* result — one entry of a game's outcome. Never edited: a correction is a new `version`;
  at most one version per game is `confirmed` (a database constraint), an older confirmed
  one becomes `superseded`, an unconfirmed one that a newer entry replaces `discarded`.
* rack entry — one player's rack in one result, with what the engine made of it:
  rack value (`points`), `charge` (what a loser pays), game `score` before sanctions,
  and its finish in the game (`place`, `place_shared`, `seats`: `scoring.placement.Finish`).
* idempotency key — a text the client picks once per submission (the API's
  `Idempotency-Key` header, the table page's hidden field): a submission sent again with
  the same key (a retry after a dropped connection) is the same submission, never a new
  version. Stored with the version it created, unique per game, with a fingerprint of
  the body so the same key with a different body is refused.
* time extension — some clubs allow each player a few extensions of their turn time per
  game; `Extension.used` counts those a player took in one game (0..`MAX_EXTENSIONS`).
* substitute — someone who played a seat for a game instead of its player: the rack entry
  carries their name (`substitute`); such a game counts for the seat's player only when
  the tournament's `credit_substitute_games` says so (opponents' results always count).
* absence / forfeit — a player withdrawn while their table was in play leaves their seat
  from game `Seat.absent_from` on: the table plays on without them, or the seat forfeits
  those games, each then a result version with end `forfeit` (scored by the tournament's
  `forfeit_rule`, `scoring.game.score_forfeit`), correctable like any other.
* penalty — recorded during play: `timeout` and `failed_manipulation` make the player draw
  tiles; `sanction` takes points off that game's score. Voiding keeps the row.
* standings snapshot — the ranked table computed from one `results_version`: derived
  data, recomputed by a background job whenever results change and served as-is to pages
  and the API, which say when it is stale (its `computed_version` is behind the
  tournament's `results_version`).
"""

from __future__ import annotations

import json
import os
from functools import partial

from django.conf import settings
from django.core.files.storage import FileSystemStorage
from django.db import models
from django.db.models import F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.placement import finishes
from scoring.ratings import Rating
from scoring.seating.starters import present_starter
from tournaments.models import Member, Player, Round, Season, Tournament


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_table_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} ({self.round})"


class Absence(models.TextChoices):
    PLAYS_ON = "plays_on", _("The table plays on without them")
    FORFEIT = "forfeit", _("Their seat forfeits those games")


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # Denormalised from table.round so the database itself can forbid seating a player
    # twice in one round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    # What django-simple-history records as the reason of the next change, when a service
    # sets it; for the type checker only, not a column.
    _change_reason: str
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    # A player withdrawn while the table was in play: from game `absent_from` on, their
    # seat is empty and `absence` says what happens to those games (`plays_on`: the others
    # play them without a rack for this seat; `forfeit`: the seat forfeits them).
    absent_from = models.PositiveSmallIntegerField(null=True, blank=True)
    absence = models.CharField(max_length=10, choices=Absence.choices, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="one_seat_per_round"),
            models.UniqueConstraint(fields=["table", "position"], name="unique_seat_position"),
            models.CheckConstraint(
                condition=Q(position__gte=1, position__lte=4), name="seat_position_1_to_4"
            ),
            models.CheckConstraint(
                condition=Q(absent_from__isnull=True, absence="")
                | Q(absent_from__gte=1, absence__in=["plays_on", "forfeit"]),
                name="seat_absence_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at seat {self.position}"


class Game(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    starter_position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_game_number"),
            models.CheckConstraint(
                condition=Q(starter_position__gte=1, starter_position__lte=4),
                name="starter_position_1_to_4",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.number} at {self.table}"

    @property
    def present_starter_position(self) -> int:
        """The seat that starts this game as it is played: the rotation's starter, or when
        that seat's player has left the table by this game (`Seat.absent_from`), the next
        present seat after it (`scoring.seating.starters.present_starter`). Reads the
        table's seats (prefetch them for a list of games, or use `present_starter`)."""
        return self.present_starter(list(self.table.seats.all()))

    def present_starter(self, seats: list[Seat]) -> int:
        """`present_starter_position` from the table's seats already read."""
        absent = {
            seat.position
            for seat in seats
            if seat.absent_from is not None and seat.absent_from <= self.number
        }
        return present_starter(self.starter_position, [s.position for s in seats], absent)


class Result(models.Model):
    class End(models.TextChoices):
        RUMMIKUB = "rummikub", _("Rummikub (a rack emptied)")
        POOL_EXHAUSTED = "pool_exhausted", _("Pool exhausted")
        FORFEIT = "forfeit", _("Forfeit (a withdrawn player's seat)")

    class Status(models.TextChoices):
        SUBMITTED = "submitted", _("Submitted (awaiting confirmation)")
        CONFIRMED = "confirmed", _("Confirmed")
        SUPERSEDED = "superseded", _("Superseded by a newer confirmed version")
        DISCARDED = "discarded", _("Discarded (replaced before confirmation)")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    version = models.PositiveIntegerField()
    end = models.CharField(max_length=16, choices=End.choices)
    status = models.CharField(max_length=12, choices=Status.choices)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    # The time of the entry; a default, not `auto_now_add`, so an event file's import
    # keeps the document's times in its one bulk insert.
    submitted_at = models.DateTimeField(default=timezone.now, editable=False)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # NULL: submitted without a key (such a submission is not de-duplicated).
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    # sha256 of the submitted body, to tell a retry from a different body with that key.
    idempotency_fingerprint = models.CharField(max_length=64, blank=True, default="")

    history = HistoricalRecords(excluded_fields=["submitted_at"])
    # Set by `result_submit` on a version it answers again for a repeated idempotency key.
    replayed = False

    class Meta:
        ordering = ["game", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="unique_result_version"),
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(status="confirmed"),
                name="one_confirmed_result_per_game",
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="result_version_positive"),
            # NULLs are distinct: results without a key never collide.
            models.UniqueConstraint(
                fields=["game", "idempotency_key"], name="one_result_per_idempotency_key"
            ),
            models.CheckConstraint(
                condition=Q(confirmed_by__isnull=True, confirmed_at__isnull=True)
                | Q(confirmed_by__isnull=False, confirmed_at__isnull=False),
                name="confirmed_by_and_at_together",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} v{self.version} ({self.status})"


class RackEntryQuerySet(models.QuerySet):
    def scored(self) -> RackEntryQuerySet:
        """Racks with `sanction` (unvoided sanction points of that player in that game) and
        `net_score` (the score after sanctions)."""
        sanctions = (
            Penalty.objects.filter(
                game=OuterRef("result__game"),
                player=OuterRef("player"),
                kind=Penalty.Kind.SANCTION,
                voided=False,
            )
            .values("game", "player")
            .annotate(total=Sum("points"))
            .values("total")
        )
        return self.annotate(
            sanction=Coalesce(Subquery(sanctions, output_field=models.IntegerField()), 0),
            net_score=F("score") - F("sanction"),
        )


class RackEntry(models.Model):
    class NoMeld(models.TextChoices):
        COULD_NOT = "could_not", _("Could not meld")
        DECLINED = "declined", _("Could have melded, declined")

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="racks")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="racks")
    # NULL and "" differ: NULL = entered by totals, "" = entered by tiles, an empty rack.
    tiles = models.CharField(  # noqa: DJ001
        max_length=400, null=True, blank=True, help_text=_("Canonical tiles; null = by totals.")
    )
    points = models.PositiveIntegerField(help_text=_("Rack value: face values + joker penalty."))
    tile_count = models.PositiveSmallIntegerField(null=True, blank=True)
    jokers = models.PositiveSmallIntegerField(default=0)
    # NULL = melded as usual (the API's `null`), mirroring the engine's None.
    no_meld = models.CharField(  # noqa: DJ001
        max_length=10, choices=NoMeld.choices, null=True, blank=True
    )
    charge = models.PositiveIntegerField(help_text=_("What this player paid as a loser."))
    score = models.IntegerField(help_text=_("Game score before sanction points."))
    winner = models.BooleanField(default=False)
    # Who played the seat when it was not the seat's player ("" = the player did).
    substitute = models.CharField(max_length=100, blank=True, default="")
    # The seat forfeited this game (a withdrawn player's seat, `Result.End.FORFEIT`).
    forfeit = models.BooleanField(default=False)
    # The seat's finish in the game (`scoring.placement.Finish`), set when the result is
    # stored: the place by this result's scores alone, so that it never goes stale (a
    # sanction recorded later is applied by the standings' SQL, which places the few
    # games with sanctions again), and nothing the tournament's settings decide.
    # `place`: 1 = best; `place_shared`: another seat finished in the same place;
    # `seats`: the racks in the result (the row of the placement table).
    place = models.PositiveSmallIntegerField()
    place_shared = models.BooleanField()
    seats = models.PositiveSmallIntegerField()

    objects = RackEntryQuerySet.as_manager()

    # Set on the racks RackEntryQuerySet.scored() reads; for the type checker only.
    sanction: int
    net_score: int

    class Meta:
        ordering = ["result", "id"]
        constraints = [
            models.UniqueConstraint(fields=["result", "player"], name="one_rack_per_player"),
            models.CheckConstraint(condition=Q(jokers__lte=2), name="at_most_two_jokers"),
            models.CheckConstraint(
                condition=Q(forfeit=False) | Q(substitute=""), name="forfeit_not_substituted"
            ),
            models.CheckConstraint(
                condition=Q(place__gte=1, place__lte=F("seats")), name="place_within_seats"
            ),
            models.CheckConstraint(condition=Q(winner=False) | Q(place=1), name="winner_first"),
        ]
        # Such racks are rare: the standings count them per player (a probe per player)
        # without reading every rack of the tournament.
        indexes = [
            models.Index(
                fields=["player"],
                condition=Q(forfeit=True) | ~Q(substitute=""),
                name="rack_substitute_or_forfeit",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.score:+d}"


def with_finishes(racks: list[RackEntry]) -> list[RackEntry]:
    """`racks`, every rack of one result, each given its finish from their scores and
    winners (`scoring.placement.finishes`): for racks built by hand (benches, tests). The
    services take the finish from the engine's outcome instead."""
    placed = finishes(
        {r.player_id: r.score for r in racks}, {r.player_id for r in racks if r.winner}
    )
    for rack in racks:
        rack.place, rack.place_shared, rack.seats = placed[rack.player_id]
    return racks


class Penalty(models.Model):
    class Kind(models.TextChoices):
        TIMEOUT = "timeout", _("Timeout (turn ran over)")
        FAILED_MANIPULATION = "failed_manipulation", _("Failed manipulation")
        SANCTION = "sanction", _("Referee sanction (points)")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    tiles_drawn = models.PositiveSmallIntegerField(default=0)
    points = models.PositiveIntegerField(default=0)
    note = models.CharField(max_length=300, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now, editable=False)  # as submitted_at
    voided = models.BooleanField(default=False)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    voided_at = models.DateTimeField(null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "recorded_at", "id"]
        verbose_name_plural = _("penalties")
        constraints = [
            # Only a sanction carries points, and it always does.
            models.CheckConstraint(
                condition=Q(kind="sanction", points__gte=1) | (~Q(kind="sanction") & Q(points=0)),
                name="sanction_points_only",
            ),
            models.CheckConstraint(
                condition=Q(voided=False, voided_by__isnull=True, voided_at__isnull=True)
                | Q(voided=True, voided_at__isnull=False),
                name="void_recorded",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.player}"


# The most extensions one player can take in one game (the rules are silent,
# docs/rules/penalties.md#time-extensions; clubs that allow extensions allow one to three).
MAX_EXTENSIONS = 10


class Extension(models.Model):
    """How many time extensions one player took in one game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="extensions")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="extensions")
    used = models.PositiveSmallIntegerField(default=0)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "player"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="one_extension_count"),
            models.CheckConstraint(
                condition=Q(used__gte=0, used__lte=MAX_EXTENSIONS), name="extensions_0_to_10"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.used} extension(s) in {self.game}"


class EncodedJSON(str):
    """JSON text already encoded, for a `SnapshotJSONField` to store as it is (the caller
    encoded it once for something else too: the standings digest its text)."""


class SnapshotJSONField(models.JSONField):
    """A JSON column kept as text: PostgreSQL's `json`, not `jsonb`. A snapshot is written
    once and read whole, never queried inside; parsing 300 KB into jsonb took PostgreSQL
    about four times as long as checking it as `json` (and reading it back converts it to
    text again), and `json` keeps the keys in the order they were written. SQLite keeps
    every JSONField as text already. Readers get the same Python values either way."""

    def db_type(self, connection):
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_db_prep_value(self, value, connection, prepared=False):
        if connection.vendor != "postgresql":
            if isinstance(value, EncodedJSON):
                return str(value)
            return super().get_db_prep_value(value, connection, prepared)
        from psycopg.types.json import Json

        if isinstance(value, EncodedJSON):
            return Json(str(value), dumps=str)
        if not prepared:
            value = self.get_prep_value(value)
        return Json(value, dumps=partial(json.dumps, cls=self.encoder))

    def from_db_value(self, value, expression, connection):
        # psycopg parses `json` itself (Django has it hand `jsonb` over as text).
        if value is None or not isinstance(value, str):
            return value
        return super().from_db_value(value, expression, connection)


class Standings(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    computed_version = models.PositiveIntegerField()
    computed_at = models.DateTimeField(auto_now_add=True)
    ranking = models.JSONField(help_text=_("The ranking the rows were ordered by."))
    rows = SnapshotJSONField()
    duration_ms = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name_plural = _("standings")
        ordering = ["tournament", "-computed_version"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "computed_version"], name="one_snapshot_per_version"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} standings @v{self.computed_version}"


class SeasonStandings(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    computed_version = models.PositiveIntegerField()
    computed_at = models.DateTimeField(auto_now_add=True)
    rows = models.JSONField()

    class Meta:
        verbose_name_plural = _("season standings")
        ordering = ["season", "-computed_version"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "computed_version"], name="one_season_snapshot_per_version"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season} standings @v{self.computed_version}"


class RatingChange(models.Model):
    """A member's rating after one rated game, computed from `result`. `position` orders
    the club's rated games (tournament date, tournament, round, table, game)."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    score = models.IntegerField(help_text=_("The member's game score the rating read."))
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["member", "position"]
        constraints = [
            models.UniqueConstraint(fields=["member", "game"], name="one_rating_per_game"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_sigma_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.shown} after {self.game}"

    @property
    def shown(self) -> int:
        """The rating people read (`scoring.ratings.Rating.shown`)."""
        return Rating(self.mu, self.sigma).shown


class ExportStorage(FileSystemStorage):
    """The files of background exports, in `EXPORT_DIR` (under `DATA_DIR`), read at each
    use: a changed setting (a test's temporary directory) counts at once."""

    @property
    def base_location(self) -> str:
        return str(settings.EXPORT_DIR)

    @property
    def location(self) -> str:
        return os.path.abspath(self.base_location)


def export_storage() -> FileSystemStorage:
    return ExportStorage()


class ExportJob(models.Model):
    """One export (or import) too large for a request, run by a background job: what was
    asked, how far it got, and its file once done (`games.services.export_jobs`)."""

    class Kind(models.TextChoices):
        SHEETS_PDF = "sheets_pdf", _("Table sheets PDF")
        EVENT_FILE_IMPORT = "event_file_import", _("Event file import")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    kind = models.CharField(max_length=32, choices=Kind.choices)
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="export_jobs"
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, null=True, blank=True, related_name="export_jobs"
    )
    # What else the export depends on (the paper, the language, an import's slug).
    params = models.JSONField(default=dict, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="export_jobs"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # The output (an import: its input until it ran); `filename` is what the download is called.
    file = models.FileField(storage=export_storage, upload_to="exports/%Y/%m/%d", blank=True)
    filename = models.CharField(max_length=200, blank=True)
    error = models.TextField(blank=True)
    # An import's new tournament (its slug), once done.
    result = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["kind", "tournament", "status"])]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status} {self.done}/{self.total})"

    @property
    def active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

    @property
    def percent(self) -> int:
        return 0 if not self.total else min(100, self.done * 100 // self.total)


class ExportPart(models.Model):
    """One part of an export job made by a task of its own, so that several worker
    processes make one job (a chunk of a round's sheets): what it covers, and its output
    once made, kept here until the job joins the parts and deletes them. In the database
    rather than in `EXPORT_DIR`: every worker, on whatever host, reaches the database."""

    job = models.ForeignKey(ExportJob, on_delete=models.CASCADE, related_name="parts")
    index = models.PositiveIntegerField()
    # What the part covers (a chunk: its table numbers) and how many of the job's steps
    # it counts for in the progress once made (its sheets).
    covers = models.JSONField(default=list)
    steps = models.PositiveIntegerField(default=0)
    content = models.BinaryField(null=True, blank=True)
    made_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["job", "index"]
        constraints = [
            models.UniqueConstraint(fields=["job", "index"], name="export_part_once_per_index")
        ]

    def __str__(self) -> str:
        return f"part {self.index} of export job #{self.job_id}"
