"""Web forms of the event file pages (`games.views.event_files`): a file to import."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.web import PageForm


class EventFileImportForm(PageForm):
    """An event file to import as a new tournament (`games.services.event_file`)."""

    file = forms.FileField(
        label=_("Event file"),
        help_text=_("A Rummitab event file (JSON), as exported from a tournament's page."),
    )
    slug = forms.SlugField(
        label=_("Short name in addresses"),
        required=False,
        max_length=60,
        help_text=_("Leave empty to keep the file's own; give another if it is taken here."),
    )
