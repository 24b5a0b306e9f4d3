"""Public pages of the tournaments layer: the list of tournaments. A tournament's own
page (with its standings), its rounds and its players' games are the games app's pages.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..models import Club, Tournament
from ..selectors import invitations_for, tournaments_visible_to


def home(request: HttpRequest) -> HttpResponse:
    """Running, upcoming and finished tournaments the user may see, and the clubs."""
    groups: dict[str, list[Tournament]] = {status: [] for status in Tournament.Status.values}
    for tournament in tournaments_visible_to(request.user).order_by("-starts_on", "name"):
        groups[tournament.status].append(tournament)
    # Ordered by the status, not by its label: the label is in the reader's language.
    order = [Tournament.Status.RUNNING, Tournament.Status.UPCOMING, Tournament.Status.FINISHED]
    sections = [(Tournament.Status(value).label, groups[value]) for value in order]
    return render(
        request,
        "tournaments/home.html",
        {
            "sections": sections,
            "clubs": Club.objects.order_by("name"),
            # Staff invitations addressed to this account (tournaments.services.staff).
            "invitations": invitations_for(request.user),
        },
    )
