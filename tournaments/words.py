"""Sentences the tournament pages and the API say, built from the rows: the warning under
a player whose name is taken already, why an invitation link no longer works. Marked for
translation and said in the reader's language (called inside their request).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from .models import Player, StaffInvitation
from .selectors import same_name


def same_name_warning(player: Player) -> str | None:
    """ "there is already a player named Ada (#4)", or None when the name is unique."""
    others = same_name(player)
    if not others:
        return None
    numbers = ", ".join(f"#{other.number}" for other in others)
    return _("there is already a player named %(name)s (%(numbers)s)") % {
        "name": player.name,
        "numbers": numbers,
    }


def invitation_problem(invitation: StaffInvitation) -> str | None:
    """Why this invitation can no longer be accepted, in words for the invitee; or None."""
    if invitation.revoked_at is not None:
        return _("This invitation was withdrawn by the organiser. Ask them for a new one.")
    if invitation.used_at is not None:
        return _("This invitation has been used already; each link makes one account.")
    if invitation.expires_at <= timezone.now():
        when = date_format(timezone.localtime(invitation.expires_at), "DATETIME_FORMAT")
        return _("This invitation expired on %(when)s. Ask the organiser for a new one.") % {
            "when": when
        }
    return None
