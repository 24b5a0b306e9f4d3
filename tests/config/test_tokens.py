"""API tokens expire after API_TOKEN_DAYS and their owner can revoke them."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"
ME = "/api/v1/tournaments/"  # any request that needs credentials: creating a tournament


def get_token(username: str, password: str) -> str:
    response = APIClient().post(TOKEN, {"username": username, "password": password})
    assert response.status_code == 200, response.content
    assert set(response.json()) == {"token"}  # docs/api/index.md's shape, unchanged
    return response.json()["token"]


def client_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def age(key: str, days: float) -> None:
    Token.objects.filter(key=key).update(created=timezone.now() - timedelta(days=days))


def test_tokens_last_30_days_by_default(settings):
    assert settings.API_TOKEN_DAYS == 30


def test_a_token_works_until_it_is_too_old(settings, bob):
    settings.API_TOKEN_DAYS = 30
    key = get_token("bob", "bob-pass-123")
    age(key, 29.9)
    assert client_with(key).post(ME, {"name": "Cup"}, format="json").status_code == 201
    age(key, 30.1)
    response = client_with(key).post(ME, {"name": "Cup 2"}, format="json")
    assert response.status_code == 401
    assert "expired" in response.json()["detail"]
    assert response["WWW-Authenticate"] == "Token"
    # Even a read with the stale token says so, rather than silently acting anonymous.
    assert client_with(key).get(ME).status_code == 401


def test_signing_in_again_gives_a_new_token_once_the_old_one_expired(settings, bob):
    settings.API_TOKEN_DAYS = 30
    key = get_token("bob", "bob-pass-123")
    assert get_token("bob", "bob-pass-123") == key  # still valid: the same one
    age(key, 31)
    # The client may still send its expired token while asking for a new one.
    response = client_with(key).post(TOKEN, {"username": "bob", "password": "bob-pass-123"})
    assert response.status_code == 200
    fresh = response.json()["token"]
    assert fresh != key
    assert not Token.objects.filter(key=key).exists()
    assert client_with(fresh).post(ME, {"name": "Cup"}, format="json").status_code == 201


def test_api_token_days_0_means_tokens_never_expire(settings, bob):
    settings.API_TOKEN_DAYS = 0
    key = get_token("bob", "bob-pass-123")
    age(key, 3650)
    assert client_with(key).post(ME, {"name": "Cup"}, format="json").status_code == 201


def test_the_owner_revokes_their_token(bob, alice):
    key = get_token("bob", "bob-pass-123")
    other = get_token("alice", "alice-pass-123")
    response = client_with(key).delete(TOKEN)
    assert response.status_code == 204
    assert not Token.objects.filter(key=key).exists()
    assert client_with(key).post(ME, {"name": "Cup"}, format="json").status_code == 401
    # Only the caller's own: alice's token still works.
    assert client_with(other).post(ME, {"name": "Cup"}, format="json").status_code == 201
    # Signing in again issues a new one.
    assert get_token("bob", "bob-pass-123") != key


def test_revoking_needs_credentials():
    response = APIClient().delete(TOKEN)
    assert response.status_code == 401
    assert client_with("not-a-token").delete(TOKEN).status_code == 401


def test_revoking_with_a_session_deletes_the_users_token(bob):
    key = get_token("bob", "bob-pass-123")
    client = APIClient(enforce_csrf_checks=False)
    client.force_login(bob)
    assert client.delete(TOKEN).status_code == 204
    assert not Token.objects.filter(key=key).exists()
    assert client.delete(TOKEN).status_code == 204  # nothing left to revoke: still done


def test_revoke_is_not_counted_as_a_password_guess(settings, bob):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "1000/min", "user": "1000/min", "token": "1/min"},
    }
    key = get_token("bob", "bob-pass-123")
    assert client_with(key).delete(TOKEN).status_code == 204
    again = APIClient().post(TOKEN, {"username": "bob", "password": "bob-pass-123"})
    assert again.status_code == 429  # the password throttle is on, it just skips revokes


def test_the_schema_documents_expiry_and_revoke():
    schema = APIClient().get(TOKEN.replace("auth/token/", "schema/"), {"format": "json"}).json()
    operations = schema["paths"]["/api/v1/auth/token/"]
    assert set(operations) == {"post", "delete"}
    assert "204" in operations["delete"]["responses"]
    assert "401" in operations["delete"]["responses"]
    assert "API_TOKEN_DAYS" in operations["post"]["description"]
    assert "expired" in operations["post"]["description"]


def test_token_days_from_the_environment(monkeypatch):
    import config.settings

    monkeypatch.setenv("API_TOKEN_DAYS", "7")
    assert importlib.reload(config.settings).API_TOKEN_DAYS == 7
    monkeypatch.delenv("API_TOKEN_DAYS")
    assert importlib.reload(config.settings).API_TOKEN_DAYS == 30
