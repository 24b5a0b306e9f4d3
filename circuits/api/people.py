"""REST API for people: find, register and edit a person, link a tournament's player or
a club's member to one, and merge a duplicate (circuit administrators).

Privacy (`tournaments.models.people`): everyone is shown a person's `id`, `name`,
`federation_id` and `merged_into`; `email`, `birth_year` and `clubs` only to whoever may
see them (`tournaments.services.people.sees_private`, and circuit administrators).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.common import (
    StrictCharField,
    StrictInput,
    StrictIntegerField,
    TournamentScoped,
    errors,
    valid,
)
from tournaments.models import Club, Person
from tournaments.selectors import people_found
from tournaments.services import people as services
from tournaments.services.validation import max_length_of

from ..permissions import runs_any_circuit
from ..services.people import person_merge
from .examples import PERSON_EXAMPLE

PRIVATE = ("email", "birth_year", "clubs")


class PersonOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    federation_id = serializers.CharField()
    merged_into = serializers.IntegerField(source="merged_into_id", allow_null=True)
    email = serializers.CharField(required=False, help_text="Private (see the description).")
    birth_year = serializers.IntegerField(
        allow_null=True, required=False, help_text="Private (see the description)."
    )
    clubs = serializers.SerializerMethodField(help_text="Private: slugs of the person's clubs.")

    def get_clubs(self, person: Person) -> list[str]:
        return sorted({m.club.slug for m in person.memberships.all()})


def sees_private(user: Any, person: Person) -> bool:
    return services.sees_private(user, person) or runs_any_circuit(user)


def person_data(person: Person, user: Any) -> dict[str, Any]:
    data = dict(PersonOutSerializer(person).data)
    if not sees_private(user, person):
        for field in PRIVATE:
            data.pop(field, None)
    return data


PRIVATE_NOTE = (
    " `email`, `birth_year` and `clubs` only for the one who registered the person, the "
    "organisers of their clubs and circuit administrators; everyone else sees the name "
    "and federation id."
)


class PersonInSerializer(StrictInput):
    name = StrictCharField(max_length=max_length_of(Person, "name"))
    federation_id = StrictCharField(
        max_length=max_length_of(Person, "federation_id"), required=False, allow_blank=True
    )
    email = StrictCharField(
        max_length=max_length_of(Person, "email"), required=False, allow_blank=True
    )
    birth_year = StrictIntegerField(required=False, allow_null=True)


class PersonPatchSerializer(PersonInSerializer):
    name = StrictCharField(max_length=max_length_of(Person, "name"), required=False)


class PersonListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["people"],
        summary="Find people",
        parameters=[OpenApiParameter("q", str, description="Part of a name, or a federation id.")],
        examples=[PERSON_EXAMPLE],
        description="Signed-in users (the registration desk): at most 20 people whose name "
        "contains `q` or whose federation id is `q`, merged duplicates left out." + PRIVATE_NOTE,
        responses={200: PersonOutSerializer(many=True), **errors(401)},
    )
    def get(self, request: Any) -> Response:
        found = people_found(request.query_params.get("q", ""))
        return Response([person_data(p, request.user) for p in found])

    @extend_schema(
        tags=["people"],
        summary="Register a person",
        examples=[
            OpenApiExample(
                "New person",
                request_only=True,
                value={"name": "Ada Peretz", "federation_id": "PL-0117", "birth_year": 1961},
            ),
            PERSON_EXAMPLE,
        ],
        description="Organisers of a club or tournament. `federation_id` is unique on the "
        "install when given.",
        request=PersonInSerializer,
        responses={201: PersonOutSerializer, **errors(400, 401, 403)},
    )
    def post(self, request: Any) -> Response:
        person = services.person_create(by=request.user, **valid(PersonInSerializer, request.data))
        return Response(person_data(person, request.user), status=status.HTTP_201_CREATED)


class PersonDetailView(APIView):
    @extend_schema(
        tags=["people"],
        summary="Read a person",
        examples=[PERSON_EXAMPLE],
        description="Anyone." + PRIVATE_NOTE + " A merged duplicate names the person kept "
        "in `merged_into`.",
        responses={200: PersonOutSerializer, **errors(404)},
    )
    def get(self, request: Any, pk: int) -> Response:
        return Response(person_data(get_object_or_404(Person, pk=pk), request.user))

    @extend_schema(
        tags=["people"],
        summary="Edit a person",
        examples=[OpenApiExample("Edit", request_only=True, value={"birth_year": 1962})],
        description="The one who registered the person, the organisers of their clubs.",
        request=PersonPatchSerializer,
        responses={200: PersonOutSerializer, **errors(400, 401, 403, 404)},
    )
    def patch(self, request: Any, pk: int) -> Response:
        person = get_object_or_404(Person, pk=pk)
        person = services.person_update(
            person=person, by=request.user, **valid(PersonPatchSerializer, request.data)
        )
        return Response(person_data(person, request.user))


class MergeInSerializer(StrictInput):
    duplicate = StrictIntegerField(help_text="The id of the person merged into this one.")


class PersonMergeView(APIView):
    @extend_schema(
        tags=["people"],
        summary="Merge a duplicate into a person",
        examples=[OpenApiExample("Merge", request_only=True, value={"duplicate": 31})],
        description="Circuit administrators. The duplicate's players, memberships, circuit "
        "finishes and final entries pass to this person; the duplicate stays, with "
        "`merged_into` set and its history. Refused (400) when both played one tournament or "
        "their federation ids differ.",
        request=MergeInSerializer,
        responses={200: PersonOutSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Any, pk: int) -> Response:
        keep = get_object_or_404(Person, pk=pk)
        duplicate_id = valid(MergeInSerializer, request.data)["duplicate"]
        duplicate = Person.objects.filter(pk=duplicate_id).first()
        if duplicate is None:
            raise serializers.ValidationError({"duplicate": [_("No such person.")]})
        keep = person_merge(by=request.user, keep=keep, duplicate=duplicate)
        return Response(person_data(keep, request.user))


class PersonLinkInSerializer(StrictInput):
    person = StrictIntegerField(allow_null=True, help_text="A person's id, or null to unlink.")


def _person(person_id: int | None) -> Person | None:
    if person_id is None:
        return None
    person = Person.objects.filter(pk=person_id).first()
    if person is None:
        raise serializers.ValidationError({"person": [_("No such person.")]})
    return person


class PlayerPersonView(TournamentScoped, APIView):
    @extend_schema(
        tags=["people"],
        summary="Link a player to a person",
        examples=[OpenApiExample("Link", value={"person": 12})],
        description="The tournament's organisers, also once it is finished (a link is who "
        "played, not a result). A person plays at most once in a tournament.",
        request=PersonLinkInSerializer,
        responses={200: PersonLinkInSerializer, **errors(400, 401, 403, 404)},
    )
    def put(self, request: Any, slug: str, pk: int) -> Response:
        player = self.tournament.players.filter(pk=pk).first()
        if player is None:
            raise Http404(_("No such player in this tournament."))
        person = _person(valid(PersonLinkInSerializer, request.data)["person"])
        player = services.player_person_link(player=player, by=request.user, person=person)
        return Response({"person": player.person_id})


class MemberPersonView(APIView):
    @extend_schema(
        tags=["people"],
        summary="Link a club member to a person",
        examples=[OpenApiExample("Link", value={"person": 12})],
        description="The club's organisers. The member's players are that person in every "
        "circuit (unless linked to a person themselves).",
        request=PersonLinkInSerializer,
        responses={200: PersonLinkInSerializer, **errors(400, 401, 403, 404)},
    )
    def put(self, request: Any, club: str, pk: int) -> Response:
        member = get_object_or_404(get_object_or_404(Club, slug=club).members, pk=pk)
        person = _person(valid(PersonLinkInSerializer, request.data)["person"])
        member = services.member_person_link(member=member, by=request.user, person=person)
        return Response({"person": member.person_id})
