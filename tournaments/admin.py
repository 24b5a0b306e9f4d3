"""Admin for tournaments, staff and players: filters, search, inlines, history. Rounds,
with their tables, are in the games admin.

The admin is the superuser's escape hatch, and it must not let the standings drift: every
change here that feeds the standings either goes through a service, or bumps the
tournament's results version and asks for a recompute in the admin's own transaction
(`tournaments.events.results_changed`), or cannot be made here at all. Per model:

* tournament — `slug`, `rules` and `ranking` are read-only once it exists. The ranking
  orders the standings and the slug seeds their drawing of lots; the settings page changes
  ranking and rules through `tournament_update`, which validates them, freezes the rules
  once a result exists and bumps the version (the slug never changes). Its other settings
  do not feed the standings and stay editable. Deleting one takes its standings along.
* player (its own page and the tournament's inline) — editable, and every save or deletion
  calls `results_changed`: number, name, club and status are in the standings rows, and a
  needless recompute after a rating change costs less than a missed one. Which tournament
  a player is in is read-only: their games stay where they were played.
* staff member — editable: roles do not feed the standings.
* club, member — editable (names and membership numbers); which club a tournament is held
  under, its season and whether it is rated, and which member a player is, are read-only
  here: they feed seasons and ratings, and `tournaments.services.clubs` checks them.
* season — its name is editable; its rule and version are read-only (a season is
  declared with its rule, which the totals were computed by).
* staff invitation — view-only: made, revoked and used on the Staff page.
* round — view-only (see the games admin).

Terms:
* view-only — shown, never added, changed or deleted here; not through a history "revert"
  either, which simple_history lets anyone who may view post (`ViewOnly` refuses the save).
"""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _
from simple_history.admin import SimpleHistoryAdmin
from simple_history.template_utils import HistoricalRecordContextHelper

from .events import results_changed
from .models import (
    Club,
    ClubOrganiser,
    Division,
    Member,
    Player,
    Round,
    Season,
    StaffInvitation,
    StaffMember,
    Tournament,
    Webhook,
    WebhookDelivery,
)
from .selectors import choice_shown


class ChoiceLabels(HistoricalRecordContextHelper):
    """A history's changes with a choice's label, not its stored value ("Withdrawn", in
    the reader's language, not "withdrawn")."""

    def prepare_delta_change_value(self, change, value):
        value = super().prepare_delta_change_value(change, value)
        return choice_shown(self.model, change.field, value)


class HistoryAdmin(SimpleHistoryAdmin):
    """simple_history's admin, its history page showing choices by their labels."""

    def get_historical_record_context_helper(self, request, historical_record):
        return ChoiceLabels(self.model, historical_record)


