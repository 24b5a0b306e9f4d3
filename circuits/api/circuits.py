"""REST API for circuits: list and read them, their ranking (with each person's counted
events), qualified list with the final's entry list, a person's circuit record; and the
administrators' writes — create a circuit, change its rule, cut-off and final, approve
or propose the tournaments that count. The services decide who may
(`circuits.services.circuits`).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.common import (
    RawJSONField,
    StrictCharField,
    StrictDateField,
    StrictInput,
    errors,
    valid,
)
from tournaments.models import Person, Tournament
from tournaments.selectors import tournaments_visible_to
from tournaments.services.validation import max_length_of

from ..models import Circuit, CircuitEvent, FinalEntry
from ..permissions import can_run_circuit
from ..selectors import circuit_calendar, circuits_listed, person_in_circuit
from ..services import circuits as services
from ..services.ranking import ranking_for_read
from .examples import CIRCUIT_EVENT_DELETE, CIRCUIT_EXAMPLE, PERSON_REF

RULE_HELP = (
    "points: places | beaten; place_points: points of places 1, 2, ...; beaten_points: "
    "the points of beating the whole field (points beaten); weighted: multiply by field / "
    "reference_field; best: N events counted (null: all); min_field: the fewest players "
    "for an event to count; slots: final places per event, passed down past people "
    "qualified already; ranking_slots: the ranking's top at the cut-off date."
)


class EventOutSerializer(serializers.Serializer):
    tournament = serializers.CharField(source="tournament.slug")
    name = serializers.CharField(source="tournament.name")
    starts_on = serializers.DateField(source="tournament.starts_on", allow_null=True)
    club = serializers.CharField(source="tournament.club.slug", allow_null=True, default=None)
    status = serializers.CharField(help_text="proposed | approved")
    field = serializers.IntegerField(
        allow_null=True, help_text="Players of the final standings while it counts."
    )
    unlinked = serializers.IntegerField(help_text="Of them, linked to no person.")


class CircuitOutSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    rule = serializers.JSONField(help_text=RULE_HELP)
    cutoff = serializers.DateField(allow_null=True)
    final = serializers.CharField(source="final.slug", allow_null=True, default=None)
    version = serializers.IntegerField()


class CircuitInSerializer(StrictInput):
    name = StrictCharField(max_length=max_length_of(Circuit, "name"))
    rule = RawJSONField(required=False, schema={"type": "object", "description": RULE_HELP})
    cutoff = StrictDateField(required=False, allow_null=True)


class CircuitPatchSerializer(CircuitInSerializer):
    name = StrictCharField(max_length=max_length_of(Circuit, "name"), required=False)
    final = StrictCharField(
        required=False, allow_null=True, help_text="The final's tournament slug, or null."
    )


def _circuit(slug: str) -> Circuit:
    return get_object_or_404(Circuit.objects.select_related("final"), slug=slug)


class CircuitListView(APIView):
    @extend_schema(
        tags=["circuits"],
        summary="List circuits",
        examples=[OpenApiExample("Circuits", response_only=True, value=CIRCUIT_EXAMPLE)],
        description="Anyone, newest first.",
        responses={200: CircuitOutSerializer(many=True)},
    )
    def get(self, request: Any) -> Response:
        return Response(
            CircuitOutSerializer(circuits_listed().select_related("final"), many=True).data
        )

    @extend_schema(
        tags=["circuits"],
        summary="Create a circuit",
        examples=[
            OpenApiExample(
                "New circuit",
                request_only=True,
                value={"name": "Polish Grand Prix 2026", "rule": {"best": 6, "min_field": 12}},
            ),
            OpenApiExample("Circuit", response_only=True, value=CIRCUIT_EXAMPLE),
        ],
        description="The site's administrators (superusers); the creator becomes its first "
        "administrator. Options left out take their defaults. " + RULE_HELP,
        request=CircuitInSerializer,
        responses={201: CircuitOutSerializer, **errors(400, 401, 403)},
    )
    def post(self, request: Any) -> Response:
        circuit = services.circuit_create(
            by=request.user, **valid(CircuitInSerializer, request.data)
        )
        return Response(CircuitOutSerializer(circuit).data, status=status.HTTP_201_CREATED)


class CircuitDetailOutSerializer(CircuitOutSerializer):
    events = EventOutSerializer(many=True)


class CircuitDetailView(APIView):
    @extend_schema(
        tags=["circuits"],
        summary="Read a circuit and its events",
        examples=[
            OpenApiExample(
                "Circuit",
                response_only=True,
                value={
                    **CIRCUIT_EXAMPLE,
                    "events": [
                        {
                            "tournament": "gdansk-open",
                            "name": "Gdańsk Open",
                            "starts_on": "2026-03-07",
                            "club": "gdansk",
                            "status": "approved",
                            "field": 38,
                            "unlinked": 0,
                        }
                    ],
                },
            )
        ],
        description="Anyone: the approved events in date order (public tournaments); the "
        "administrators also see the proposed ones and private ones.",
        responses={200: CircuitDetailOutSerializer, **errors(404)},
    )
    def get(self, request: Any, slug: str) -> Response:
        circuit = _circuit(slug)
        if can_run_circuit(request.user, circuit):
            events = list(
                circuit.events.select_related("tournament", "tournament__club").order_by(
                    "tournament__starts_on", "tournament_id"
                )
            )
        else:
            events = circuit_calendar(circuit)
        return Response(
            CircuitDetailOutSerializer(
                {**CircuitOutSerializer(circuit).data, "events": events}
            ).data
        )

    @extend_schema(
        tags=["circuits"],
        summary="Change a circuit: name, rule, cut-off, final",
        examples=[
            OpenApiExample(
                "Best 6 and a final",
                request_only=True,
                value={"rule": {"best": 6}, "final": "national-final-2026"},
            )
        ],
        description="The circuit's administrators. `rule` options given replace those "
        "stored; the ranking is recomputed. The final must be a tournament the caller "
        "organises; its entry list is then written from the qualified list.",
        request=CircuitPatchSerializer,
        responses={200: CircuitOutSerializer, **errors(400, 401, 403, 404)},
    )
    def patch(self, request: Any, slug: str) -> Response:
        circuit = _circuit(slug)
        changes = valid(CircuitPatchSerializer, request.data)
        if "final" in changes:
            final_slug = changes["final"]
            changes["final"] = None
            if final_slug:
                final = tournaments_visible_to(request.user).filter(slug=final_slug).first()
                if final is None:
                    raise serializers.ValidationError({"final": [_("No such tournament.")]})
                changes["final"] = final
        circuit = services.circuit_update(circuit=circuit, by=request.user, **changes)
        return Response(CircuitOutSerializer(circuit).data)


class EventInSerializer(StrictInput):
    tournament = StrictCharField(help_text="The tournament's slug.")


def _tournament(request: Any, slug: str) -> Tournament:
    found = tournaments_visible_to(request.user).filter(slug=slug).first()
    if found is None:
        raise serializers.ValidationError({"tournament": [_("No such tournament.")]})
    return found


class CircuitEventsView(APIView):
    @extend_schema(
        tags=["circuits"],
        summary="Approve (or propose) a tournament for the circuit",
        examples=[
            OpenApiExample("Approve", request_only=True, value={"tournament": "gdansk-open"}),
        ],
        description="A circuit administrator approves a tournament of any club (201, status "
        "`approved`); a tournament's organiser who is not one proposes it (status `proposed`) "
        "for the administrators to approve. Only approved, finished tournaments count.",
        request=EventInSerializer,
        responses={201: EventOutSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Any, slug: str) -> Response:
        circuit = _circuit(slug)
        tournament = _tournament(request, valid(EventInSerializer, request.data)["tournament"])
        if can_run_circuit(request.user, circuit):
            event = services.circuit_event_approve(
                circuit=circuit, by=request.user, tournament=tournament
            )
        else:
            event = services.circuit_event_propose(
                circuit=circuit, by=request.user, tournament=tournament
            )
        event = CircuitEvent.objects.select_related("tournament__club").get(pk=event.pk)
        return Response(EventOutSerializer(event).data, status=status.HTTP_201_CREATED)


class CircuitEventView(APIView):
    @extend_schema(
        tags=["circuits"],
        summary="Take a tournament out of the circuit",
        description="The circuit's administrators; the ranking is recomputed.",
        request=None,
        responses={204: None, **errors(400, 401, 403, 404)},
        examples=CIRCUIT_EVENT_DELETE,
    )
    def delete(self, request: Any, slug: str, tournament: str) -> Response:
        circuit = _circuit(slug)
        found = get_object_or_404(Tournament, slug=tournament)
        services.circuit_event_remove(circuit=circuit, by=request.user, tournament=found)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PersonRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    federation_id = serializers.CharField()


class ContributionOutSerializer(serializers.Serializer):
    event = serializers.CharField(help_text="The tournament's slug.")
    points = serializers.IntegerField()
    counted = serializers.BooleanField(help_text="Among the best N.")


class RankingRowOutSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    person = PersonRefSerializer()
    total = serializers.IntegerField()
    events = serializers.IntegerField()
    contributions = ContributionOutSerializer(many=True)


class RankingOutSerializer(serializers.Serializer):
    version = serializers.IntegerField(source="computed_version")
    computed_at = serializers.DateTimeField()
    rows = RankingRowOutSerializer(many=True)


class CircuitRankingView(APIView):
    @extend_schema(
        tags=["circuits"],
        summary="Read a circuit's ranking",
        examples=[
            OpenApiExample(
                "Ranking",
                response_only=True,
                value={
                    "version": 42,
                    "computed_at": "2026-05-02T18:00:00Z",
                    "rows": [
                        {
                            "rank": 1,
                            "person": PERSON_REF,
                            "total": 245,
                            "events": 4,
                            "contributions": [
                                {"event": "gdansk-open", "points": 100, "counted": True},
                                {"event": "lodz-cup", "points": 45, "counted": False},
                            ],
                        }
                    ],
                },
            )
        ],
        description="Anyone: every person with points, best first, with each event's points "
        "and whether it is among the counted best N.",
        responses={200: RankingOutSerializer, **errors(404)},
    )
    def get(self, request: Any, slug: str) -> Response:
        return Response(RankingOutSerializer(ranking_for_read(_circuit(slug))).data)


class QualifiedOutSerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    person = PersonRefSerializer()
    route = serializers.CharField(help_text="event (a slot) | ranking (the cut-off's top)")
    event = serializers.CharField(allow_null=True)
    start_number = serializers.IntegerField(
        allow_null=True, help_text="In the final, once entered."
    )


class PassedDownOutSerializer(serializers.Serializer):
    person = PersonRefSerializer()
    event = serializers.CharField(allow_null=True)


class QualifiedListOutSerializer(serializers.Serializer):
    final = serializers.CharField(allow_null=True)
    qualified = QualifiedOutSerializer(many=True)
    passed_down = PassedDownOutSerializer(many=True)
    ties = serializers.ListField(child=serializers.CharField())


class CircuitQualifiedView(APIView):
    @extend_schema(
        tags=["circuits"],
        summary="Read a circuit's qualified list",
        examples=[
            OpenApiExample(
                "Qualified",
                response_only=True,
                value={
                    "final": "national-final-2026",
                    "qualified": [
                        {
                            "seed": 1,
                            "person": PERSON_REF,
                            "route": "event",
                            "event": "gdansk-open",
                            "start_number": 3,
                        }
                    ],
                    "passed_down": [
                        {
                            "person": {"id": 4, "name": "Ben Levi", "federation_id": ""},
                            "event": "lodz-cup",
                        }
                    ],
                    "ties": [],
                },
            )
        ],
        description="Anyone: the qualified people by seed (their place in the ranking), how "
        "each qualified, their start number in the final once entered; who passed a slot "
        "down (already qualified); ties at a line decided by lot.",
        responses={200: QualifiedListOutSerializer, **errors(404)},
    )
    def get(self, request: Any, slug: str) -> Response:
        circuit = _circuit(slug)
        snapshot = ranking_for_read(circuit)
        numbers = dict(
            FinalEntry.objects.filter(circuit=circuit, player__isnull=False).values_list(
                "person_id", "player__number"
            )
        )
        qualified = [
            {**q, "start_number": numbers.get(q["person"]["id"])} for q in snapshot.qualified
        ]
        body = {
            "final": circuit.final.slug if circuit.final else None,
            "qualified": qualified,
            "passed_down": snapshot.passed_down,
            "ties": snapshot.ties,
        }
        return Response(QualifiedListOutSerializer(body).data)


class FinishOutSerializer(serializers.Serializer):
    event = serializers.CharField(source="event.tournament.slug")
    rank = serializers.IntegerField()
    field = serializers.IntegerField(source="event.field")
    points = serializers.IntegerField()


class PersonCircuitOutSerializer(serializers.Serializer):
    person = PersonRefSerializer()
    rank = serializers.IntegerField(allow_null=True)
    total = serializers.IntegerField()
    qualified = QualifiedOutSerializer(allow_null=True)
    finishes = FinishOutSerializer(many=True)


class CircuitPersonView(APIView):
    @extend_schema(
        tags=["circuits"],
        summary="Read a person's circuit record",
        examples=[
            OpenApiExample(
                "Record",
                response_only=True,
                value={
                    "person": PERSON_REF,
                    "rank": 1,
                    "total": 245,
                    "qualified": None,
                    "finishes": [{"event": "gdansk-open", "rank": 1, "field": 38, "points": 100}],
                },
            )
        ],
        description="Anyone: the person's ranking place, qualification and every finish.",
        responses={200: PersonCircuitOutSerializer, **errors(404)},
    )
    def get(self, request: Any, slug: str, pk: int) -> Response:
        circuit = _circuit(slug)
        record = person_in_circuit(circuit, get_object_or_404(Person, pk=pk))
        row = record.row or {}
        body = {
            "person": {
                "id": record.person.pk,
                "name": record.person.name,
                "federation_id": record.person.federation_id,
            },
            "rank": row.get("rank"),
            "total": row.get("total", 0),
            "qualified": {**record.qualified, "start_number": None} if record.qualified else None,
            "finishes": record.finishes,
        }
        return Response(PersonCircuitOutSerializer(body).data)
