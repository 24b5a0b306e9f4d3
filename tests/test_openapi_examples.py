"""Every example in the served OpenAPI schema matches the schema it illustrates.

drf-spectacular wraps a list endpoint's example in a list itself, so an example written as
a list came out as a list of lists; nothing caught it. This test validates each request
and response example against its operation's schema with jsonschema, the components
resolved. OpenAPI 3.0's `nullable` is turned into JSON Schema's `"null"` type first.
"""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator

# One xdist worker runs this module's tests (the module's schema is built once).
pytestmark = pytest.mark.xdist_group("openapi_examples")


def _nullable(node: Any) -> Any:
    """OpenAPI 3.0 `nullable: true` → JSON Schema (the null type, or anyOf with null)."""
    if isinstance(node, list):
        return [_nullable(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _nullable(value) for key, value in node.items()}
    if node.pop("nullable", False):
        if isinstance(node.get("type"), str):
            node["type"] = [node["type"], "null"]
            if "enum" in node:
                node["enum"] = [*node["enum"], None]
        else:
            node = {"anyOf": [node, {"type": "null"}]}
    return node


@pytest.fixture(scope="module")
def schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def _examples(schema: dict):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            bodies = []
            request = operation.get("requestBody", {}).get("content", {})
            bodies += [("request", ct, body) for ct, body in request.items()]
            for code, response in operation.get("responses", {}).items():
                content = response.get("content") or {}
                bodies += [(code, ct, body) for ct, body in content.items()]
            for where, content_type, body in bodies:
                if "json" not in content_type or "schema" not in body:
                    continue
                for name, example in (body.get("examples") or {}).items():
                    if "value" in example:
                        yield f"{method.upper()} {path} {where} {name}", body["schema"], example
                    # (examples given as external values are not ours)


def test_every_example_matches_its_schema(schema):
    components = _nullable(copy.deepcopy(schema.get("components", {})))
    wrong = []
    checked = 0
    for label, body_schema, example in _examples(schema):
        document = {**_nullable(copy.deepcopy(body_schema)), "components": components}
        validator = jsonschema.Draft202012Validator(document)
        errors = sorted(validator.iter_errors(example["value"]), key=lambda e: list(e.path))
        checked += 1
        if errors:
            first = errors[0]
            wrong.append(f"{label}: {list(first.absolute_path)}: {first.message[:160]}")
    assert checked > 50  # the schema's examples were found at all
    assert wrong == []


def test_a_list_of_lists_example_is_caught():
    """The check above fails on the kind of example it was written for."""
    body = {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}}}}
    errors = list(jsonschema.Draft202012Validator(body).iter_errors([[{"id": 1}]]))
    assert errors
