"""API: the event file's schema, a tournament's export, and the import of a file."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.services.event_file.schema import SCHEMA_PATH
from tests.api import rows
from tests.games.helpers import enter_rummikub
from tests.games.test_event_file_stages import exported, saved, staged  # noqa: F401 - a fixture
from tournaments.models import Tournament
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db


def upload(document: object, name: str = "event.json") -> SimpleUploadedFile:
    text = document if isinstance(document, bytes) else json.dumps(document).encode()
    return SimpleUploadedFile(name, text, content_type="application/json")


def test_the_schema_is_served_as_kept_in_the_repository(client_for):
    answer = client_for("anon").get("/api/v1/event-file.schema.json")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/schema+json")
    assert json.loads(answer.content) == json.loads(Path(SCHEMA_PATH).read_text())
    jsonschema.Draft202012Validator.check_schema(json.loads(answer.content))


def test_anyone_who_may_see_it_exports_a_valid_file(client_for, tournament, game, bob):
    enter_rummikub(game, bob)
    answer = client_for("anon").get(f"/api/v1/tournaments/{tournament.slug}/event-file/")
    assert answer.status_code == 200
    assert "attachment" in answer["Content-Disposition"]
    document = answer.json()
    schema = client_for("anon").get("/api/v1/event-file.schema.json").json()
    jsonschema.Draft202012Validator(schema).validate(document)
    assert len(document["players"]) == 8
    assert document["standings"]["rows"][0]["metrics"]["games_won"] == 1


def test_a_private_tournament_is_not_exported_to_strangers(client_for, tournament, alice):
    tournament_update(tournament=tournament, by=alice, public=False)
    url = f"/api/v1/tournaments/{tournament.slug}/event-file/"
    assert client_for("anon").get(url).status_code == 404
    assert client_for("mallory").get(url).status_code == 404
    assert client_for("bob").get(url).status_code == 200


def test_import_round_trips_through_the_api(client_for, tournament, game, bob):
    enter_rummikub(game, bob)
    document = client_for("bob").get(f"/api/v1/tournaments/{tournament.slug}/event-file/").json()
    carol = client_for("carol")

    taken = carol.post("/api/v1/event-files/", {"file": upload(document)}, format="multipart")
    assert taken.status_code == 409
    assert "slug" in taken.json()["tournament"]

    answer = carol.post(
        "/api/v1/event-files/", {"file": upload(document), "slug": "copy"}, format="multipart"
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json() == {"slug": "copy", "name": "Club Open", "players": 8, "rounds": 1}
    copied = carol.get("/api/v1/tournaments/copy/standings/").json()["rows"]
    original = carol.get(f"/api/v1/tournaments/{tournament.slug}/standings/").json()["rows"]
    assert [(r["rank"], r["player"]["number"], r["metrics"]) for r in copied] == [
        (r["rank"], r["player"]["number"], r["metrics"]) for r in original
    ]
    # The importer organises the copy.
    assert carol.patch("/api/v1/tournaments/copy/", {"name": "Copy"}).status_code == 200


def test_a_bad_document_is_a_400_naming_the_path(client_for, tournament):
    document = client_for("alice").get(f"/api/v1/tournaments/{tournament.slug}/event-file/").json()
    document["players"][1]["number"] = "two"
    before = rows()
    answer = client_for("carol").post(
        "/api/v1/event-files/", {"file": upload(document), "slug": "bad"}, format="multipart"
    )
    assert answer.status_code == 400
    assert "number" in answer.json()["players"][1]
    assert rows() == before


def test_a_file_that_is_not_json_is_a_400_on_file(client_for):
    answer = client_for("carol").post(
        "/api/v1/event-files/", {"file": upload(b"{nope")}, format="multipart"
    )
    assert answer.status_code == 400
    assert "is not JSON" in answer.json()["file"][0]


def test_only_a_signed_in_user_imports(client_for, tournament):
    document = client_for("anon").get(f"/api/v1/tournaments/{tournament.slug}/event-file/").json()
    answer = client_for("anon").post(
        "/api/v1/event-files/", {"file": upload(document), "slug": "anon"}, format="multipart"
    )
    assert answer.status_code == 401
    assert not Tournament.objects.filter(slug="anon").exists()


def test_a_bad_stage_is_a_400_naming_its_path(client_for, staged):  # noqa: F811
    document = exported(staged)
    document["stages"][1]["cut_top"] = None
    document["rounds"][2]["stage"] = 9
    before = saved()
    answer = client_for("carol").post(
        "/api/v1/event-files/", {"file": upload(document), "slug": "bad"}, format="multipart"
    )
    assert answer.status_code == 400
    assert "cut_top" in answer.json()["stages"][1]
    assert "stage" in answer.json()["rounds"][2]
    assert saved() == before
