"""Invitation links: what the link of a staff invitation carries.

Terms:
* invitation token — the invitation's id signed with the site's secret
  (`signing.TimestampSigner`, salt `INVITATION_SALT`): it cannot be forged or guessed;
  whether it is still good (not expired, used or revoked) is the row's to say
  (`tournaments.services.staff.staff_invitation_for`).
"""

from __future__ import annotations

from django.core import signing

from .models import StaffInvitation

INVITATION_SALT = "rummitab.staff-invitation"


def invitation_token(invitation: StaffInvitation) -> str:
    """What the link carries: the invitation's id, signed."""
    return signing.TimestampSigner(salt=INVITATION_SALT).sign(str(invitation.pk))
