"""Table links: the QR on a printed table sheet that makes a phone the scorekeeper of that
one table for that one round, without an account.

Terms:
* table link — a `TableLink` row per (round, table number) and the signed token printed
  for it. Its `user` is a real user made for the link alone (inactive, no usable
  password), so results entered through it are attributed to "table 3, round 2" in
  their history; `tournaments.permissions` lets that user score at that table only.
* token — ``Signer.sign_object([link id, version])`` with this module's salt and the site's
  SECRET_KEY (Django's signing, not django-sesame: sesame expires a token by age and
  ties it to the user's password and last sign-in, while a table link ends with an event,
  the end of its round, and carries a scope, its table, that we check ourselves anyway —
  so a timestamp would add nothing and a dependency would buy nothing).
* version — part of the token; an organiser's revoke bumps it (and changes the user's
  unusable password, which ends the sessions already signed in through the old token),
  so every printed copy stops working at once and the sheet is printed again.
* end of the round — a round's links end when a later round of the tournament is opened
  or the tournament is finished. Reopening a finished tournament or cancelling the later
  round brings the round back as the current one, and its links with it (a link that was
  revoked stays revoked).
* confirmation — when the tournament wants results confirmed by a second person, an
  entry through a table link waits as `submitted` and a staff member confirms it in the
  confirmation queue: the link is one person to the results service, so it can never
  confirm its own table's entry, and a second link per table would only be a second copy
  of the same sheet in the same players' hands.
* check — `table_link_check`: whether the link a phone opened signs it in at the address
  of (round, table); `TableLinkRefused` says why not (403 or 410) in words.
"""

from __future__ import annotations

from django.core import signing
from django.utils.translation import gettext as _

from .models import Round, TableLink, Tournament

SALT = "rummitab.table-link"


def token_for(link: TableLink) -> str:
    """The token printed (inside the link's address) on the table's sheet. A plain
    `Signer`, not `signing.dumps` (a `TimestampSigner`): the same link always has the same
    address, whenever it is printed or redirected to."""
    return signing.Signer(salt=SALT).sign_object([link.pk, link.version])


def read_token(token: str) -> tuple[int, int] | None:
    """(link id, version) of a token signed by this site, or None for anything else."""
    try:
        value = signing.Signer(salt=SALT).unsign_object(token)
    except signing.BadSignature:
        return None
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(part, int) and not isinstance(part, bool) for part in value)
    ):
        return value[0], value[1]
    return None


def end_reason(link: TableLink, tournament: Tournament | None = None) -> str | None:
    """Why the link's round is over (so is the link), or None while it lasts: a clause in
    the reader's language ("round 3 has been opened"). Pass the tournament when a fresher
    (locked) copy of its row is at hand."""
    tournament = tournament or link.tournament
    if tournament.status == Tournament.Status.FINISHED:
        return _("the tournament is finished")
    later = (
        Round.objects.filter(tournament_id=link.tournament_id, number__gt=link.round.number)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    if later is not None:
        return _("round %(number)s has been opened") % {"number": later}
    return None


class TableLinkRefused(Exception):
    """A table link that does not sign anyone in; `status` is the page's HTTP status:
    403 for a link that is not valid here, 410 for one that has ended or was revoked."""

    def __init__(self, status: int, title: str, message: str) -> None:
        super().__init__(message)
        self.status, self.title, self.message = status, title, message


def table_link_check(*, token: str, round_: Round, table_number: int) -> TableLink:
    """The link a phone opened at the address of (round, table), if it may sign in;
    otherwise `TableLinkRefused` says why in words for the person holding the phone."""
    read = read_token(token)
    link = (
        TableLink.objects.select_related("round", "tournament", "user").filter(pk=read[0]).first()
        if read
        else None
    )
    if link is None:
        raise TableLinkRefused(
            403,
            _("This table link is not valid"),
            _(
                "The address is incomplete or was changed. Scan the QR code on the table's "
                "sheet again, or ask the organiser."
            ),
        )
    if (link.round_id, link.table_number) != (round_.pk, table_number):
        raise TableLinkRefused(
            403,
            _("This link is for another table"),
            _("It opens table %(table)s of round %(round)s only.")
            % {"table": link.table_number, "round": link.round.number},
        )
    if read is not None and read[1] != link.version:
        raise TableLinkRefused(
            410,
            _("This table link was revoked"),
            _(
                "The organiser revoked the link of table %(table)s in round %(round)s. "
                "Ask them for the new sheet."
            )
            % {"table": link.table_number, "round": link.round.number},
        )
    reason = end_reason(link)
    if reason is not None:
        raise TableLinkRefused(
            410,
            _("Round %(round)s is over") % {"round": link.round.number},
            _(
                "Its table links have ended: %(reason)s. Results can no longer be entered "
                "with this sheet; ask the organiser."
            )
            % {"reason": reason},
        )
    return link
