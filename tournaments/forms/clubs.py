"""Forms of the club pages: a club, its members (one or a CSV file), its organisers and
seasons; a tournament held under a club and its players linked to members.

Only what was typed is read here; the services check the rules (`tournaments.forms`).
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from ..models import Club, Member, Season
from ..web import PageForm, WholeNumberField, whole_number


class ClubForm(PageForm):
    name = forms.CharField(
        label=gettext_lazy("Club name"), required=False
    )  # the service requires it


class MemberForm(PageForm):
    name = forms.CharField(label=pgettext_lazy("a person's", "Name"), required=False)
    code = forms.CharField(
        label=gettext_lazy("Membership code"),
        required=False,
        help_text=gettext_lazy("The club's own number, if any."),
    )
    joined_on = forms.DateField(
        label=gettext_lazy("Joined on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    @classmethod
    def initial_for(cls, member: Member) -> dict[str, Any]:
        return {"name": member.name, "code": member.code, "joined_on": member.joined_on}


class MemberImportForm(PageForm):
    file = forms.FileField(
        label=gettext_lazy("Members CSV file"),
        help_text=gettext_lazy(
            "Columns name,code,joined_on (YYYY-MM-DD) with a header row; UTF-8. All rows or none."
        ),
    )


class ClubOrganiserForm(PageForm):
    username = forms.CharField(label=gettext_lazy("Username"), required=False)


class SeasonForm(PageForm):
    """A season and its rule, as `season_create` takes it (``rule`` is its dict)."""

    name = forms.CharField(label=gettext_lazy("Season name"), required=False)
    rule = forms.ChoiceField(
        label=gettext_lazy("Total by"),
        choices=[
            ("sum", gettext_lazy("Sum of the event scores")),
            ("best", gettext_lazy("Best N events")),
            ("places", gettext_lazy("Points by place in each event")),
            ("best_games", gettext_lazy("Best N games of the season")),
        ],
        initial="sum",
    )
    best = WholeNumberField(
        label=gettext_lazy("Best N"),
        required=False,
        help_text=gettext_lazy("Only for best N events or best N games."),
    )
    place_points = forms.CharField(
        label=gettext_lazy("Points by place"),
        required=False,
        help_text=gettext_lazy(
            "Only for points by place: e.g. 25, 20, 16, 13. Blank: the usual table."
        ),
    )
    cap = WholeNumberField(
        label=gettext_lazy("Cap per event"),
        required=False,
        help_text=gettext_lazy("Blank for none."),
    )

    def clean_place_points(self) -> list[int] | None:
        text = self.cleaned_data["place_points"].strip()
        if not text:
            return None
        numbers = [whole_number(part) for part in re.split(r"[\s,;/]+", text) if part]
        if any(number is None for number in numbers):
            raise forms.ValidationError(gettext("Give whole numbers separated by commas."))
        return numbers  # type: ignore[return-value]

    def season_rule(self) -> dict[str, Any]:
        data = self.cleaned_data
        rule: dict[str, Any] = {"rule": data["rule"], "cap": data["cap"]}
        # What was typed goes to the service, which says beside the field when it does
        # not fit the rule chosen.
        if data["best"] is not None or data["rule"] in ("best", "best_games"):
            rule["best"] = data["best"]
        if data["place_points"]:
            rule["place_points"] = data["place_points"]
        return rule


class HoldUnderForm(PageForm):
    """The club, season and rating of a tournament; the choices are the user's clubs."""

    club = forms.ModelChoiceField(
        label=gettext_lazy("Club"),
        queryset=Club.objects.none(),
        required=False,
        empty_label=gettext_lazy("No club"),
    )
    season = forms.ModelChoiceField(
        label=gettext_lazy("Season"),
        queryset=Season.objects.none(),
        required=False,
        empty_label=gettext_lazy("No season"),
    )
    rated = forms.BooleanField(
        label=gettext_lazy("Rated: its games update the members' ratings"), required=False
    )

    def __init__(self, *args: Any, clubs: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs  # type: ignore[attr-defined]
        seasons = Season.objects.filter(club__in=clubs).select_related("club")
        self.fields["season"].queryset = seasons  # type: ignore[attr-defined]
        self.fields["season"].label_from_instance = lambda season: (  # type: ignore[attr-defined]
            f"{season.club.name} — {season.name}"
        )


class PlayerLinkForm(PageForm):
    """One player's member (none: unlinked)."""

    member = forms.ModelChoiceField(
        label=gettext_lazy("Member"),
        queryset=Member.objects.none(),
        required=False,
        empty_label=gettext_lazy("Not linked"),
    )

    def __init__(self, *args: Any, members: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = members  # type: ignore[attr-defined]
