"""The page that imports an open event file as a new tournament
(`games.services.event_file`): any signed-in user, who then organises it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scoring.errors import RuleError
from tournaments.web import add_rule_errors

from ..forms import EventFileImportForm
from ..services.event_file import MAX_EVENT_FILE_BYTES, event_file_import, event_file_read


@login_required
def event_file_import_page(request: HttpRequest) -> HttpResponse:
    form = EventFileImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            document = event_file_read(form.cleaned_data["file"].read(MAX_EVENT_FILE_BYTES + 1))
            tournament = event_file_import(
                by=request.user, document=document, slug=form.cleaned_data["slug"] or None
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(
                request, _("{name} is imported; you organise it.").format(name=tournament.name)
            )
            return redirect("tournament-detail", slug=tournament.slug)
    return render(request, "games/event_file_import.html", {"form": form})
