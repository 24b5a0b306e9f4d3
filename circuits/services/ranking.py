"""The circuit's ranking and qualified list, kept up to date incrementally.

Terms (`circuits.models`, `scoring.circuits`): event, finish, field, ranking snapshot.

* refresh — one event is read again (`circuit_event_refresh`): its newest standings
  snapshot when the tournament is approved and finished, nothing otherwise; its finishes
  and field are stored anew, then the circuit is recomputed. The other events are not
  read again: their stored finishes are what the ranking totals, so one event finishing
  costs one snapshot read plus one read of the circuit's stored finishes.
* recompute — the ranking and the qualified list from every stored finish
  (`circuit_recompute`), a snapshot per `Circuit.version`; then the final's entry list
  follows (`circuits.services.final`) and the public pages move.

Decisions (docs/rules/decisions.md#circuits):
* An event counts once its tournament is finished, as its standings then stand; a
  reopened tournament stops counting until it is finished again.
* The field is the final standings without withdrawn players, and places are counted
  among them (a withdrawn player above does not hold a place: competition ranking of the
  rest). A player linked to no person is in the field and holds their place, but takes
  no points and no slot (the circuit knows people only); the event's page counts them.
* A person with two players in one event (a direct link and a member's link to the same
  person) keeps the better place.
* Events are in date order (`starts_on`, then id) for the slots passing down.
"""

from __future__ import annotations

import time
from typing import Any

from django.db import transaction
from django.db.models import F

from games.services.standings import standings_recompute
from scoring.circuits import (
    CircuitRule,
    Event,
    EventFinish,
    check_rule,
    circuit_result,
    event_scores,
)
from tournaments.events import pages_changed
from tournaments.models import Person, Player, Tournament

from ..models import Circuit, CircuitEvent, CircuitFinish, CircuitRanking
from .final import final_sync


def circuit_rule(circuit: Circuit) -> CircuitRule:
    return check_rule(circuit.rule)


def circuit_page_key(circuit: Circuit | str) -> str:
    """The page generation's name of a circuit's public pages (`tournaments.events`):
    not a tournament slug, which never holds a `~`."""
    slug = circuit if isinstance(circuit, str) else circuit.slug
    return f"circuit~{slug}"


Found = tuple[int, int, int, int]  # (person, player, place, lot)


def _finishes_of(tournament: Tournament) -> tuple[list[int], int, list[Found]]:
    """(every place of the field, unlinked players, the people's finishes) of the
    tournament's newest standings, places among the field (module doc). The share of the
    field beaten counts every place, people and unlinked players alike."""
    # The snapshot at the tournament's current version (stored now if the job that
    # follows the last result has not run yet): a finished event counts as it ended.
    snapshot = standings_recompute(tournament_id=tournament.pk)
    rows = [
        r
        for r in (snapshot.rows if snapshot else [])
        if r["player"].get("status") != Player.Status.WITHDRAWN
    ]
    ids = [r["player"]["id"] for r in rows]
    person_of = {
        pk: own if own is not None else via_member
        for pk, own, via_member in Player.objects.filter(pk__in=ids).values_list(
            "pk", "person_id", "member__person_id"
        )
    }
    # Competition ranking among the field (a withdrawn player above holds no place).
    ranks = sorted(r["rank"] for r in rows)
    place: dict[int, int] = {}
    for i, rank in enumerate(ranks, start=1):
        place.setdefault(rank, i)
    best: dict[int, Found] = {}
    unlinked = 0
    for row in rows:
        player = row["player"]["id"]
        person = person_of.get(player)
        if person is None:
            unlinked += 1
            continue
        finish = (person, player, place[row["rank"]], int(row["metrics"].get("lot", 0)))
        if person not in best or finish[2] < best[person][2]:
            best[person] = finish
    return [place[r] for r in ranks], unlinked, list(best.values())


@transaction.atomic
def circuit_event_refresh(*, event_id: int, recompute: bool = True) -> None:
    """Store the event's finishes anew (module doc, "refresh"), then recompute."""
    event = (
        CircuitEvent.objects.select_for_update()
        .select_related("tournament", "circuit")
        .filter(pk=event_id)
        .first()
    )
    if event is None:
        return
    rule = circuit_rule(event.circuit)
    CircuitFinish.objects.filter(event=event).delete()
    counts = (
        event.status == CircuitEvent.Status.APPROVED
        and event.tournament.status == Tournament.Status.FINISHED
    )
    if counts:
        places, unlinked, finishes = _finishes_of(event.tournament)
        field = len(places)
        scored = Event(event.pk, field, tuple(EventFinish(f[0], f[2], f[3]) for f in finishes))
        points = event_scores(scored, places, rule)
        CircuitFinish.objects.bulk_create(
            CircuitFinish(
                event=event,
                person_id=f[0],
                player_id=f[1],
                rank=f[2],
                lot=f[3],
                points=points[f[0]],
            )
            for f in finishes
        )
        event.field, event.unlinked = field, unlinked
    elif event.field is None:
        return  # it did not count and does not: nothing to recompute
    else:
        event.field, event.unlinked = None, 0
    event.save(update_fields=["field", "unlinked"])
    if recompute:
        circuit_recompute(circuit_id=event.circuit_id)


