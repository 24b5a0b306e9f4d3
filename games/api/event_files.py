"""REST API for the open event file (`games.services.event_file`): its JSON Schema, a
tournament's export, and the import of a file as a new tournament."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.common import StrictCharField, StrictInput, TournamentScoped, errors, valid

from ..models import ExportJob
from ..services.event_file.export import event_file_export
from ..services.event_file.load import MAX_EVENT_FILE_BYTES
from ..services.event_file.schema import event_file_schema
from ..services.export_jobs import event_file_upload
from .examples import EVENT_FILE_EXAMPLE

SLUG_TAKEN = "a tournament with slug 'club-open' already exists."


class EventFileSchemaView(APIView):
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer]

    @extend_schema(
        tags=["event files"],
        summary="Read the event file's JSON Schema",
        description="The JSON Schema (draft 2020-12) of the open event file, format version "
        "1, exactly as kept in the repository (`games/schemas/event-file-1.schema.json`); "
        "its descriptions document every member.",
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                examples=[
                    OpenApiExample(
                        "Schema",
                        value={
                            "$schema": "https://json-schema.org/draft/2020-12/schema",
                            "title": "Rummitab open event file, format version 1",
                            "type": "object",
                        },
                    )
                ],
            )
        },
    )
    def get(self, request: Any) -> Response:
        return Response(event_file_schema(), content_type="application/schema+json")


class EventFileView(TournamentScoped, APIView):
    renderer_classes = [JSONRenderer]

    @extend_schema(
        tags=["event files"],
        summary="Export the tournament as an event file",
        description="The whole tournament as one JSON document valid against "
        "`/api/v1/event-file.schema.json`: rules and ranking, players (by start number), "
        "rounds with tables, seats and games, every result version with its racks, "
        "penalties (voided ones too), time extensions, absences and the standings of the "
        "current results version; `stages` with each stage's settings, entry list and "
        "standings (empty for a tournament without stages), and each round's `stage`. Anyone "
        "who may see the tournament may export it; it comes as a download "
        "(`Content-Disposition: attachment`).",
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                examples=[OpenApiExample("Event file", value=EVENT_FILE_EXAMPLE)],
            ),
            **errors(404),
        },
    )
    def get(self, request: Any, slug: str) -> Response:
        filename = f"{self.tournament.slug}.event.json"
        return Response(
            event_file_export(self.tournament),
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )


class EventFileImportInSerializer(StrictInput):
    file = serializers.FileField(
        help_text="The event file: UTF-8 JSON, at most the site's `EVENT_FILE_MAX_BYTES` "
        f"({MAX_EVENT_FILE_BYTES // 1024**2} MiB unless the site says otherwise); a file "
        "larger than `EVENT_FILE_REQUEST_BYTES` is imported by a background job (202)."
    )
    slug = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=60,
        help_text="The new tournament's slug; empty: the document's `tournament.slug`.",
    )


class ImportedOutSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    players = serializers.IntegerField(help_text="Players registered.")
    rounds = serializers.IntegerField(help_text="Rounds created.")


class ImportJobOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=ExportJob.Status.choices)
    done = serializers.IntegerField(help_text="Steps done (of `total`).")
    total = serializers.IntegerField()
    url = serializers.CharField(help_text="Where to poll this job.")
    tournament = serializers.CharField(
        allow_null=True, help_text="The new tournament's slug, once `done`."
    )
    error = serializers.CharField(
        help_text="What went wrong, once `failed`: each problem on a line, named by its JSON path."
    )


def _job_out(job: ExportJob) -> dict[str, Any]:
    return {
        "id": job.pk,
        "status": job.status,
        "done": job.done,
        "total": job.total,
        "url": reverse("api-event-file-import-job", kwargs={"job_id": job.pk}),
        "tournament": job.result or None,
        "error": job.error,
    }


class EventFileImportJobView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["event files"],
        summary="Follow the import of a large event file",
        description="The background import started by a 202 from `POST /api/v1/event-files/`:"
        " `queued`, `running`, then `done` (with the new tournament's slug) or `failed` "
        "(with the problems). Only the user who uploaded the file sees it.",
        responses={200: ImportJobOutSerializer, **errors(401, 404)},
        examples=[
            OpenApiExample(
                "Done",
                value={
                    "id": 12,
                    "status": "done",
                    "done": 7,
                    "total": 7,
                    "url": "/api/v1/event-files/import-jobs/12/",
                    "tournament": "national-final-2026",
                    "error": "",
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Any, job_id: int) -> Response:
        job = get_object_or_404(
            ExportJob,
            pk=job_id,
            kind=ExportJob.Kind.EVENT_FILE_IMPORT,
            requested_by=request.user,
        )
        return Response(_job_out(job))


class EventFileImportView(APIView):
    parser_classes = [MultiPartParser]

    @extend_schema(
        tags=["event files"],
        summary="Import an event file as a new tournament",
        description="Any signed-in user may import; they become the new tournament's "
        "organiser. The file (multipart field `file`) must be valid against the event "
        "file's JSON Schema and its references must hold (start numbers that exist, one "
        "confirmed version per game, ...): a 400 names the JSON path of each problem, e.g. "
        '`{"players": [{}, {"number": ["\'two\' is not of type \'integer\'"]}]}`. A '
        "slug already taken is a 409 naming `tournament.slug` (give another as `slug`). "
        "Accounts do not travel: the importing user is stamped as who "
        "entered, confirmed, recorded and voided everything, with the document's times. "
        "The standings are recomputed from the results and come out the same, ties "
        "included (each player's `lot` is kept).",
        request={"multipart/form-data": EventFileImportInSerializer},
        responses={
            201: ImportedOutSerializer,
            202: OpenApiResponse(
                ImportJobOutSerializer,
                description="A file larger than the site's `EVENT_FILE_REQUEST_BYTES`: "
                "imported by a background job; poll its `url`.",
            ),
            **errors(400, 401, 403, 409),
        },
        examples=[
            OpenApiExample(
                "Imported",
                value={"slug": "club-open", "name": "Club Open", "players": 24, "rounds": 4},
                response_only=True,
                status_codes=["201"],
            ),
            OpenApiExample(
                "Slug taken",
                value={"tournament": {"slug": [SLUG_TAKEN]}},
                response_only=True,
                status_codes=["409"],
            ),
        ],
    )
    def post(self, request: Any) -> Response:
        data = valid(EventFileImportInSerializer, request.data)
        tournament = event_file_upload(
            by=request.user, upload=data["file"], slug=data.get("slug") or None
        )
        if isinstance(tournament, ExportJob):
            out = _job_out(tournament)
            return Response(out, status=status.HTTP_202_ACCEPTED, headers={"Location": out["url"]})
        return Response(
            {
                "slug": tournament.slug,
                "name": tournament.name,
                "players": tournament.players.count(),
                "rounds": tournament.rounds.count(),
            },
            status=status.HTTP_201_CREATED,
        )
