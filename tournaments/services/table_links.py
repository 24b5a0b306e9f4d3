"""Writes for table links (`tournaments.table_links` defines them and checks a link someone
opened): issuing a round's links for its sheets, revoking them.

Issuing needs `score` (whoever may print the sheets: a link scores at one table, which a
staff member may do anyway); revoking needs `organise`.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from ..models import Round, TableLink
from ..permissions import SignedIn, User, require


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
