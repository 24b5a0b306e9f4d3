"""What the API views of every app share: reading a request body, finding the tournament
a URL names (or a 404), and documenting answers in the OpenAPI schema.

Terms:
* visible — a tournament the user may see (`tournaments.selectors.tournaments_visible_to`);
  any other, public or not, is a 404, so a private tournament stays invisible.
* raw JSON field — a body field passed to the service exactly as sent: the service
  validates it and names what is wrong (never checked twice, here and there).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.functional import cached_property
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from ..models import Tournament
from ..selectors import tournaments_visible_to


def valid(serializer_class: type[serializers.Serializer], data: Any, **kwargs: Any) -> dict:
    """The request body read by an input serializer; DRF's 400 when its shape is wrong."""
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def visible_tournament(request: Any, slug: str) -> Tournament:
    """The tournament, if this user may see it; 404 otherwise (private ones stay hidden)."""
    tournament = tournaments_visible_to(request.user).filter(slug=slug).first()
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament


class TournamentScoped:
    """For views under /tournaments/{slug}/: `self.tournament`, looked up once."""

    kwargs: dict[str, Any]
    request: Any

    @cached_property
    def tournament(self) -> Tournament:
        return visible_tournament(self.request, self.kwargs["slug"])

    def fake(self) -> bool:
        # drf-spectacular builds the schema with fake views that have no URL arguments.
        return getattr(self, "swagger_fake_view", False)


class RawJSONField(serializers.JSONField):
    """Passed to the service exactly as sent, which validates it and names what is wrong;
    the OpenAPI schema it documents is given per field (`schema=`)."""

    def __init__(self, *, schema: dict[str, Any], **kwargs: Any) -> None:
        self.openapi_schema = schema
        super().__init__(**kwargs)


class RawJSONFieldExtension(OpenApiSerializerFieldExtension):
    target_class = RawJSONField

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema = dict(self.target.openapi_schema)
        if self.target.allow_null:
            schema["nullable"] = True
        return schema


ERROR_MEANINGS = {
    400: "Bad input; the body names each wrong field.",
    401: "Credentials are needed (`Authorization: Token ...`).",
    403: "The user has no role that allows this.",
    404: "Unknown, or a private tournament the user has no role in.",
    409: "Conflicts with the current state, which changed or blocks it: a stale "
    "`based_on` (the body names `current_version`), a round already open (`last_round`), "
    "a simultaneous change, records that block a delete. Reload and retry.",
    429: "Too many requests; retry after the `Retry-After` seconds.",
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """Documented error answers for `extend_schema(responses=...)`."""
    return {
        code: OpenApiResponse(OpenApiTypes.OBJECT, description=ERROR_MEANINGS[code])
        for code in codes
    }
