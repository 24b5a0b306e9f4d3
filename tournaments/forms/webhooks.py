"""The webhooks page's form: a new webhook."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from ..models import Webhook
from ..web import PageForm


class WebhookForm(PageForm):
    """A new webhook; the service checks the address, the secret and the events."""

    url = forms.CharField(
        label=gettext_lazy("Address (URL)"),
        max_length=500,
        help_text=gettext_lazy("The http:// or https:// address the events are POSTed to."),
        widget=forms.URLInput(attrs={"inputmode": "url", "autocomplete": "off"}),
    )
    secret = forms.CharField(
        label=gettext_lazy("Secret"),
        required=False,
        max_length=200,
        strip=False,
        help_text=gettext_lazy(
            "The key of the signature (16 characters or more). Leave it blank to get "
            "one made up; it is shown once."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    events = forms.MultipleChoiceField(
        label=gettext_lazy("Events"),
        required=False,
        choices=Webhook.Event.choices,
        initial=[choice.value for choice in Webhook.Event],
        widget=forms.CheckboxSelectMultiple,
    )
