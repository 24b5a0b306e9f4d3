"""The Backups pages (tournaments.backups; docs/operations/backups.md).

* a tournament's Backups page (its organisers): when the last backup of the site's
  database was taken and why, "Back up now", and the tournament's event file;
* the site's Backups page (superusers only): every kept backup, each a download.

A downloaded backup is a zip of the whole database and the key that signs the printed
table links: it holds every account's password hash and lets its holder forge table
links, so only superusers may download one — an organiser gets their own tournament's
event file instead (no accounts, no key).
"""

from __future__ import annotations

import tempfile

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from ..backups import BackupError, backup_archive, backup_named, backup_take, backups_status
from ..models import Tournament
from ..web import tournament_context, tournament_page

# What the site's page tells a superuser to run (from the checkout, the server stopped).
RESTORE = ".venv/bin/python manage.py restore_backup"


def _superuser_only(request: HttpRequest) -> HttpResponse | None:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_superuser:
        raise PermissionDenied(_("Only the site's administrators may do this."))
    return None


def _back_up_now(request: HttpRequest) -> None:
    try:
        backup = backup_take("manual")
    except BackupError as error:
        messages.error(request, _("The backup failed: %(reason)s") % {"reason": error})
        return
    if backup is None:
        messages.info(request, _("This site's database is not SQLite: nothing was backed up."))
    else:
        when = date_format(timezone.localtime(backup.taken_at), "SHORT_DATETIME_FORMAT")
        messages.success(request, _("Backup taken (%(when)s).") % {"when": when})


@require_http_methods(["GET", "HEAD", "POST"])
@tournament_page("organise")
def tournament_backups(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method == "POST":
        _back_up_now(request)
        return redirect("tournament-backups", slug=tournament.slug)
    return render(
        request,
        "tournaments/backups.html",
        {**tournament_context(request.user, tournament), "status": backups_status()},
    )


@require_http_methods(["GET", "HEAD", "POST"])
def site_backups(request: HttpRequest) -> HttpResponse:
    if (refused := _superuser_only(request)) is not None:
        return refused
    if request.method == "POST":
        _back_up_now(request)
        return redirect("site-backups")
    status = backups_status()
    example = f"{status.latest.path.stem}.zip" if status.latest else "rummitab-….zip"
    return render(
        request,
        "tournaments/site_backups.html",
        {"status": status, "restore_command": f"{RESTORE} {example}"},
    )


@require_GET
def backup_download(request: HttpRequest, name: str) -> HttpResponseBase:
    """The kept backup `name` as a zip with the key file (superusers only)."""
    if (refused := _superuser_only(request)) is not None:
        return refused
    backup = backup_named(f"{name}.sqlite3")
    if backup is None:
        raise Http404(_("No such backup."))
    archive = tempfile.TemporaryFile()  # noqa: SIM115  # closed by the response
    backup_archive(backup, archive)
    archive.seek(0)
    response = FileResponse(
        archive,
        as_attachment=True,
        filename=backup.path.stem + ".zip",
        content_type="application/zip",
    )
    response["Cache-Control"] = "no-store, private"
    return response
