"""The registration desk's people page (`/t/<slug>/people/`): the tournament's players
with the person each is, a search of the install's people by name or federation id, and
for each player a link to one found (or a new person registered on the spot). For the
tournament's organisers; the writes are `tournaments.services.people`'s.

Terms: person, link, privacy (`tournaments.models.people`): the search shows every
person's name and federation id only, which any club may see.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring.errors import RuleError
from tournaments.models import Person, Tournament
from tournaments.selectors import people_found
from tournaments.services import people as services
from tournaments.web import tournament_page, whole_number


class NewPersonForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    federation_id = forms.CharField(
        label=gettext_lazy("Federation id"), max_length=30, required=False
    )
    birth_year = forms.IntegerField(label=gettext_lazy("Year of birth"), required=False)
    email = forms.EmailField(label=gettext_lazy("E-mail"), required=False)


def _page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    form: NewPersonForm | None = None,
    errors: dict[int, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    query = request.GET.get("q", "") if request.method == "GET" else request.POST.get("q", "")
    found = list(people_found(query))
    players = tournament.players.select_related("person", "member__person").order_by("number")
    return render(
        request,
        "circuits/tournament_people.html",
        {
            "tournament": tournament,
            "query": query,
            "found": found,
            "players": players,
            "form": form or NewPersonForm(),
            "errors": errors or {},
        },
        status=status,
    )


@tournament_page("organise")
def tournament_people(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _page(request, tournament)


@require_POST
@tournament_page("organise")
def player_person(request: HttpRequest, tournament: Tournament, player_number: int) -> HttpResponse:
    """Link the player to the person chosen (`person`: an id, or empty to unlink)."""
    player = get_object_or_404(tournament.players, number=player_number)
    raw = request.POST.get("person", "")
    person = None
    if raw:
        pk = whole_number(raw)
        person = Person.objects.filter(pk=pk).first() if pk is not None else None
        if person is None:
            return _page(request, tournament, errors={player.pk: _("No such person.")}, status=400)
    try:
        services.player_person_link(player=player, by=request.user, person=person)
    except RuleError as error:
        return _page(request, tournament, errors={player.pk: error.message}, status=400)
    names: dict[str, Any] = {"number": player.number, "name": player.name}
    if person is None:
        messages.success(request, _("#%(number)s %(name)s is linked to no person now.") % names)
    else:
        messages.success(
            request, _("#%(number)s %(name)s is %(person)s.") % {**names, "person": person}
        )
    return redirect("tournament-people", slug=tournament.slug)


@require_POST
@tournament_page("organise")
def person_new(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Register a new person and link them to the player chosen (`player`: a number)."""
    form = NewPersonForm(request.POST)
    number = whole_number(request.POST.get("player"))
    player = tournament.players.filter(number=number).first() if number is not None else None
    if not form.is_valid():
        return _page(request, tournament, form=form, status=400)
    try:
        with transaction.atomic():
            person = services.person_create(by=request.user, **form.cleaned_data)
            if player is not None:
                services.player_person_link(player=player, by=request.user, person=person)
    except RuleError as error:
        field = error.path[0] if error.path and error.path[0] in form.fields else None
        form.add_error(field, error.message)
        return _page(request, tournament, form=form, status=400)
    messages.success(request, _("%(person)s is registered.") % {"person": person})
    return redirect("tournament-people", slug=tournament.slug)
