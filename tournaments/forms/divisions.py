"""Forms of the division pages: a division and who is in it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from ..models import Division, Player
from ..web import PageForm, WholeNumberField, choice_field


class DivisionForm(PageForm):
    """A division to add or change (`tournaments.services.divisions` checks everything)."""

    name = forms.CharField(label=gettext_lazy("Name"), required=False)
    slug = forms.CharField(
        label=gettext_lazy("Short name in addresses"),
        required=False,
        help_text=gettext_lazy(
            "Letters, digits and '-', like 'juniors'. Blank: made from the name."
        ),
    )
    order = WholeNumberField(
        label=gettext_lazy("Order"),
        required=False,
        help_text=gettext_lazy("Its place among the divisions, 0 first. Blank: after the last."),
    )
    prizes = forms.CharField(
        label=gettext_lazy("Prizes"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy(
            "One label a line, 1st place first (a blank line: no prize for that place)."
        ),
    )

    @classmethod
    def initial_for(cls, division: Division) -> dict[str, Any]:
        return {
            "name": division.name,
            "slug": division.slug,
            "order": division.order,
            "prizes": "\n".join(division.prizes),
        }

    def values(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data["prizes"] = str(data.get("prizes") or "").splitlines()
        # Blank: the service's default (a new division's slug from its name, placed after
        # the last; a division changed keeps its own).
        for name in ("order", "slug"):
            if data.get(name) in (None, ""):
                data.pop(name, None)
        return data


class DivisionPlayersForm(PageForm):
    """Who is in a division: a box per player of the tournament."""

    players = forms.MultipleChoiceField(
        label=gettext_lazy("Players in this division"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any):
        super().__init__(*args, **kwargs)
        choice_field(self, "players").choices = [
            (str(p.pk), f"#{p.number} {p.name}") for p in players
        ]

    def player_ids(self) -> list[int]:
        return [int(pk) for pk in self.cleaned_data["players"]]
