"""Writes for table links (`tournaments.table_links` defines them): issuing a round's
links for its sheets, revoking them, and checking a link someone opened.

Issuing needs `score` (whoever may print the sheets: a link scores at one table, which a
staff member may do anyway); revoking needs `organise`.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Round, TableLink
from ..permissions import SignedIn, User, require
from ..table_links import end_reason, read_token


class TableLinkRefused(Exception):
    """A table link that does not sign anyone in; `status` is the page's HTTP status:
    403 for a link that is not valid here, 410 for one that has ended or was revoked."""

    def __init__(self, status: int, title: str, message: str) -> None:
        super().__init__(message)
        self.status, self.title, self.message = status, title, message


def _link_user(round_: Round, table_number: int) -> SignedIn:
    """The user a table link signs in as: inactive (never signs in by name), with no
    usable password, named after its table so history reads "table 3, round 2"."""
    tournament = round_.tournament
    User = get_user_model()
    # A cancelled round (or a deleted tournament whose slug is used again) leaves its
    # links' users behind, so the name may be taken already.
    base = f"{tournament.slug}-r{round_.number}-t{table_number}-link"
    username, copy = base, 1
    while User.objects.filter(username=username).exists():
        copy += 1
        username = f"{base}-{copy}"
    user = User(
        username=username,
        first_name=f"Table {table_number}, round {round_.number}"[:150],
        last_name="(table link)",
        is_active=False,
    )
    user.set_unusable_password()
    user.save()
    return user


@transaction.atomic
def table_links_issue(
    *, by: User, round_: Round, table_numbers: Iterable[int]
) -> dict[int, TableLink]:
    """The round's link of each table, made on first use (a sheet printed twice prints
    the same links). Refused once the round is over: its sheets have no use any more."""
    tournament = round_.tournament
    require(by, tournament, "score")
    links = {link.table_number: link for link in round_.table_links.select_related("round")}
    wanted = sorted(set(table_numbers) - set(links))
    if wanted:
        # Lock the round so two printings at once do not make two users per table.
        Round.objects.select_for_update().filter(pk=round_.pk).first()
        links = {link.table_number: link for link in round_.table_links.select_related("round")}
        for number in sorted(set(table_numbers) - set(links)):
            links[number] = TableLink.objects.create(
                tournament=tournament,
                round=round_,
                table_number=number,
                user=_link_user(round_, number),
            )
    return links


@transaction.atomic
def table_links_revoke(
    *, by: User, round_: Round, table_number: int | None = None
) -> list[TableLink]:
    """Revoke the round's links (or one table's): printed copies stop working and phones
    signed in through them are signed out. The sheets then print new links."""
    require(by, round_.tournament, "organise")
    links = list(round_.table_links.select_for_update().select_related("user", "round"))
    if table_number is not None:
        links = [link for link in links if link.table_number == table_number]
    now = timezone.now()
    for link in links:
        link.version += 1
        link.revoked_at = now
        link.save(update_fields=["version", "revoked_at"])
        # A new unusable password changes the session hash: signed-in phones are out.
        link.user.set_unusable_password()
        link.user.save(update_fields=["password"])
    return links


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
