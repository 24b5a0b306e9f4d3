"""Forms of the staff pages: add a person by username, a new account, an invitation and
its acceptance.

Only what was typed is read here; the services check the rules (`tournaments.forms`).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.utils.translation import gettext_lazy

from ..models import StaffMember
from ..services.validation import max_length_of
from ..web import PageForm


class StaffForm(PageForm):
    username = forms.CharField(
        label=gettext_lazy("Username"), max_length=max_length_of(get_user_model(), "username")
    )
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=StaffMember.Role.choices)


class RoleForm(PageForm):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=StaffMember.Role.choices)


class StaffAccountForm(PageForm):
    """A new account for someone joining the staff. The service checks the username and
    the password (the site's password rules); a blank password is made up."""

    username = forms.CharField(
        label=gettext_lazy("Username"),
        required=False,
        help_text=gettext_lazy("Letters, digits and @ . + - _ only."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )
    password = forms.CharField(
        label=gettext_lazy("Password"),
        required=False,
        strip=False,
        help_text=gettext_lazy("Blank: one is made up and shown to you once."),
        widget=forms.TextInput(attrs={"autocomplete": "new-password", "autocapitalize": "none"}),
    )
    role = forms.ChoiceField(
        label=gettext_lazy("Role"),
        choices=StaffMember.Role.choices,
        initial=StaffMember.Role.SCOREKEEPER,
    )


class InvitationForm(PageForm):
    role = forms.ChoiceField(
        label=gettext_lazy("Role"),
        choices=StaffMember.Role.choices,
        initial=StaffMember.Role.SCOREKEEPER,
    )


class InvitationAcceptForm(PageForm):
    """The invitee's own username and password (checked by the service)."""

    username = forms.CharField(
        label=gettext_lazy("Username"),
        required=False,
        help_text=gettext_lazy("Letters, digits and @ . + - _ only."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    password = forms.CharField(
        label=gettext_lazy("Password"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["password"].help_text = password_validation.password_validators_help_text_html()
