"""The OpenAPI schema (`/api/v1/schema/`), built once per process and served from memory.

Building the schema walks every view and serializer of the API (a quarter to half a
second on a quiet machine, over ten seconds on a cold worker under load) and rendering
it (some 600 KB of YAML or JSON) costs more again; it only changes with the code. So
each process builds and renders it the first time it is asked for it, once per
variant, and answers the same bytes after that.

Terms:
* variant — what the schema's bytes depend on: its language (`?lang=`, else the
  request's), the API version asked for, and the format chosen by content negotiation
  (YAML or JSON, with the media type's parameters such as `indent`). The schema is the
  public one (`SERVE_PUBLIC`): it does not depend on who asks.
* schema scope — anonymous callers are throttled on this address by a rate of its own
  (`schema` in `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`, `API_THROTTLE_SCHEMA`, 30 a
  minute per address by default) besides the `anon` rate of every API read: a reader of
  the API docs loads it once, and a loop fetching it cannot keep the workers busy.

Only how the schema is served lives here; what it says comes from the views, serializers
and `SPECTACULAR_SETTINGS` (its hooks). Changing any setting (a test's override) forgets
what was built.
"""

from __future__ import annotations

from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpResponse
from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle

from .api import AnonThrottle, UserThrottle, _RatesFromSettings

# This process's rendered schemas: variant -> (content type, body as the renderer gave it).
_built: dict[tuple[str, ...], tuple[str, str | bytes]] = {}


@receiver(setting_changed)
def _settings_changed(**kwargs: Any) -> None:
    _built.clear()


class SchemaThrottle(_RatesFromSettings, AnonRateThrottle):
    """Anonymous requests for the schema, per IP address: scope `schema` (signed-in
    callers are not counted here; their `user` rate applies)."""

    scope = "schema"


class SchemaView(SpectacularAPIView):
    """drf-spectacular's schema view, answering each variant from this process's memory
    after the first build."""

    throttle_classes = [AnonThrottle, UserThrottle, SchemaThrottle]

    def _get_schema_response(self, request: Request) -> HttpResponse:
        version = self.api_version or request.version or self._get_version_parameter(request)
        renderer, media_type = request.accepted_renderer, request.accepted_media_type
        variant = (translation.get_language() or "", str(version), renderer.format, media_type)
        built = _built.get(variant)
        if built is None:
            generator = self.generator_class(
                urlconf=self.urlconf, api_version=version, patterns=self.patterns
            )
            schema = generator.get_schema(request=request, public=self.serve_public)
            content = renderer.render(schema, media_type, self.get_renderer_context())
            charset = getattr(renderer, "charset", None)
            content_type = f"{media_type}; charset={charset}" if charset else media_type
            built = _built[variant] = (content_type, content)
        content_type, content = built
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = (
            f'inline; filename="{self._get_filename(request, version)}"'
        )
        return response
