"""Admin for tournaments, staff and players: filters, search, inlines, history. Rounds,
with their tables, are in the games admin."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Player, Round, StaffMember, Tournament


class StaffInline(admin.TabularInline):
    model = StaffMember
    extra = 0
    autocomplete_fields = ["user"]


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["number", "name", "club", "rating", "status"]
    show_change_link = True


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "method", "seed", "quality", "created_at"]
    readonly_fields = fields
    show_change_link = True
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(SimpleHistoryAdmin):
    list_display = ["name", "slug", "starts_on", "status", "public", "results_version"]
    list_filter = ["status", "public", "results_need_confirmation", "starts_on"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["results_version", "first_result_at", "created_at", "updated_at"]
    date_hierarchy = "starts_on"
    inlines = [StaffInline, PlayerInline, RoundInline]


@admin.register(StaffMember)
class StaffMemberAdmin(SimpleHistoryAdmin):
    list_display = ["user", "tournament", "role", "added_at"]
    list_filter = ["role", "tournament"]
    search_fields = ["user__username", "tournament__name"]
    autocomplete_fields = ["user", "tournament"]


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ["number", "name", "club", "rating", "status", "tournament"]
    list_filter = ["status", "tournament"]
    search_fields = ["name", "club"]
    autocomplete_fields = ["tournament"]
