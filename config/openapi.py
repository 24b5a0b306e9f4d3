"""The OpenAPI contract's rules, applied to every operation in one place: the AutoSchema
the API's views are described with and the postprocessing hook drf-spectacular runs on
the whole document (docs/api/index.md#the-contract).

Terms:
* body media type — what a request body is advertised as. JSON only: the strict input
  fields refuse form fields' strings where a number or a boolean belongs, so a body sent
  form-encoded or as multipart could never carry them. The file uploads (the players CSV,
  the event file) say `multipart/form-data` and nothing else, from their own views.
  Decision: only the advertisement changes; the parsers the server runs stay as they were.
* error answer — every answer 4xx is JSON, in one of three shapes (`config.api`):
  `ErrorDetail` (`{"detail": "..."}`: 401, 403, 404, 405, 413, 415, 429), `FieldErrors`
  (400: each wrong field names its problems, nested like the body), `Conflict` (409: as
  400, on the field in conflict, plus what a retry needs, e.g. `current_version`).
* standard errors — the answers an operation can give whatever it does, added here so
  that no view can forget one: 401 (a token that is invalid or expired, on any request;
  no token at all, on a write), 429 (throttles) on every operation; 404 where the path
  names something or a page is asked for; 400 where a body or a query is read; 403, 409
  (a finished tournament, a simultaneous change) on every write except signing in and
  out; 413 and 415 where a body is read.
* strict input — an input serializer (`tournaments.api.common.StrictInput`) refuses keys
  it does not declare: its schema says `additionalProperties: false`.
"""

from __future__ import annotations

import re
from copy import deepcopy
from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import get_doc
from rest_framework.parsers import JSONParser

from games.services.event_file.schema import event_file_schema
from tournaments.api.common import ERROR_MEANINGS, StrictInput

JSON = "application/json"
MULTIPART = "multipart/form-data"
WRITES = {"post", "put", "patch", "delete"}
MAX_SMALL_NUMBER = 32_767  # round, stage and table numbers: PostgreSQL's smallint

ERROR_SCHEMAS: dict[str, dict[str, Any]] = {
    "ErrorDetail": {
        "type": "object",
        "description": "What went wrong, in the request's language.",
        "properties": {"detail": {"type": "string"}},
        "required": ["detail"],
    },
    "FieldErrors": {
        "type": "object",
        "description": "Each wrong field of the body or the query names its problems: a "
        "list of messages, an object for a nested object, a list (one entry per item, `{}` "
        "for a good one) for a list of objects; problems of no single field are under "
        "`non_field_errors`. At most 20 problems are listed; `more_errors` counts the rest.",
        "additionalProperties": {},
        "example": {"racks": [{}, {"tiles": ["'R14' is not a tile."]}]},
    },
    "Conflict": {
        "type": "object",
        "description": "The field in conflict names the problem, as a 400 does; a stale "
        "`based_on` adds `current_version`, a round already open `last_round`.",
        "additionalProperties": {},
        "example": {
            "status": [
                "the tournament is finished; an organiser must reopen it (status running) "
                "before results, penalties, players or rounds change."
            ]
        },
    },
}
# The event file (its export) and its JSON Schema (a JSON Schema document, untyped here).
SCHEMA_PATH = "/api/v1/event-file.schema.json"
EVENT_FILE_PATHS = {"/api/v1/tournaments/{slug}/event-file/": "EventFile"}
SHAPE_OF = {400: "FieldErrors", 409: "Conflict"}

MEANINGS = {
    **ERROR_MEANINGS,
    401: "Credentials are needed (`Authorization: Token ...`) for a write, or the token "
    "sent is invalid or expired (on any request).",
    404: "Unknown, or a private tournament the user has no role in; a page past the "
    "last (`page=0` included).",
    409: "Conflicts with the current state, which changed or blocks it: a finished "
    "tournament (reopen it first), a stale `based_on` (the body names `current_version`), "
    "a round already open (`last_round`), a simultaneous change, records that block a "
    "delete. Reload and retry.",
    413: "The body is larger than the API takes (256 KB; a CSV or event file has its own limit).",
    415: "The body is not JSON (or, for a file upload, not multipart/form-data).",
}


class ContractAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema with the contract's rules for bodies (see above)."""

    def map_parsers(self) -> list[str]:
        parsers = self.view.get_parsers()
        if any(isinstance(parser, JSONParser) for parser in parsers):
            return [JSON]
        return super().map_parsers()

    def _map_basic_serializer(self, serializer: Any, direction: str) -> dict[str, Any]:
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and isinstance(serializer, StrictInput) and serializer.fields:
            schema["additionalProperties"] = False
            if schema.get("description") == get_doc(StrictInput):
                del schema["description"]  # the base class's docstring says nothing here
        return schema

    def _get_request_for_media_type(self, serializer: Any, direction: str = "request") -> Any:
        # A PATCH is described as partial (every field optional) unless its view reads
        # the whole body (`whole_on_patch` on the input serializer, e.g. a staff role).
        if self.method == "PATCH" and getattr(serializer, "whole_on_patch", False):
            self.method = "PUT"
            try:
                return super()._get_request_for_media_type(serializer, direction)
            finally:
                self.method = "PATCH"
        return super()._get_request_for_media_type(serializer, direction)

    def get_operation_id(self) -> str:
        # Generators make identifiers of these: `standings.csv_retrieve` is no name.
        return re.sub(r"[^A-Za-z0-9_]", "_", super().get_operation_id())