def circuit_events(circuit: Circuit) -> list[CircuitEvent]:
    """The approved events, in date order."""
    return list(
        circuit.events.filter(status=CircuitEvent.Status.APPROVED)
        .select_related("tournament")
        .order_by(F("tournament__starts_on").asc(nulls_last=True), "tournament_id")
    )


@transaction.atomic
def circuit_recompute(*, circuit_id: int) -> CircuitRanking | None:
    """A new ranking snapshot from the stored finishes (module doc, "recompute")."""
    started = time.perf_counter()
    circuit = Circuit.objects.select_for_update().filter(pk=circuit_id).first()
    if circuit is None:
        return None
    rule = circuit_rule(circuit)
    events = [e for e in circuit_events(circuit) if e.field is not None]
    by_event: dict[int, list[tuple[int, int, int, int]]] = {e.pk: [] for e in events}
    for event_id, person, rank, lot, points in CircuitFinish.objects.filter(
        event__in=[e.pk for e in events]
    ).values_list("event_id", "person_id", "rank", "lot", "points"):
        by_event[event_id].append((person, rank, lot, points))
    cutoff = circuit.cutoff
    scored = []
    for event in events:
        rows = by_event[event.pk]
        starts = event.tournament.starts_on
        by_cutoff = cutoff is not None and starts is not None and starts <= cutoff
        finishes = tuple(EventFinish(p, r, lot) for p, r, lot, _ in rows)
        scored.append(
            (
                Event(event.pk, event.field or 0, finishes, by_cutoff),
                {p: pts for p, _, _, pts in rows},
            )
        )
    result = circuit_result(scored, rule, circuit=circuit.pk)
    slug_of = {e.pk: e.tournament.slug for e in events}
    people = {r.person for r in result.ranking} | {q.person for q in result.qualified}
    known = {
        pk: (name, federation_id)
        for pk, name, federation_id in Person.objects.filter(pk__in=people).values_list(
            "pk", "name", "federation_id"
        )
    }

    def who(person: int) -> dict[str, Any]:
        name, federation_id = known.get(person, ("", ""))
        return {"id": person, "name": name, "federation_id": federation_id}

    ranked_rows = [
        {
            "rank": r.rank,
            "person": who(r.person),
            "total": r.total,
            "events": r.events,
            "contributions": [
                {"event": slug_of[c.event], "points": c.points, "counted": c.counted}
                for c in r.contributions
            ],
        }
        for r in result.ranking
    ]
    qualified = [
        {
            "seed": q.seed,
            "person": who(q.person),
            "route": q.route,
            "event": slug_of.get(q.event) if q.event is not None else None,
        }
        for q in sorted(result.qualified, key=lambda q: q.seed)
    ]
    passed = [
        {"person": who(p.person), "event": slug_of.get(p.event) if p.event else None}
        for p in result.passed_down
    ]
    Circuit.objects.filter(pk=circuit.pk).update(version=F("version") + 1)
    circuit.refresh_from_db(fields=["version"])
    snapshot = CircuitRanking.objects.create(
        circuit=circuit,
        computed_version=circuit.version,
        rows=ranked_rows,
        qualified=qualified,
        passed_down=passed,
        ties=list(result.ties),
        duration_ms=int((time.perf_counter() - started) * 1000),
    )
    CircuitRanking.objects.filter(circuit=circuit, computed_version__lt=circuit.version).delete()
    pages_changed(circuit_page_key(circuit))
    final_sync(circuit=circuit, snapshot=snapshot)
    return snapshot


def circuit_refresh_all(*, circuit: Circuit) -> CircuitRanking | None:
    """Every event read again (a rule changed, people merged): the full recompute."""
    with transaction.atomic():
        for event_id in circuit.events.values_list("pk", flat=True):
            circuit_event_refresh(event_id=event_id, recompute=False)
        return circuit_recompute(circuit_id=circuit.pk)


def ranking_for_read(circuit: Circuit) -> CircuitRanking:
    snapshot = circuit.rankings.order_by("-computed_version").first()
    if snapshot is not None:
        return snapshot
    fresh = circuit_recompute(circuit_id=circuit.pk)
    assert fresh is not None
    return fresh
