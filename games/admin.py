"""Admin for rounds, tables, games, result versions, penalties and standings snapshots.

Everything here feeds the standings, so (see the tournaments admin) nothing here is
changed in a way the services do not know of. Per model:

* result and rack entry — view-only: they are versioned, and a correction is a new version
  entered through the site or the API (`result_submit`), never an edit or a deletion here.
* penalty — view-only, except voiding: the "void" action calls `penalty_void` for each
  selected penalty, which checks the user's role, keeps the row and bumps the version.
  Recording one needs the game's seats and is done on the table's page.
* round, table, game and seat — view-only: `round_open` seats a round and `seat_swap`
  moves players, refusing once a game at the table has a result; editing them here would
  detach results from the tables and seats they were played at.
* standings snapshot — derived data: view-only, but may be deleted (the next read or the
  periodic repair computes it again).
"""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction

from scoring.errors import RuleError
from tournaments.admin import HistoryAdmin, ViewOnly
from tournaments.models import Round

from .models import Extension, Game, Penalty, RackEntry, Result, Seat, Standings, Table
from .services.results import penalty_void


class SeatInline(ViewOnly, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "player"]
    raw_id_fields = ["player"]


class GameInline(ViewOnly, admin.TabularInline):
    model = Game
    extra = 0
    fields = ["number", "starter_position"]
    show_change_link = True


@admin.register(Table)
class TableAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ["__str__", "round", "number"]
    list_filter = ["round__tournament", "round__number"]
    search_fields = ["round__tournament__name", "seats__player__name"]
    inlines = [SeatInline, GameInline]


@admin.register(Seat)
class SeatAdmin(ViewOnly, HistoryAdmin):
    list_display = ["player", "table", "position", "round"]
    list_filter = ["round__tournament", "round__number"]
    search_fields = ["player__name"]
    raw_id_fields = ["player", "table", "round"]


# Shown and read-only alike (a tuple: both attributes take it).
RACK_FIELDS = (
    "player",
    "tiles",
    "points",
    "tile_count",
    "jokers",
    "no_meld",
    "charge",
    "score",
    "winner",
)


class RackInline(ViewOnly, admin.TabularInline):
    model = RackEntry
    extra = 0
    fields = RACK_FIELDS
    readonly_fields = RACK_FIELDS


# Shown and read-only alike (a tuple: both attributes take it).
RESULT_FIELDS = (
    "version",
    "end",
    "status",
    "submitted_by",
    "submitted_at",
    "confirmed_by",
)


class ResultInline(ViewOnly, admin.TabularInline):
    model = Result
    extra = 0
    fields = RESULT_FIELDS
    readonly_fields = RESULT_FIELDS
    show_change_link = True


# Shown and read-only alike (a tuple: both attributes take it).
PENALTY_FIELDS = (
    "player",
    "kind",
    "tiles_drawn",
    "points",
    "note",
    "recorded_by",
    "voided",
)


class PenaltyInline(ViewOnly, admin.TabularInline):
    model = Penalty
    extra = 0
    fields = PENALTY_FIELDS
    readonly_fields = PENALTY_FIELDS


@admin.register(Game)
class GameAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ["__str__", "number", "starter_position"]
    list_filter = ["table__round__tournament", "table__round__number"]
    search_fields = ["table__round__tournament__name"]
    inlines = [ResultInline, PenaltyInline]


@admin.register(Result)
class ResultAdmin(ViewOnly, HistoryAdmin):
    list_display = [
        "game",
        "version",
        "end",
        "status",
        "submitted_by",
        "submitted_at",
        "confirmed_by",
    ]
    list_filter = ["status", "end", "game__table__round__tournament"]
    search_fields = ["racks__player__name", "submitted_by__username"]
    inlines = [RackInline]


@admin.register(Extension)
class ExtensionAdmin(ViewOnly, HistoryAdmin):
    """View-only: extensions are recorded by the timer or the API (`extension_set`)."""

    list_display = ["player", "used", "game", "recorded_by", "recorded_at"]
    list_filter = ["game__table__round__tournament"]
    search_fields = ["player__name"]
    raw_id_fields = ["game", "player"]


@admin.register(Penalty)
class PenaltyAdmin(ViewOnly, HistoryAdmin):
    list_display = [
        "player",
        "kind",
        "tiles_drawn",
        "points",
        "game",
        "recorded_by",
        "recorded_at",
        "voided",
    ]
    list_filter = ["kind", "voided", "game__table__round__tournament"]
    search_fields = ["player__name", "note"]
    raw_id_fields = ["game", "player"]
    actions = ["void"]

    @admin.action(description="Void the selected penalties")
    def void(self, request, queryset):
        voided, refused = 0, []
        # One transaction: a tournament's standings are recomputed once, not per penalty.
        with transaction.atomic():
            for penalty in queryset.select_related("player"):
                try:
                    penalty_void(penalty=penalty, by=request.user)
                except (RuleError, PermissionDenied) as error:
                    refused.append(f"{penalty}: {error}")
                else:
                    voided += 1
        if voided:
            self.message_user(request, f"Voided {voided} penalties.", messages.SUCCESS)
        for reason in refused:
            self.message_user(request, f"Not voided — {reason}", messages.WARNING)


class TableInline(ViewOnly, admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True


@admin.register(Round)
class RoundAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ["tournament", "number", "method", "created_at", "created_by"]
    list_filter = ["method", "tournament"]
    search_fields = ["tournament__name"]
    inlines = [TableInline]


@admin.register(Standings)
class StandingsAdmin(admin.ModelAdmin):
    list_display = ["tournament", "computed_version", "computed_at", "duration_ms"]
    list_filter = ["tournament"]
    readonly_fields = [
        "tournament",
        "computed_version",
        "computed_at",
        "ranking",
        "rows",
        "duration_ms",
    ]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
