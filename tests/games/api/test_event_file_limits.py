"""Bad event files are clear answers: a file nested deeper than the
schema needs, or holding a number too long to read, is a 400 naming `file` through the
API and an error beside the field on the import page — never a RecursionError's 500 — and
nothing is saved."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.services.event_file.load import MAX_EVENT_FILE_DEPTH, json_depth
from tests.api import rows
from tests.games.helpers import enter_rummikub

pytestmark = pytest.mark.django_db

DEEP = b"[" * 100_000 + b"]" * 100_000


def upload(data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("event.json", data, content_type="application/json")


def test_a_real_event_file_nests_well_within_the_limit(client_for, tournament, game, bob):
    enter_rummikub(game, bob)
    document = client_for("bob").get(f"/api/v1/tournaments/{tournament.slug}/event-file/").json()
    text = json.dumps(document)
    assert 6 <= json_depth(text) <= MAX_EVENT_FILE_DEPTH // 2
    # Brackets inside strings are not nesting.
    assert json_depth('{"name": "[[[[{{{{\\"]]"}') == 1


def test_a_deeply_nested_file_is_a_400_through_the_api(client_for):
    before = rows()
    carol = client_for("carol")
    for data in (DEEP, b'{"players": ' + b"[" * 33 + b"]" * 33 + b"}"):
        answer = carol.post("/api/v1/event-files/", {"file": upload(data)}, format="multipart")
        assert answer.status_code == 400
        assert answer.json() == {
            "file": [f"nests arrays and objects more than {MAX_EVENT_FILE_DEPTH} levels deep."]
        }
    long_number = b'{"format_version": ' + b"9" * 5000 + b"}"
    answer = carol.post("/api/v1/event-files/", {"file": upload(long_number)}, format="multipart")
    assert answer.status_code == 400
    assert answer.json() == {"file": ["holds a number too long to read."]}
    assert rows() == before


def test_a_deeply_nested_file_is_an_error_beside_the_field_on_the_import_page(carol):
    page = Client()
    page.force_login(carol)
    before = rows()
    answer = page.post("/event-files/import/", {"file": upload(DEEP)})
    assert answer.status_code == 200
    errors = answer.context["form"].errors["file"]
    assert errors == [f"nests arrays and objects more than {MAX_EVENT_FILE_DEPTH} levels deep."]
    assert rows() == before
