"""Web forms of the stage pages (`games.views.stages`): a stage to add and a side event to
start.

The forms only read what was typed; `tournaments.services.stages.stage_create` and
`games.services.stages.stage_side_start` check the rules.

Terms:
* ranking — the stage's own metric keys in order, typed as a list ("games_won, score");
  blank: the tournament's ranking.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from tournaments.models import Division, Stage
from tournaments.web import PageForm, WholeNumberField, choice_field

_SPLIT = re.compile(r"[\s,;]+")


class SideEventForm(PageForm):
    """A side event to start (`games.services.stages.stage_side_start` checks it)."""

    name = forms.CharField(
        label=gettext_lazy("Name of the side event"),
        max_length=60,
        required=False,
        help_text=gettext_lazy("Blank: “Side event”."),
    )


class StageForm(PageForm):
    """A stage to add (`tournaments.services.stages.stage_create` checks everything)."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=60, required=False)
    # A side event is started from a closed stage's page, not added here.
    kind = forms.ChoiceField(
        label=gettext_lazy("Kind"),
        choices=[c for c in Stage.Kind.choices if c[0] != Stage.Kind.SIDE],
    )
    ranking = forms.CharField(
        label=gettext_lazy("Ranking"),
        required=False,
        help_text=gettext_lazy(
            "Metric keys in order, e.g. 'games_won, score'. Blank: the tournament's."
        ),
    )
    cut_top = WholeNumberField(
        label=gettext_lazy("Cut: top N players of the stage before"),
        required=False,
        help_text=gettext_lazy("Stage 1 takes no cut. Later stages: this or a minimum score."),
    )
    cut_min_score = WholeNumberField(label=gettext_lazy("Cut: minimum score"), required=False)
    cut_ties = forms.ChoiceField(
        label=gettext_lazy("A tie at the cut line"), choices=Stage.CutTies.choices, initial="lot"
    )
    carry_over = forms.ChoiceField(
        label=gettext_lazy("Scores carried over"), choices=Stage.CarryOver.choices
    )
    reseat_every_game = forms.BooleanField(
        label=gettext_lazy("Re-seated every game"), required=False
    )
    race_target = WholeNumberField(label=gettext_lazy("Race: first to N wins"), required=False)
    race_cap = WholeNumberField(label=gettext_lazy("Race: at most this many games"), required=False)
    rounds_planned = WholeNumberField(
        label=gettext_lazy("Rounds planned in this stage"),
        required=False,
        help_text=gettext_lazy("The stage pages then say “round 2 of 3”. Blank: not said."),
    )
    division = forms.ChoiceField(
        label=gettext_lazy("Limited to a division"),
        required=False,
        help_text=gettext_lazy("Its cut takes only that division's players. Not for stage 1."),
    )

    def __init__(self, *args: Any, divisions: list[Division] | None = None, **kwargs: Any):
        """`divisions`: the tournament's; without any, the form has no division field."""
        super().__init__(*args, **kwargs)
        if divisions:
            choice_field(self, "division").choices = [
                ("", gettext_lazy("No: the whole field")),
                *((d.slug, d.name) for d in divisions),
            ]
        else:
            del self.fields["division"]

    def values(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        keys = [key for key in _SPLIT.split(str(data.pop("ranking") or "").strip()) if key]
        if not data.get("division"):
            data.pop("division", None)
        return {**data, **({"ranking": keys} if keys else {})}