class ViewOnly:
    """For admins and inlines of what only the services may write."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    # simple_history's revert form saves through these after checking only that the
    # user may *view* the object, so the refusal must also be here.
    def save_model(self, request, obj, form, change):
        raise PermissionDenied(_("This is changed through the site, not the admin."))

    def delete_model(self, request, obj):
        raise PermissionDenied(_("This is changed through the site, not the admin."))


class StaffInline(admin.TabularInline):
    model = StaffMember
    extra = 0
    autocomplete_fields = ["user"]


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["number", "name", "club", "rating", "status"]
    show_change_link = True


# Shown and read-only alike (a tuple: both attributes take it).
ROUND_FIELDS = (
    "number",
    "method",
    "seed",
    "quality",
    "created_at",
)


class RoundInline(ViewOnly, admin.TabularInline):
    model = Round
    extra = 0
    fields = ROUND_FIELDS
    readonly_fields = ROUND_FIELDS
    show_change_link = True


@admin.register(Tournament)
class TournamentAdmin(HistoryAdmin):
    list_display = ["name", "slug", "starts_on", "status", "public", "results_version"]
    list_filter = ["status", "public", "results_need_confirmation", "starts_on"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = [
        "results_version",
        "first_result_at",
        "created_at",
        "updated_at",
        "club",
        "season",
        "rated",
    ]
    date_hierarchy = "starts_on"
    inlines = [StaffInline, PlayerInline, RoundInline]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return self.readonly_fields
        return [*self.readonly_fields, "slug", "rules", "ranking"]

    def get_prepopulated_fields(self, request, obj=None):
        return self.prepopulated_fields if obj is None else {}

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        # The admin saves the whole page in one transaction, so the bump commits with the
        # players' changes (or not at all).
        if formset.model is Player and (
            formset.new_objects or formset.changed_objects or formset.deleted_objects
        ):
            results_changed(form.instance)


@admin.register(StaffMember)
class StaffMemberAdmin(HistoryAdmin):
    list_display = ["user", "tournament", "role", "added_at"]
    list_filter = ["role", "tournament"]
    search_fields = ["user__username", "tournament__name"]
    autocomplete_fields = ["user", "tournament"]


@admin.register(StaffInvitation)
class StaffInvitationAdmin(ViewOnly, admin.ModelAdmin):
    """Shown only: made, revoked and used on the Staff page (`services.staff`)."""

    list_display = ["tournament", "role", "created_by", "created_at", "expires_at", "used_by"]
    list_filter = ["role", "tournament"]
    readonly_fields = [f.name for f in StaffInvitation._meta.fields]


@admin.register(Player)
class PlayerAdmin(HistoryAdmin):
    list_display = ["number", "name", "club", "rating", "status", "tournament"]
    list_filter = ["status", "tournament"]
    search_fields = ["name", "club"]
    autocomplete_fields = ["tournament"]

    def get_readonly_fields(self, request, obj=None):
        # Divisions only through the site: their service keeps them in the tournament.
        return ["tournament", "member", "divisions"] if obj is not None else ["member", "divisions"]

    # Atomic here too: simple_history's revert form calls save_model outside the admin's
    # transaction.
    @transaction.atomic
    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        results_changed(obj.tournament)

    @transaction.atomic
    def delete_model(self, request, obj):
        tournament = obj.tournament
        super().delete_model(request, obj)
        results_changed(tournament)

    @transaction.atomic
    def delete_queryset(self, request, queryset):
        tournaments = list(Tournament.objects.filter(players__in=queryset).distinct())
        super().delete_queryset(request, queryset)
        for tournament in tournaments:
            results_changed(tournament)


@admin.register(Division)
class DivisionAdmin(ViewOnly, HistoryAdmin):
    """Divisions are kept by the organiser's pages (`tournaments.services.divisions`):
    their members must stay in the division's tournament."""

    list_display = ["name", "slug", "order", "tournament"]
    list_filter = ["tournament"]
    search_fields = ["name", "slug"]


class ClubOrganiserInline(admin.TabularInline):
    model = ClubOrganiser
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(HistoryAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [ClubOrganiserInline]


@admin.register(Member)
class MemberAdmin(HistoryAdmin):
    list_display = ["name", "code", "club", "joined_on"]
    list_filter = ["club"]
    search_fields = ["name", "code"]
    autocomplete_fields = ["club"]


@admin.register(Season)
class SeasonAdmin(HistoryAdmin):
    list_display = ["name", "club", "version", "created_at"]
    list_filter = ["club"]
    search_fields = ["name"]
    readonly_fields = ["rule", "version", "created_at"]

    def has_add_permission(self, request):
        return False  # declared with a checked rule: the API (or a future page)


@admin.register(Webhook)
class WebhookAdmin(ViewOnly, admin.ModelAdmin):
    """Shown only: added and deleted on the Webhooks page (`services.webhooks`); the secret
    is never shown."""

    list_display = ["url", "tournament", "active", "created_by", "created_at"]
    list_filter = ["active"]
    exclude = ["secret"]
    readonly_fields = [f.name for f in Webhook._meta.fields if f.name != "secret"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ViewOnly, admin.ModelAdmin):
    """The delivery log, shown only."""

    list_display = ["webhook", "event", "status", "attempts", "last_status_code", "created_at"]
    list_filter = ["status", "event"]
    readonly_fields = [f.name for f in WebhookDelivery._meta.fields]
