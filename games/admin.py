"""Admin for rounds, tables, games, result versions, penalties and standings snapshots.

Results are shown read-only: a correction is a new version entered through the site or
the API, never an edit here.
"""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from tournaments.models import Round

from .models import Game, Penalty, RackEntry, Result, Seat, Standings, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "player"]
    raw_id_fields = ["player"]


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = ["number", "starter_position"]
    show_change_link = True


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round", "number"]
    list_filter = ["round__tournament", "round__number"]
    search_fields = ["round__tournament__name", "seats__player__name"]
    inlines = [SeatInline, GameInline]


@admin.register(Seat)
class SeatAdmin(SimpleHistoryAdmin):
    list_display = ["player", "table", "position", "round"]
    list_filter = ["round__tournament", "round__number"]
    search_fields = ["player__name"]
    raw_id_fields = ["player", "table", "round"]


class RackInline(admin.TabularInline):
    model = RackEntry
    extra = 0
    can_delete = False
    fields = [
        "player",
        "tiles",
        "points",
        "tile_count",
        "jokers",
        "no_meld",
        "charge",
        "score",
        "winner",
    ]
    readonly_fields = fields


class ResultInline(admin.TabularInline):
    model = Result
    extra = 0
    can_delete = False
    fields = ["version", "end", "status", "submitted_by", "submitted_at", "confirmed_by"]
    readonly_fields = fields
    show_change_link = True


class PenaltyInline(admin.TabularInline):
    model = Penalty
    extra = 0
    can_delete = False
    fields = ["player", "kind", "tiles_drawn", "points", "note", "recorded_by", "voided"]
    readonly_fields = fields


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "number", "starter_position"]
    list_filter = ["table__round__tournament", "table__round__number"]
    search_fields = ["table__round__tournament__name"]
    inlines = [ResultInline, PenaltyInline]


@admin.register(Result)
class ResultAdmin(SimpleHistoryAdmin):
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

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


@admin.register(Penalty)
class PenaltyAdmin(SimpleHistoryAdmin):
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
    readonly_fields = ["recorded_at", "voided_at"]
    raw_id_fields = ["game", "player"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "method", "created_at", "created_by"]
    list_filter = ["method", "tournament"]
    search_fields = ["tournament__name"]
    readonly_fields = ["created_at"]
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
