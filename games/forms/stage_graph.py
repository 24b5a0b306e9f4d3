"""The stage form with the stage graph's fields: where the stage takes its entrants from
(`source`, `entry` and each rule's numbers) and how it is played (games per table,
seating, carry rounding). `tournaments.services.stage_graph` checks them."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from tournaments.models import Stage
from tournaments.web import WholeNumberField, choice_field

from .stages import StageForm

GRAPH_FORM_FIELDS = (
    "source",
    "entry",
    "rank_from",
    "rank_to",
    "table_top",
    "best_losers",
    "carry_rounding",
    "games_per_table",
    "seating",
)


class StageGraphForm(StageForm):
    source = forms.ChoiceField(
        label=gettext_lazy("Takes its entrants from"),
        required=False,
        help_text=gettext_lazy(
            "Several stages may follow one stage: they run in parallel once it closes."
        ),
    )
    entry = forms.ChoiceField(
        label=gettext_lazy("Who goes on"),
        required=False,
        choices=[("", gettext_lazy("By the cut above (top N or minimum score)"))]
        + [c for c in Stage.Entry.choices if c[0] not in ("top", "min_score")],
    )
    rank_from = WholeNumberField(label=gettext_lazy("Places from"), required=False)
    rank_to = WholeNumberField(label=gettext_lazy("Places to"), required=False)
    table_top = WholeNumberField(
        label=gettext_lazy("Players each table sends on"),
        required=False,
        help_text=gettext_lazy("By table: 1 sends each table's winner."),
    )
    best_losers = WholeNumberField(
        label=gettext_lazy("Best losers"),
        required=False,
        help_text=gettext_lazy("By table: how many of the others go on too, best first."),
    )
    carry_rounding = forms.ChoiceField(
        label=gettext_lazy("Half carry-over rounds"),
        required=False,
        choices=Stage.CarryRounding.choices,
        initial=Stage.CarryRounding.TOWARD_ZERO,
    )
    games_per_table = WholeNumberField(
        label=gettext_lazy("Games per table in this stage"),
        required=False,
        help_text=gettext_lazy("Blank: the tournament's."),
    )
    seating = forms.ChoiceField(
        label=gettext_lazy("Seating of its rounds"),
        required=False,
        choices=[("", gettext_lazy("Chosen at each round")), *Stage.Seating.choices],
    )

    def __init__(self, *args: Any, stages: list[Stage] | None = None, **kwargs: Any):
        """`stages`: the tournament's, for the source's choices."""
        super().__init__(*args, **kwargs)
        choice_field(self, "source").choices = [
            ("", gettext_lazy("The stage before")),
            *((str(s.number), f"{s.number}. {s.name}") for s in stages or [] if not s.is_side),
        ]

    def values(self) -> dict[str, Any]:
        data = super().values()
        for name in GRAPH_FORM_FIELDS:
            if data.get(name) in (None, ""):
                data.pop(name, None)
        if "source" in data:
            data["source"] = int(data["source"])
        return data
