"""The OpenAPI schema is built once per process (config/api_schema.py) and anonymous
callers are throttled on it by a scope of their own."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from config import api_schema

JSON = "application/vnd.oai.openapi+json"


@pytest.fixture
def builds(monkeypatch):
    """Counts the schema builds (drf-spectacular's generator) from here on."""
    api_schema._built.clear()
    counted = []
    build = SchemaGenerator.get_schema

    def counting(self, *args, **kwargs):
        counted.append(1)
        return build(self, *args, **kwargs)

    monkeypatch.setattr(SchemaGenerator, "get_schema", counting)
    return counted


def test_the_schema_is_built_once_per_variant(db, builds):
    first = APIClient().get("/api/v1/schema/", HTTP_ACCEPT=JSON)
    again = APIClient().get("/api/v1/schema/", HTTP_ACCEPT=JSON)
    assert first.status_code == again.status_code == 200
    assert first.content == again.content
    assert first.json()["openapi"].startswith("3.")
    assert first["Content-Type"].startswith(JSON)
    assert len(builds) == 1  # the second request did not build it again
    yaml = APIClient().get("/api/v1/schema/")  # another format: rendered once more
    assert yaml["Content-Type"].startswith("application/vnd.oai.openapi")
    assert yaml.content.startswith(b"openapi:")
    assert len(builds) == 2
    dutch = APIClient().get("/api/v1/schema/?lang=nl", HTTP_ACCEPT=JSON)
    assert dutch.status_code == 200 and len(builds) == 3
    APIClient().get("/api/v1/schema/?lang=nl", HTTP_ACCEPT=JSON)
    assert len(builds) == 3


def test_anonymous_callers_are_throttled_on_the_schema(db, builds, settings, alice):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "anon": "1000/minute",
            "user": "1000/minute",
            "schema": "2/minute",
        },
    }
    anonymous = APIClient(REMOTE_ADDR="127.0.0.9")
    statuses = [anonymous.get("/api/v1/schema/", HTTP_ACCEPT=JSON).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    # Other API reads from that address are not held back by the schema's scope...
    assert anonymous.get("/api/v1/tournaments/").status_code == 200
    # ...and a signed-in caller is counted by the user rate alone.
    signed_in = APIClient(REMOTE_ADDR="127.0.0.9")
    signed_in.force_authenticate(alice)
    assert all(
        signed_in.get("/api/v1/schema/", HTTP_ACCEPT=JSON).status_code == 200 for _ in range(3)
    )
