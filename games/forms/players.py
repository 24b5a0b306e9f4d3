"""Web forms of the player pages (`games.views.players`): withdrawing a player."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.web import PageForm

from ..models import Absence


class WithdrawForm(PageForm):
    """Withdraw a player; asks what happens to their unplayed games when there are any."""

    unplayed = forms.ChoiceField(
        label=_("Their unplayed games at the table"),
        choices=Absence.choices,
        widget=forms.RadioSelect,
        required=False,
    )

    def __init__(self, *args: Any, asks: bool, forfeit_help: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if asks:
            self.fields["unplayed"].help_text = forfeit_help
        else:
            del self.fields["unplayed"]
