"""Writes for circuits: create one, change its rule, cut-off and final, add
administrators, propose and approve the tournaments that count. Each one transaction,
refused first to anyone who may not do it (`circuits.permissions`).

Terms (`circuits.models`): circuit, administrator, circuit event (proposed, approved).

* propose — a tournament's organisers ask a circuit to count it; an administrator
  approves it (or approves a tournament of any club directly, without a proposal).
* final — a tournament the circuit feeds; an administrator names it only if they may
  organise it (its entry list is then written by the circuit: `circuits.services.final`).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring.circuits import check_rule, rule_values
from scoring.errors import RuleError
from tournaments.events import pages_changed
from tournaments.models import Tournament
from tournaments.permissions import User, can_organise, require, signed_in
from tournaments.services.validation import max_length_of, stamp_history_user, text

from ..models import Circuit, CircuitAdministrator, CircuitEvent, CircuitRanking
from ..permissions import require_circuit, require_circuit_creator
from .ranking import (
    circuit_event_refresh,
    circuit_page_key,
    circuit_recompute,
    circuit_refresh_all,
)


def _slug_for(name: str) -> str:
    base = slugify(name)[: max_length_of(Circuit, "slug") - 10] or "circuit"
    slug, n = base, 2
    while Circuit.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def _cutoff(value: object) -> date | None:
    if value is None or isinstance(value, date):
        return value
    raise RuleError("cutoff", _("a date (YYYY-MM-DD), or empty for none"))


@transaction.atomic
def circuit_create(
    *, by: User, name: str, rule: dict[str, Any] | None = None, cutoff: date | None = None
) -> Circuit:
    """A new circuit; its creator is its first administrator."""
    require_circuit_creator(by)
    name = text("name", name, max_length=max_length_of(Circuit, "name"))
    values = rule_values(check_rule(rule or {}))
    circuit = Circuit(slug=_slug_for(name), name=name, rule=values, cutoff=_cutoff(cutoff))
    user = signed_in(by)  # require_circuit_creator refused the anonymous visitor
    circuit.created_by = user
    stamp_history_user(circuit, by).save()
    CircuitAdministrator.objects.create(circuit=circuit, user=user)
    return circuit


@transaction.atomic
def circuit_update(*, circuit: Circuit, by: User, **changes: Any) -> Circuit:
    """Change the name, rule, cut-off or final (`final`: a tournament or None)."""
    require_circuit(by, circuit)
    unknown = set(changes) - {"name", "rule", "cutoff", "final"}
    if unknown:
        raise RuleError(sorted(unknown)[0], _("cannot be changed here."))
    if "name" in changes:
        circuit.name = text("name", changes["name"], max_length=max_length_of(Circuit, "name"))
    if "rule" in changes:
        circuit.rule = rule_values(check_rule({**circuit.rule, **(changes["rule"] or {})}))
    if "cutoff" in changes:
        circuit.cutoff = _cutoff(changes["cutoff"])
    if "final" in changes:
        final = changes["final"]
        if final is not None and not can_organise(by, final):
            raise RuleError("final", _("name a tournament you organise as the final."))
        if final is not None and circuit.events.filter(tournament=final).exists():
            raise RuleError("final", _("a tournament of the circuit cannot be its final."))
        circuit.final = final
    stamp_history_user(circuit, by).save()
    pages_changed(circuit_page_key(circuit))
    if {"rule", "cutoff", "final"} & set(changes):
        circuit_refresh_all(circuit=circuit)
    return circuit


@transaction.atomic
def circuit_administrator_add(*, circuit: Circuit, by: User, username: str) -> CircuitAdministrator:
    require_circuit(by, circuit)
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise RuleError("username", _("no account has this username."))
    role, _created = CircuitAdministrator.objects.get_or_create(circuit=circuit, user=user)
    return role


@transaction.atomic
def circuit_event_propose(*, circuit: Circuit, by: User, tournament: Tournament) -> CircuitEvent:
    """A tournament's organiser asks the circuit to count it."""
    require(by, tournament, "organise")
    if circuit.final_id == tournament.pk:
        raise RuleError("tournament", _("the circuit's final cannot count for it."))
    event, _created = CircuitEvent.objects.get_or_create(
        circuit=circuit,
        tournament=tournament,
        defaults={"proposed_by": signed_in(by)},  # `require` refused the anonymous visitor
    )
    return event


@transaction.atomic
def circuit_event_approve(*, circuit: Circuit, by: User, tournament: Tournament) -> CircuitEvent:
    """An administrator approves a tournament of any club (proposed or not)."""
    require_circuit(by, circuit)
    if circuit.final_id == tournament.pk:
        raise RuleError("tournament", _("the circuit's final cannot count for it."))
    event, _created = CircuitEvent.objects.get_or_create(circuit=circuit, tournament=tournament)
    event.status = CircuitEvent.Status.APPROVED
    event.approved_by, event.approved_at = signed_in(by), timezone.now()  # see require_circuit
    stamp_history_user(event, by).save()
    circuit_event_refresh(event_id=event.pk)
    return event


@transaction.atomic
def circuit_event_remove(*, circuit: Circuit, by: User, tournament: Tournament) -> None:
    """An administrator takes a tournament out of the circuit."""
    require_circuit(by, circuit)
    deleted, _kinds = CircuitEvent.objects.filter(circuit=circuit, tournament=tournament).delete()
    if not deleted:
        raise RuleError("tournament", _("this tournament is not in the circuit."))
    circuit_recompute(circuit_id=circuit.pk)


def circuit_follow_tournament(*, tournament_id: int) -> list[CircuitRanking]:
    """A tournament's standings, status or people changed: refresh its approved events
    (the job behind `tournaments.services.people.CIRCUIT_TASK` and the signals)."""
    snapshots = []
    for event_id in CircuitEvent.objects.filter(
        tournament_id=tournament_id, status=CircuitEvent.Status.APPROVED
    ).values_list("pk", flat=True):
        circuit_event_refresh(event_id=event_id)
    for circuit in Circuit.objects.filter(events__tournament_id=tournament_id).distinct():
        latest = circuit.rankings.order_by("-computed_version").first()
        if latest is not None:
            snapshots.append(latest)
    return snapshots
