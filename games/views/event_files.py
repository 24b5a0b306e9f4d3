"""The page that imports an open event file as a new tournament
(`games.services.event_file`): any signed-in user, who then organises it.

A file larger than `EVENT_FILE_REQUEST_BYTES` is imported by a background job
(`games.services.export_jobs`): the page then follows the job (polled by htmx) and links
to the new tournament once it is there. Only the person who uploaded it sees that job.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring.errors import RuleError
from tournaments.web import add_rule_errors

from ..forms.event_files import EventFileImportForm
from ..models import ExportJob
from ..services.export_jobs import event_file_upload


@login_required
def event_file_import_page(request: HttpRequest) -> HttpResponse:
    form = EventFileImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            imported = event_file_upload(
                by=request.user,
                upload=form.cleaned_data["file"],
                slug=form.cleaned_data["slug"] or None,
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            if isinstance(imported, ExportJob):
                return redirect("event-file-import-job", job_id=imported.pk)
            messages.success(
                request, _("{name} is imported; you organise it.").format(name=imported.name)
            )
            return redirect("tournament-detail", slug=imported.slug)
    return render(request, "games/event_file_import.html", {"form": form})


@require_safe
@login_required
def event_file_import_job(request: HttpRequest, job_id: int) -> HttpResponse:
    """A large import's progress (the whole page, or its polled part for htmx)."""
    job = get_object_or_404(
        ExportJob, pk=job_id, kind=ExportJob.Kind.EVENT_FILE_IMPORT, requested_by=request.user
    )
    template = "games/_import_job.html" if request.headers.get("HX-Request") else None
    return render(request, template or "games/event_file_import_job.html", {"job": job})
