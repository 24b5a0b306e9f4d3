"""Merging duplicate people: a circuit administrator's write.

Terms (`tournaments.models.people`): person, merged. The *kept* person takes over the
duplicate's players, memberships, circuit finishes and final entries; the duplicate's
row stays, marked `merged_into`, with its history (nothing is deleted), and its blank
fields are filled from the duplicate's.

Decisions (docs/rules/decisions.md#circuits):
* Two people who played the same tournament are two people: the merge is refused (a 400
  naming `duplicate`), except in a final whose entry list the circuit still writes, where
  the duplicate's entry (made by the circuit) is removed first.
* Two different federation ids are two people: refused (a 400 naming `federation_id`).
* Every circuit that counts one of their tournaments is refreshed (the ranking then
  totals one person where it totalled two).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.errors import RuleError
from tournaments.models import Member, Person, Player
from tournaments.permissions import User
from tournaments.services.validation import stamp_history_user

from ..models import Circuit, CircuitEvent, FinalEntry
from ..permissions import runs_any_circuit
from .final import final_open
from .ranking import circuit_refresh_all

FILLED = ("federation_id", "email", "birth_year")


def _check_pair(keep: Person, duplicate: Person) -> None:
    if keep.pk == duplicate.pk:
        raise RuleError("duplicate", _("a person cannot be merged into themselves."))
    if keep.merged_into_id is not None or duplicate.merged_into_id is not None:
        raise RuleError("duplicate", _("this person was merged already."))
    ids = {keep.federation_id, duplicate.federation_id} - {""}
    if len(ids) > 1:
        raise RuleError("federation_id", _("two federation ids: these are two people."))


def _final_entries_moved(keep: Person, duplicate: Person) -> None:
    """Entries the circuits made for the duplicate in a final still open go with their
    player (the recompute that follows enters the kept person); in a frozen final the
    entry passes to the kept person (their two players there refuse the merge below)."""
    for entry in FinalEntry.objects.filter(person=duplicate).select_related("circuit__final"):
        final = entry.circuit.final
        if final is not None and final_open(final):
            if entry.player_id is not None:
                Player.objects.filter(pk=entry.player_id).delete()
            entry.delete()
        elif not FinalEntry.objects.filter(circuit=entry.circuit, person=keep).exists():
            entry.person = keep
            entry.save(update_fields=["person"])


@transaction.atomic
def person_merge(*, by: User, keep: Person, duplicate: Person) -> Person:
    """Merge `duplicate` into `keep` (module doc)."""
    if not runs_any_circuit(by):
        raise PermissionDenied(_("Only circuit administrators merge people."))
    locked = {
        p.pk: p for p in Person.objects.select_for_update().filter(pk__in=[keep.pk, duplicate.pk])
    }
    keep, duplicate = locked[keep.pk], locked[duplicate.pk]
    if keep.pk == duplicate.pk:
        raise RuleError("duplicate", _("a person cannot be merged into themselves."))
    if keep.merged_into_id is not None or duplicate.merged_into_id is not None:
        raise RuleError("duplicate", _("this person was merged already."))
    if (
        keep.federation_id
        and duplicate.federation_id
        and keep.federation_id != duplicate.federation_id
    ):
        raise RuleError("federation_id", _("two federation ids: these are two people."))
    _final_entries_moved(keep, duplicate)
    both = set(Player.objects.filter(person=keep).values_list("tournament_id", flat=True)) & set(
        Player.objects.filter(person=duplicate).values_list("tournament_id", flat=True)
    )
    if both:
        raise RuleError("duplicate", _("both played the same tournament: these are two people."))
    tournaments = set(
        Player.objects.filter(person=duplicate).values_list("tournament_id", flat=True)
    ) | set(Player.objects.filter(member__person=duplicate).values_list("tournament_id", flat=True))
    for player in Player.objects.filter(person=duplicate):
        player.person = keep
        stamp_history_user(player, by).save(update_fields=["person"])
    for member in Member.objects.filter(person=duplicate):
        member.person = keep
        stamp_history_user(member, by).save(update_fields=["person"])
    for field in FILLED:
        if not getattr(keep, field) and getattr(duplicate, field):
            setattr(keep, field, getattr(duplicate, field))
    # The duplicate lets go of its federation id first: it is unique on the install.
    duplicate.federation_id = ""
    duplicate.merged_into = keep
    stamp_history_user(duplicate, by).save()
    stamp_history_user(keep, by).save()
    circuits = Circuit.objects.filter(
        events__tournament__in=tournaments, events__status=CircuitEvent.Status.APPROVED
    ).distinct()
    for circuit in circuits:
        circuit_refresh_all(circuit=circuit)
    return keep
