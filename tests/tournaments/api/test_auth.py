"""Token auth, 401 versus 403, throttling, the schema and the docs, and the error mapping
that every endpoint shares (malformed bodies never reach a 500)."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.api import rows

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/v1/auth/token/"


def test_token_for_username_and_password(bob):
    response = APIClient().post(
        TOKEN_URL, {"username": "bob", "password": "bob-pass-123"}, format="json"
    )
    assert response.status_code == 200
    assert response.json() == {"token": Token.objects.get(user=bob).key}
    # The same token the next time.
    again = APIClient().post(TOKEN_URL, {"username": "bob", "password": "bob-pass-123"})
    assert again.json() == response.json()


def test_token_refused_for_a_wrong_password(bob):
    response = APIClient().post(TOKEN_URL, {"username": "bob", "password": "nope"}, format="json")
    assert response.status_code == 400
    assert "non_field_errors" in response.json()
    assert not Token.objects.exists()


def test_token_names_missing_fields():
    response = APIClient().post(TOKEN_URL, {}, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"username", "password"}


def test_token_authenticates_later_requests(bob):
    token = APIClient().post(TOKEN_URL, {"username": "bob", "password": "bob-pass-123"}).json()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token['token']}")
    response = client.post("/api/v1/tournaments/", {"name": "Bob's Cup"}, format="json")
    assert response.status_code == 201


def test_no_credentials_is_401_with_www_authenticate():
    response = APIClient().post("/api/v1/tournaments/", {"name": "Cup"}, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_a_wrong_token_is_401():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert client.get("/api/v1/tournaments/").status_code == 401


def test_session_login_works_too(client, bob):
    client.force_login(bob)
    response = client.post("/api/v1/tournaments/", {"name": "Cup"}, content_type="application/json")
    assert response.status_code == 201


def test_token_endpoint_is_throttled_per_ip(settings, bob):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "1000/min", "user": "1000/min", "token": "3/min"},
    }
    client = APIClient()
    codes = [
        client.post(TOKEN_URL, {"username": "bob", "password": f"guess-{n}"}).status_code
        for n in range(4)
    ]
    assert codes == [400, 400, 400, 429]
    # Even the right password waits now: a guesser cannot tell.
    right = client.post(TOKEN_URL, {"username": "bob", "password": "bob-pass-123"})
    assert right.status_code == 429
    assert "Retry-After" in right
    # Another address is counted on its own.
    other = client.post(
        TOKEN_URL, {"username": "bob", "password": "bob-pass-123"}, REMOTE_ADDR="10.0.0.9"
    )
    assert other.status_code == 200
    # A forged X-Forwarded-For does not make a new address.
    forged = client.post(
        TOKEN_URL, {"username": "bob", "password": "guess"}, HTTP_X_FORWARDED_FOR="10.9.9.9"
    )
    assert forged.status_code == 429


def test_anonymous_reads_are_throttled(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "2/min", "user": "1000/min", "token": "10/min"},
    }
    client = APIClient()
    codes = [client.get("/api/v1/tournaments/").status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def test_default_rates_guard_the_token_endpoint(monkeypatch):
    import importlib

    import config.settings

    for name in (
        "API_THROTTLE_ANON",
        "API_THROTTLE_USER",
        "API_THROTTLE_TOKEN",
        "API_THROTTLE_SCHEMA",
    ):
        monkeypatch.delenv(name, raising=False)
    defaults = importlib.reload(config.settings).REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert defaults == {
        "anon": "120/minute",
        "user": "1200/minute",
        "token": "10/minute",
        "schema": "30/minute",
    }
    monkeypatch.setenv("API_THROTTLE_TOKEN", "3/minute")
    assert importlib.reload(config.settings).REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["token"] == (
        "3/minute"
    )
    monkeypatch.delenv("API_THROTTLE_TOKEN")
    importlib.reload(config.settings)


def test_schema_and_docs_are_served():
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "/api/v1/games/{id}/results/" in paths
    for operations in paths.values():
        for operation in operations.values():
            assert operation.get("description"), operation["operationId"]
    docs = APIClient().get("/api/v1/docs/")
    assert docs.status_code == 200
    # Swagger UI comes from the sidecar package, not a CDN: the docs work offline.
    assert b"swagger-ui" in docs.content
    assert b"cdn.jsdelivr" not in docs.content
    assert b"drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in docs.content
    assert finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")


def test_every_operation_has_an_example():
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    missing = []
    for path, operations in schema.json()["paths"].items():
        for method, operation in operations.items():
            bodies = [
                *operation.get("requestBody", {}).get("content", {}).values(),
                *(
                    content
                    for response in operation["responses"].values()
                    for content in response.get("content", {}).values()
                ),
            ]
            if not any("examples" in body for body in bodies):
                missing.append(f"{method.upper()} {path}")
    assert missing == []


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b'{"name": "Cup"', "application/json"),
        (b"[1, 2, 3]", "application/json"),
        (b'"just a string"', "application/json"),
        (b"null", "application/json"),
        (b'{"name": "\\ud800"}', "application/json"),
        (b'{"name": NaN}', "application/json"),
        (b'{"name": "Cup", "table_size": 1' + b"0" * 5000 + b"}", "application/json"),
        (b"\xff\xfe", "application/json"),
        (b"[" * 100_000 + b"]" * 100_000, "application/json"),
        (b'{"name": "Cup", "rules": {"a": ' + b"[" * 500 + b"]" * 500 + b"}}", "application/json"),
        (b'{"name": "Cup", "ranking": ' + b"[" * 25 + b"]" * 25 + b"}", "application/json"),
        (b"name=Cup", "text/plain"),
    ],
)
def test_malformed_bodies_are_400_or_415_never_500(client_for, body, content_type):
    before = rows()
    response = client_for("alice").generic(
        "POST", "/api/v1/tournaments/", body, content_type=content_type
    )
    assert response.status_code in (400, 415), response.content
    assert isinstance(response.json(), dict)
    assert rows() == before


def test_unknown_addresses_are_404(client_for):
    client = client_for("alice")
    assert client.get("/api/v1/tournaments/nope/").status_code == 404
    assert client.get("/api/v1/games/999999/").status_code == 404
    # Ids too long for any database column are simply unknown.
    assert client.get("/api/v1/games/" + "9" * 40 + "/").status_code == 404
    assert client.delete("/api/v1/penalties/" + "9" * 18 + "/").status_code == 404
