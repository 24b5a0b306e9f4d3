"""Standings snapshots: the ranked table computed from one `results_version`.

A snapshot is derived data — recomputed by a background job whenever results change and
served as-is to pages and the API, which say when it is stale (its `computed_version`
is behind the tournament's `results_version`).
"""

from django.db import models

from tournaments.models import Tournament


class Standings(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    computed_version = models.PositiveIntegerField()
    computed_at = models.DateTimeField(auto_now_add=True)
    ranking = models.JSONField(help_text="The ranking the rows were ordered by.")
    rows = models.JSONField()
    duration_ms = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name_plural = "standings"
        ordering = ["tournament", "-computed_version"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "computed_version"], name="one_snapshot_per_version"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} standings @v{self.computed_version}"
