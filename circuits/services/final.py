"""The final a circuit feeds: its entry list made from the circuit's qualified people.

Terms (`circuits.models`): final, final entry, seed.

* sync — after every recompute (`circuits.services.ranking`) the entry list follows the
  qualified list: a newly qualified person (a late qualifier finishing, a slot passed
  down after a correction) gets an entry and a player in the final, linked to them, with
  the next start number; an entry whose person is no longer qualified is removed with
  the player made for it; every entry's seed is their place among the qualified in the
  whole ranking.

Decisions (docs/rules/decisions.md#circuits):
* The list follows only while the final has no round: once its first round is opened
  the entry list is frozen (the final is being played; a late change is the organisers'
  to make by hand).
* A person the final's organisers registered already (a player linked to them) is
  taken as their entry's player, not registered twice.
* Start numbers are handed out as entries arrive; the seed is kept on the entry (the
  entry list, the API and the circuit's page show it).
"""

from __future__ import annotations

from django.db.models import Max

from tournaments.events import results_changed
from tournaments.models import Person, Player, Tournament

from ..models import Circuit, CircuitEvent, CircuitRanking, FinalEntry


def final_open(final: Tournament) -> bool:
    """Whether the final's entry list still follows the circuit."""
    return final.status == Tournament.Status.UPCOMING and not final.rounds.exists()


def final_sync(*, circuit: Circuit, snapshot: CircuitRanking) -> bool:
    """Bring the final's entry list to the snapshot's qualified list (module doc); True
    when it changed the final's players. Runs inside the recompute's transaction."""
    final = circuit.final
    if final is None:
        return False
    final = Tournament.objects.select_for_update().get(pk=final.pk)
    if not final_open(final):
        return False
    wanted = {q["person"]["id"]: q for q in snapshot.qualified}
    event_of = dict(
        CircuitEvent.objects.filter(circuit=circuit).values_list("tournament__slug", "pk")
    )
    player_of = dict(
        FinalEntry.objects.filter(circuit=circuit).values_list("person_id", "player_id")
    )
    gone = [player for person, player in player_of.items() if person not in wanted and player]
    changed = bool(gone)
    if gone:
        Player.objects.filter(pk__in=gone, tournament=final).delete()
    registered = dict(
        Player.objects.filter(tournament=final, person__in=list(wanted)).values_list(
            "person_id", "pk"
        )
    )
    new = [person for person in wanted if person not in registered]
    if new:
        names = dict(Person.objects.filter(pk__in=new).values_list("pk", "name"))
        number = final.players.aggregate(most=Max("number"))["most"] or 0
        for person in sorted(new, key=lambda p: wanted[p]["seed"]):
            number += 1
            registered[person] = Player.objects.create(
                tournament=final, number=number, name=names.get(person, "?"), person_id=person
            ).pk
        changed = True
    # The entry list written anew: one delete and one insert, however many seeds moved.
    FinalEntry.objects.filter(circuit=circuit).delete()
    FinalEntry.objects.bulk_create(
        FinalEntry(
            circuit=circuit,
            person_id=person,
            seed=q["seed"],
            route=q["route"],
            event_id=event_of.get(q["event"]) if q["event"] else None,
            player_id=registered[person],
        )
        for person, q in sorted(wanted.items(), key=lambda item: item[1]["seed"])
    )
    if changed:
        results_changed(final)
    return changed
