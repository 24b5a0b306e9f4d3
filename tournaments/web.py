"""Helpers shared by the web views of every app: who may open a tournament page, and how a
service's `RuleError` lands beside the form field it is about.

Terms:
* need — what a page requires of the user in its tournament: ``view`` (anyone who may see
  the tournament), ``score`` (organisers and scorekeepers) or ``organise``.
* outsider — someone who may not see a private tournament; for them it does not exist
  (404), exactly as in the API.
* whole number — what a page reads as a number, in a form field or a posted id: ASCII
  digits only (never "²" or "٣"; a leading "-" is read, so the service names a negative
  value as it does for the API), at most 18 of them; anything else is "not a number" (a
  form error or a 404), never a 500 from the database.
* error path — where a `RuleError` points, e.g. ``("racks", 2, "tiles")``; see
  `scoring.errors`. `add_rule_errors` maps it onto Django forms (`PageForm`s).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import wraps
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from scoring.errors import RuleError

from .models import Tournament
from .permissions import PREDICATES, Need, can_organise, can_score, require
from .selectors import tournaments_visible_to

# The cookie (signed) that remembers the table link a phone signed in through: its path.
TABLE_LINK_COOKIE = "rummitab_table_link"


def tournament_page(need: Need = "view") -> Callable:
    """Decorate a view taking ``(request, tournament, **kwargs)`` instead of a slug.

    Anonymous users are sent to sign in before anything is looked up for a page that needs
    a role, so the redirect never tells whether a private tournament exists. Outsiders get
    404 for a private tournament; signed-in users without the role get 403. A page whose
    address names a round and a table (``round_number``, ``table_number``) is scored at
    that table: a phone signed in through that table's link may open it.
    """
    assert need in PREDICATES, need

    def decorate(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponseBase:
            if need != "view" and not request.user.is_authenticated:
                # A phone that signed in through a table link goes back through it: signed
                # in again while it lasts, or told why it ended — never a bare sign-in form.
                link = request.get_signed_cookie(TABLE_LINK_COOKIE, None, salt=TABLE_LINK_COOKIE)
                if link:
                    return redirect(link)
                return redirect_to_login(request.get_full_path())
            tournament = tournaments_visible_to(request.user).filter(slug=slug).first()
            if tournament is None:
                raise Http404(_("No such tournament."))
            # A page of one table scores there: a table link may open it, no other page.
            round_number, table_number = kwargs.get("round_number"), kwargs.get("table_number")
            table = (
                (round_number, table_number)
                if round_number is not None and table_number is not None
                else None
            )
            require(request.user, tournament, need, at=table)  # a 403 page for a lacking role
            return view(request, tournament, **kwargs)

        return wrapper

    return decorate


def tournament_context(user: Any, tournament: Tournament) -> dict[str, Any]:
    """What every tournament page shows: the tournament, its round numbers (the tabs) and
    what the user may do there, to show or hide links and forms. The write services check
    the permissions again on every write; hiding a link is never the check."""
    return {
        "tournament": tournament,
        "rounds": list(tournament.rounds.order_by("number").values_list("number", flat=True)),
        "can_score": can_score(user, tournament),
        "can_organise": can_organise(user, tournament),
    }


# The most digits a number typed into a page may have (a 64-bit integer holds 18).
MAX_NUMBER_DIGITS = 18


def whole_number(value: object, *, digits: int = MAX_NUMBER_DIGITS) -> int | None:
    """The whole number a page sent (form field, posted or queried id), or None."""
    text = str(value if value is not None else "").strip()
    digits_only = text.removeprefix("-")
    if digits_only.isascii() and digits_only.isdigit() and len(digits_only) <= digits:
        return int(text)
    return None


class WholeNumberField(forms.IntegerField):
    """A form's number input, read by `whole_number` (the range is the service's to say)."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        number = whole_number(value)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's field `name`, a choice field whose choices a form sets when it is made
    (`form.fields` types every field as a plain Field)."""
    return cast(forms.ChoiceField, form.fields[name])


class PageForm(forms.Form):
    """The base of the site's forms: an input with errors names its error list (and its
    help) in aria-describedby, so a screen reader reads the message with the input."""

    def add_error(self, field: str | None, error: Any) -> None:
        super().add_error(field, error)
        for name in self.errors:
            if name not in self.fields:
                continue
            attrs = self.fields[name].widget.attrs
            ids = attrs.get("aria-describedby", "").split()
            auto_id = self[name].auto_id
            wanted = [f"{auto_id}_errors"]
            if self.fields[name].help_text:
                wanted.append(f"{auto_id}_helptext")
            attrs["aria-describedby"] = " ".join(dict.fromkeys([*ids, *wanted]))


def add_rule_errors(
    form: forms.Form,
    error: RuleError,
    *,
    lists: Mapping[str, Sequence[forms.Form]] | None = None,
) -> None:
    """Put every message of `error` beside the input it is about.

    ``lists`` names the sub-forms of a list in the input: with ``lists={"racks": forms}``
    the path ``("racks", 2, "tiles")`` lands on the ``tiles`` field of ``forms[2]``.
    Otherwise the field is the first of: the whole path joined by ``__``
    (``rules__joker_penalty``), its last key (``joker_penalty``), the keys before it from
    the last inward, its first key (``rules``). A path that names no field becomes a
    form-wide error that spells the path out, so no message is ever lost.
    """
    for single in error.flatten():
        target, field = _locate(form, single.path, lists or {})
        if field is None and single.path and target is form:
            target.add_error(None, str(single))
        else:
            target.add_error(field, single.message)


def _locate(
    form: forms.Form, path: tuple[str | int, ...], lists: Mapping[str, Sequence[forms.Form]]
) -> tuple[forms.Form, str | None]:
    if not path:
        return form, None
    head = path[0]
    if isinstance(head, str) and head in lists and len(path) > 1 and isinstance(path[1], int):
        items = lists[head]
        if 0 <= path[1] < len(items):
            item = items[path[1]]
            rest = path[2:]
            key = rest[0] if rest and isinstance(rest[0], str) else None
            return item, key if key in item.fields else None
    # The most precise field first: the whole path, then each key from the last inward
    # (("rules", "placement_points", "4") lands on placement_points), then the first.
    for candidate in ("__".join(str(key) for key in path), *reversed(path)):
        if isinstance(candidate, str) and candidate in form.fields:
            return form, candidate
    return form, None


def public_url(path: str) -> str:
    """The address of a page as phones reach it (`settings.PUBLIC_BASE_URL`): what QR codes
    and printed links carry, whatever host the request that builds them came in on."""
    return settings.PUBLIC_BASE_URL + path


def csv_download(text: str, filename: str) -> HttpResponse:
    """A CSV file to download, as every export of the site sends it."""
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
