"""The check-in page's form: one tap marks a player present or absent."""

from __future__ import annotations

from django import forms

from ..web import PageForm, WholeNumberField


class CheckInForm(PageForm):
    """One tap on the check-in page: a player (by id) present or absent."""

    player = WholeNumberField(widget=forms.HiddenInput)
    present = forms.ChoiceField(choices=[("1", "present"), ("0", "absent")])
