"""Forms of the player pages: a player's fields (new or edited) and the CSV import.

Only what was typed is read here; the services check the rules (`tournaments.forms`).

Terms:
* start number — a player's `number` in the tournament, what organisers type and print.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from ..models import Club, Division, Member, Player, Tournament
from ..web import PageForm, WholeNumberField, choice_field


class PlayerForm(PageForm):
    """A player's fields, and the club member they are linked to when the tournament is
    held under a club (`tournament` given: the choices are its club's members; none, or
    a tournament under no club: no member field)."""

    name = forms.CharField(
        label=pgettext_lazy("a person's", "Name"), required=False
    )  # the service requires it
    club = forms.CharField(label=gettext_lazy("Club"), required=False)
    rating = WholeNumberField(label=gettext_lazy("Rating"), required=False)
    fixed_table = WholeNumberField(
        label=gettext_lazy("Fixed table"),
        required=False,
        help_text=gettext_lazy(
            "A mobility need: the table number they sit at every round. Blank: any."
        ),
    )
    member = forms.ModelChoiceField(
        label=gettext_lazy("Club member"),
        queryset=Member.objects.none(),
        required=False,
        empty_label=gettext_lazy("Not linked"),
        help_text=gettext_lazy(
            "The same person in the club's other tournaments, seasons and ratings. Type a "
            "name's first letters to jump to it. A blank name is the member's name."
        ),
    )
    divisions = forms.MultipleChoiceField(
        label=gettext_lazy("Divisions"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy("Ranked apart in each, as well as in the whole field."),
    )

    member_help_editing = gettext_lazy(
        "The same person in the club's other tournaments, seasons and ratings. Type a "
        "name's first letters to jump to it."
    )

    field_order = ["name", "member", "club", "rating", "fixed_table"]

    def __init__(
        self,
        *args: Any,
        tournament: Tournament | None = None,
        player: Player | None = None,
        divisions: list[Division] | None = None,
        **kwargs: Any,
    ) -> None:
        """`divisions`: the tournament's; without any, the form has no divisions field."""
        super().__init__(*args, **kwargs)
        if divisions:
            # Any slug is taken as sent: the service names one the tournament lacks.
            choice_field(self, "divisions").choices = [(d.slug, d.name) for d in divisions]
        else:
            del self.fields["divisions"]
        if tournament is None or tournament.club_id is None:
            del self.fields["member"]
            return
        # Who each member is already, so the list says it before the service refuses it.
        others = tournament.players.exclude(member=None)
        if player is not None:
            others = others.exclude(pk=player.pk)
        taken = {
            member: (name, number)
            for member, name, number in others.values_list("member", "name", "number")
        }
        field = self.fields["member"]
        if player is not None:  # the name stays as typed when editing
            field.help_text = self.member_help_editing
        club = cast(Club, tournament.club)  # club_id is set (checked above)
        field.queryset = club.members.order_by("name", "pk")  # type: ignore[attr-defined]
        field.label_from_instance = lambda member: _member_label(member, taken)  # type: ignore[attr-defined]

    def values(self) -> dict[str, Any]:
        """The service's keyword arguments: the member by id."""
        values = dict(self.cleaned_data)
        if "member" in values:
            values["member"] = values["member"].pk if values["member"] else None
        return values


def _member_label(member: Member, taken: dict[int, tuple[str, int]]) -> str:
    """ "Ada Peretz (H-1)", and "— already #3 Ann" when another player has them."""
    label = f"{member.name} ({member.code})" if member.code else member.name
    if member.pk in taken:
        name, number = taken[member.pk]
        return gettext("%(member)s — already #%(number)s %(player)s") % {
            "member": label,
            "number": number,
            "player": name,
        }
    return label


class PlayerEditForm(PlayerForm):
    number = WholeNumberField(label=gettext_lazy("Start number"), required=False)
    already_qualified = forms.BooleanField(
        label=gettext_lazy("Already qualified"),
        required=False,
        help_text=gettext_lazy(
            "Qualified for the tournament's qualify event at an earlier event: their "
            "qualification slot passes down to the next player."
        ),
    )

    field_order = ["number", "name", "member", "club", "rating"]

    @classmethod
    def initial_for(cls, player: Player, divisions: list[Division] | None = None) -> dict:
        """The form as the player is; their divisions read only when the tournament has
        some (`divisions`)."""
        return {
            "number": player.number,
            "name": player.name,
            "club": player.club,
            "rating": player.rating,
            "member": player.member_id,
            "divisions": (
                [d.slug for d in player.divisions.order_by("order", "name", "id")]
                if divisions
                else []
            ),
            "fixed_table": player.fixed_table,
            "already_qualified": player.already_qualified,
        }

    def changes(self) -> dict[str, Any]:
        """The service's keyword arguments; a blank number is "is required" there."""
        return self.values()


class PlayerImportForm(PageForm):
    file = forms.FileField(
        label=gettext_lazy("CSV file"),
        help_text=gettext_lazy(
            "Columns name,club,rating with a header row, and member (a membership code of "
            "the tournament's club) to link players, and divisions (their slugs, apart by "
            "spaces) to put them in divisions; UTF-8. All rows or none."
        ),
    )
