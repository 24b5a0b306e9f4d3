"""The Webhooks page (organisers): the tournament's hooks, each with its newest deliveries
and their status, a form to add one (a generated secret is shown once, on the page that
answers the addition) and a button to delete one. What a hook is sent and how:
`tournaments.services.webhooks`."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.errors import RuleError

from ..forms.webhooks import WebhookForm
from ..models import Tournament, Webhook
from ..selectors import DELIVERIES_ON_PAGE, webhooks_with_log
from ..services import webhooks as services
from ..web import add_rule_errors, tournament_context, tournament_page
from ..webhook_signing import SIGNATURE_HEADER


def _page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    form: WebhookForm | None = None,
    created: tuple[Webhook, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "tournaments/webhooks.html",
        {
            **tournament_context(request.user, tournament),
            "form": form or WebhookForm(),
            "hooks": webhooks_with_log(tournament, request.user),
            "created": created,
            "log_length": DELIVERIES_ON_PAGE,
            "signature_header": SIGNATURE_HEADER,
        },
        status=status,
    )


@tournament_page("organise")
def webhooks(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The hooks and their logs; POST adds one (the answer shows its secret once)."""
    form = WebhookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            created = services.webhook_create(
                tournament=tournament,
                by=request.user,
                url=form.cleaned_data["url"],
                secret=form.cleaned_data["secret"] or None,
                events=form.cleaned_data["events"],
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            return _page(request, tournament, created=created)
    return _page(request, tournament, form=form)


@require_POST
@tournament_page("organise")
def webhook_delete(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    hook = get_object_or_404(tournament.webhooks, pk=pk)
    hook.tournament = tournament
    services.webhook_delete(webhook=hook, by=request.user)
    messages.success(
        request, _("The webhook to %(url)s is deleted with its log.") % {"url": hook.url}
    )
    return redirect("tournament-webhooks", slug=tournament.slug)
