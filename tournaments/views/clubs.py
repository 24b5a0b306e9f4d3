"""The club organisers' pages, so nothing needs the API or the admin: create a club, its
members (add, edit with history, import and export a CSV), its organisers and seasons;
a tournament held under a club (and season, rated or not), and its players linked to
the club's members (proposed name matches confirmed, or one player at a time).

Every write goes through `tournaments.services.clubs`, which checks who may do it; a
page refuses first (sign in, then 403 for a signed-in stranger) so a form is only shown
to those who may send it. The club's public pages (ranking, members, seasons) are the
games app's (`games.views.clubs`).

Terms: club, club organiser, member, season, rated, link, name match, members CSV (see
`tournaments.services.clubs`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scoring.errors import RuleError

from ..csv_files import MAX_CSV_BYTES, delimiter_sentence
from ..exports import members_csv
from ..forms.clubs import (
    ClubForm,
    ClubOrganiserForm,
    HoldUnderForm,
    MemberForm,
    MemberImportForm,
    PlayerLinkForm,
    SeasonForm,
)
from ..models import Club, Member, Tournament
from ..permissions import can_run_club
from ..selectors import clubs_run_by, member_history, name_matches
from ..services import clubs as club_services
from ..web import add_rule_errors, csv_download, tournament_context, tournament_page, whole_number


def club_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Decorate a view taking ``(request, club, **kwargs)``: for the club's organisers only
    (anonymous users sign in first; anyone else gets 403)."""

    @wraps(view)
    def wrapper(request: HttpRequest, club_slug: str, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        club = get_object_or_404(Club, slug=club_slug)
        if not can_run_club(request.user, club):
            raise PermissionDenied(_("Only the club's organisers may do this."))
        return view(request, club, **kwargs)

    return wrapper


def club_create(request: HttpRequest) -> HttpResponse:
    """A new club; the signed-in user who creates it organises it."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = club_services.club_create(by=request.user, name=form.cleaned_data["name"])
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(
                request, _("%(name)s is created; you organise it.") % {"name": club.name}
            )
            return redirect("club-members", club_slug=club.slug)
    return render(request, "tournaments/club_form.html", {"form": form})


def _members_page(request: HttpRequest, club: Club, **forms: Any) -> HttpResponse:
    return render(
        request,
        "tournaments/club_members.html",
        {
            "club": club,
            "members": club.members.order_by("name", "pk"),
            "organisers": club.organisers.select_related("user").order_by("user__username"),
            "member_form": forms.get("member_form") or MemberForm(),
            "import_form": forms.get("import_form") or MemberImportForm(),
            "organiser_form": forms.get("organiser_form") or ClubOrganiserForm(),
        },
    )


@club_page
def club_members(request: HttpRequest, club: Club) -> HttpResponse:
    """The members and organisers of the club, with forms to add one of either and to
    import members; a POST adds a member."""
    if request.method != "POST":
        return _members_page(request, club)
    form = MemberForm(request.POST)
    if form.is_valid():
        try:
            member = club_services.member_create(club=club, by=request.user, **form.cleaned_data)
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(
                request,
                _("%(member)s is a member of %(club)s.")
                % {"member": member.name, "club": club.name},
            )
            return redirect("club-members", club_slug=club.slug)
    return _members_page(request, club, member_form=form)


@require_POST
@club_page
def members_import(request: HttpRequest, club: Club) -> HttpResponse:
    form = MemberImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            imported = club_services.members_import_csv(
                club=club, by=request.user, data=form.cleaned_data["file"].read(MAX_CSV_BYTES + 1)
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            count = len(imported.members)
            messages.success(
                request,
                ngettext("%(count)d member imported.", "%(count)d members imported.", count)
                % {"count": count}
                + " "
                + delimiter_sentence(imported.delimiter),
            )
            return redirect("club-members", club_slug=club.slug)
    return _members_page(request, club, import_form=form)


@club_page
def members_csv_view(request: HttpRequest, club: Club) -> HttpResponse:
    return csv_download(members_csv(club), f"{club.slug}-members.csv")


@require_POST
@club_page
def club_organiser_add(request: HttpRequest, club: Club) -> HttpResponse:
    form = ClubOrganiserForm(request.POST)
    if form.is_valid():
        username = form.cleaned_data["username"].strip()
        try:
            club_services.club_organiser_add(club=club, by=request.user, username=username)
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(
                request,
                _("%(username)s organises %(club)s now.")
                % {"username": username, "club": club.name},
            )
            return redirect("club-members", club_slug=club.slug)
    return _members_page(request, club, organiser_form=form)


@club_page
def member_edit(request: HttpRequest, club: Club, member_id: int) -> HttpResponse:
    """One member's name, membership code and joining date, with the history below."""
    member = get_object_or_404(club.members, pk=member_id)
    form = MemberForm(request.POST or None, initial=MemberForm.initial_for(member))
    if request.method == "POST" and form.is_valid():
        changes = {
            field: value
            for field, value in form.cleaned_data.items()
            if value != form.initial.get(field)
        }
        try:
            club_services.member_update(member=member, by=request.user, **changes)
        except RuleError as error:
            member.refresh_from_db()  # the page shows the member as stored
            add_rule_errors(form, error)
        else:
            if changes:
                messages.success(request, _("%(name)s is saved.") % {"name": member.name})
            else:
                messages.info(request, _("Nothing was changed."))
            return redirect("club-members", club_slug=club.slug)
    return render(
        request,
        "tournaments/member_edit.html",
        {"club": club, "member": member, "form": form, "history": member_history(member)},
    )


@club_page
def season_create(request: HttpRequest, club: Club) -> HttpResponse:
    """Declare a season and the rule that totals its events."""
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = club_services.season_create(
                club=club, by=request.user, name=form.cleaned_data["name"], rule=form.season_rule()
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(
                request, _("The season %(season)s is declared.") % {"season": season.name}
            )
            return redirect("season-detail", club_slug=club.slug, season_slug=season.slug)
    return render(request, "tournaments/season_form.html", {"club": club, "form": form})


@tournament_page("organise")
def tournament_club(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The club, season and rating a tournament is held under: for someone who organises
    the tournament and the clubs involved."""
    clubs = clubs_run_by(request.user)
    initial = {
        "club": tournament.club_id,
        "season": tournament.season_id,
        "rated": tournament.rated,
    }
    form = HoldUnderForm(request.POST or None, initial=initial, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        try:
            club_services.tournament_hold_under(
                tournament=tournament, by=request.user, **form.cleaned_data
            )
        except RuleError as error:
            add_rule_errors(form, error)
        except PermissionDenied:
            form.add_error("club", _("Only someone who organises the club may move it."))
        else:
            club = form.cleaned_data["club"]
            messages.success(
                request,
                _("%(tournament)s is held under %(club)s.")
                % {"tournament": tournament.name, "club": club.name}
                if club
                else _("%(tournament)s is under no club.") % {"tournament": tournament.name},
            )
            return redirect("tournament-club", slug=tournament.slug)
    return render(
        request,
        "tournaments/tournament_club.html",
        {**tournament_context(request.user, tournament), "form": form, "has_clubs": clubs.exists()},
    )


def _links_page(
    request: HttpRequest, tournament: Tournament, errors: dict[int, str] | None = None
) -> HttpResponse:
    members = list(tournament.club.members.order_by("name", "pk")) if tournament.club else []
    return render(
        request,
        "tournaments/tournament_members.html",
        {
            **tournament_context(request.user, tournament),
            "matches": name_matches(tournament),
            "players": tournament.players.select_related("member").order_by("number"),
            "members": members,
            "errors": errors or {},
        },
    )


@tournament_page("organise")
def tournament_members(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The players and the club members they are linked to: the proposed name matches to
    confirm, and a member select per player."""
    return _links_page(request, tournament)


@require_POST
@tournament_page("organise")
def links_confirm(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    chosen = [whole_number(value) for value in request.POST.getlist("player")]
    linked = club_services.players_link_matches(
        tournament=tournament, by=request.user, player_ids=[pk for pk in chosen if pk is not None]
    )
    if linked:
        count = len(linked)
        messages.success(
            request,
            ngettext("%(count)d player linked.", "%(count)d players linked.", count)
            % {"count": count},
        )
    else:
        messages.info(request, _("No match was chosen: nothing was linked."))
    return redirect("tournament-members", slug=tournament.slug)


@require_POST
@tournament_page("organise")
def player_link(request: HttpRequest, tournament: Tournament, player_number: int) -> HttpResponse:
    player = get_object_or_404(tournament.players, number=player_number)
    members = tournament.club.members.all() if tournament.club else Member.objects.none()
    form = PlayerLinkForm(request.POST, members=members)
    names = {"number": player.number, "name": player.name}
    if not form.is_valid():
        return _links_page(request, tournament, {player.pk: _("Choose a member of the club.")})
    member = form.cleaned_data["member"]
    try:
        club_services.player_link(player=player, by=request.user, member=member)
    except RuleError as error:
        return _links_page(request, tournament, {player.pk: error.message})
    if member is None:
        messages.success(request, _("#%(number)s %(name)s is not linked to a member now.") % names)
    else:
        messages.success(
            request,
            _("#%(number)s %(name)s is linked to %(member)s.") % {**names, "member": member.name},
        )
    return redirect("tournament-members", slug=tournament.slug)
