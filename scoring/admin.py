from django.contrib import admin

from .models import Standings


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
