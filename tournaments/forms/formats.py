"""The form of "New tournament from a format": a format picked from the catalogue
(`scoring.formats`), the tournament's name and date, and for a format with a season a
club the user organises."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.formats import CATALOGUE

from ..models import Club
from ..web import PageForm


def _format_choices() -> list[tuple[str, str]]:
    return [(f.key, _(f.name)) for f in CATALOGUE]


class FormatForm(PageForm):
    format = forms.ChoiceField(
        label=gettext_lazy("Format"),
        choices=_format_choices,
        widget=forms.RadioSelect(attrs={"class": "formats"}),
    )
    name = forms.CharField(
        label=gettext_lazy("Name"),
        required=False,
        help_text=gettext_lazy("Blank: the format's name."),
    )
    starts_on = forms.DateField(
        label=gettext_lazy("Starts on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    club = forms.ModelChoiceField(
        label=gettext_lazy("Club (season league only)"),
        queryset=Club.objects.none(),
        required=False,
        help_text=gettext_lazy("The league evening is held in this club's season 'League'."),
    )

    def __init__(self, *args: Any, clubs: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if clubs is not None:
            club = cast(forms.ModelChoiceField, self.fields["club"])  # declared just above
            club.queryset = clubs
            club.to_field_name = "slug"
        if not clubs:
            del self.fields["club"]

    def service_values(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "format": data["format"],
            "name": data["name"] or None,
            "starts_on": data["starts_on"],
            "club": data.get("club"),
        }
