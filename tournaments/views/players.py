"""One player, for the organiser: the edit page (start number, name, club, rating, with
the player's history below the form: who changed what when) and the confirmation page
in front of a withdrawal.

Both write through `player_update` (the API's `PATCH players/{id}/` too), so the page
and the API refuse the same things: a start number another player has is an error beside
the number, and nothing is saved.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from scoring.errors import RuleError

from ..forms.players import PlayerEditForm
from ..models import Tournament
from ..selectors import divisions_list, player_history
from ..services import players as player_services
from ..web import add_rule_errors, tournament_context, tournament_page
from ..words import same_name_warning


@tournament_page("organise")
def player_edit(request: HttpRequest, tournament: Tournament, player_number: int) -> HttpResponse:
    player = get_object_or_404(tournament.players, number=player_number)
    divisions = divisions_list(tournament)
    form = PlayerEditForm(
        request.POST or None,
        initial=PlayerEditForm.initial_for(player, divisions),
        tournament=tournament,
        player=player,
        divisions=divisions,
    )
    if request.method == "POST" and form.is_valid():
        changes = {
            field: value
            for field, value in form.changes().items()
            if value != form.initial.get(field)
        }
        try:
            player_services.player_update(player=player, by=request.user, **changes)
        except RuleError as error:
            player.refresh_from_db()  # the page shows the player as stored
            add_rule_errors(form, error)
        else:
            if changes:
                messages.success(
                    request,
                    _("#%(number)s %(name)s is saved.")
                    % {"number": player.number, "name": player.name},
                )
                warning = same_name_warning(player)
                if warning:
                    messages.warning(request, _("Note: %(warning)s.") % {"warning": warning})
            else:
                messages.info(request, _("Nothing was changed."))
            return redirect("tournament-players", slug=tournament.slug)
    return render(
        request,
        "tournaments/player_edit.html",
        {
            **tournament_context(request.user, tournament),
            "player": player,
            "form": form,
            "history": player_history(player),
        },
    )