# --- the event file, typed from its JSON Schema ----------------------------------------------


def event_file_components() -> dict[str, dict[str, Any]]:
    """The published JSON Schema (draft 2020-12) as OpenAPI 3.0 components: `EventFile`
    and one `EventFile<Def>` per `$defs` entry. Converted, never copied: `const` becomes a
    one-value `enum`, a type list with "null" becomes `nullable`, `$defs` references point
    at the components, `propertyNames` (not in 3.0) goes: the JSON Schema still checks it."""
    source = event_file_schema()
    components = {"EventFile": _converted(source)}
    for name, definition in source.get("$defs", {}).items():
        components["EventFile" + _camel(name)] = _converted(definition)
    return components


# Not in OpenAPI 3.0 (the JSON Schema still checks them), or naming the generated class
# after the title instead of EventFile.
DROPPED = {"$schema", "$id", "$defs", "title", "propertyNames"}


def _converted(node: Any) -> Any:
    if isinstance(node, list):
        return [_converted(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in DROPPED:
            continue
        if key == "$ref":
            out[key] = "#/components/schemas/EventFile" + _camel(value.rsplit("/", 1)[1])
        elif key == "const":
            out["enum"] = [value]
        elif key == "type" and isinstance(value, list):
            out["type"] = next(kind for kind in value if kind != "null")
            if "null" in value:
                out["nullable"] = True
        elif key == "properties":
            out[key] = {name: _converted(sub) for name, sub in value.items()}
        else:
            out[key] = _converted(value)
    if None in out.get("enum", ()):
        out["nullable"] = True
    if "$ref" in out and len(out) > 1:  # OpenAPI 3.0 ignores siblings of a $ref
        return {"allOf": [{"$ref": out.pop("$ref")}], **out}
    return out


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[_\-]", name))


# --- the hook ---------------------------------------------------------------------------------


def _error_response(code: int, description: str | None = None) -> dict[str, Any]:
    shape = SHAPE_OF.get(code, "ErrorDetail")
    return {
        "description": description or MEANINGS[code],
        "content": {JSON: {"schema": {"$ref": f"#/components/schemas/{shape}"}}},
    }


def _standard_errors(path: str, method: str, operation: dict[str, Any]) -> set[int]:
    query = [p for p in operation.get("parameters", []) if p.get("in") == "query"]
    has_body = "requestBody" in operation
    codes = {401, 429}
    if "{" in path or any(p["name"] == "page" for p in query):
        codes.add(404)
    if has_body or query:
        codes.add(400)
    if method in WRITES and not path.startswith("/api/v1/auth/"):
        codes |= {403, 409}
    if has_body:
        codes |= {413, 415}
    return codes


def _state_constraints(path: str, operation: dict[str, Any]) -> None:
    """Bounds the server enforces on parameters, stated."""
    for parameter in operation.get("parameters", []):
        schema = parameter.setdefault("schema", {})
        if parameter["in"] == "path" and parameter["name"] == "number":
            schema["maximum"] = MAX_SMALL_NUMBER
            schema["minimum"] = max(schema.get("minimum", 0), 0)
        if parameter["in"] == "query" and parameter["name"] == "page":
            schema["minimum"] = 1
            parameter["description"] = (
                "A page number (from 1); a page past the last, or 0, is a 404."
            )
        if parameter["in"] == "query" and parameter["name"] == "page_size":
            schema.update(minimum=1, maximum=200)


def postprocess(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    """drf-spectacular's POSTPROCESSING_HOOKS entry: errors, constraints, the event file."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(deepcopy(ERROR_SCHEMAS))
    schemas.update(event_file_components())
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            # A `format` query parameter only picks a renderer DRF already picks from
            # `Accept`; the CSV endpoints answer CSV either way.
            parameters = [
                p
                for p in operation.pop("parameters", [])
                if not (p.get("in") == "query" and p.get("name") == "format")
            ]
            if parameters:
                operation["parameters"] = parameters
            _state_constraints(path, operation)
            if path == SCHEMA_PATH and "200" in operation["responses"]:
                content = operation["responses"]["200"].get("content", {})
                if JSON in content:  # served as what it is, a JSON Schema document
                    content["application/schema+json"] = content.pop(JSON)
            if path in EVENT_FILE_PATHS and method == "get":
                for content in operation["responses"]["200"].get("content", {}).values():
                    content["schema"] = {"$ref": f"#/components/schemas/{EVENT_FILE_PATHS[path]}"}
            responses = operation.setdefault("responses", {})
            codes = _standard_errors(path, method, operation) | {
                int(code) for code in responses if str(code).startswith("4")
            }
            for code in sorted(codes):
                documented = responses.get(str(code), {})
                described = documented.get("description")
                if described in {None, "", ERROR_MEANINGS.get(code)}:
                    described = None
                responses[str(code)] = _error_response(code, described)
                examples = {
                    name: example
                    for content in documented.get("content", {}).values()
                    for name, example in content.get("examples", {}).items()
                }
                if examples:  # the view's own examples of this answer stay
                    responses[str(code)]["content"][JSON]["examples"] = examples
    return result
