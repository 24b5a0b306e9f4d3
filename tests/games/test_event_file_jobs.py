"""Event files at federation size (`games.services.export_jobs.event_file_upload`): a
file above `EVENT_FILE_REQUEST_BYTES` is imported by a background job that the page and
the API follow; one above `EVENT_FILE_MAX_BYTES` is refused naming the limit, and
nothing is saved."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import ExportJob
from tests.games.test_event_file import exported, played, standings_of, upload  # noqa: F401
from tournaments.models import StaffMember, Tournament


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture(autouse=True)
def _small_limits(settings, tmp_path):
    settings.EXPORT_DIR = tmp_path / "exports"
    settings.EVENT_FILE_REQUEST_BYTES = 1000  # the test file is some 20 KB: a job
    settings.EVENT_FILE_MAX_BYTES = 200_000


def test_a_large_file_is_imported_by_a_job_the_page_follows(
    played,  # noqa: F811
    as_user,
    carol,
    django_capture_on_commit_callbacks,
):
    client = as_user("carol")
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = client.post(
            reverse("event-file-import"), {"file": upload(exported(played)), "slug": "copy"}
        )
    job = ExportJob.objects.get()
    assert response["Location"] == reverse("event-file-import-job", args=[job.pk])
    assert not Tournament.objects.filter(slug="copy").exists()  # not in the request
    page = client.get(response["Location"]).content.decode()
    assert "Waiting for a worker" in page and 'hx-trigger="every 1s"' in page
    for callback in queued:
        callback()
    job.refresh_from_db()
    assert (job.status, job.result, job.file.name) == ("done", "copy", "")
    copy = Tournament.objects.get(slug="copy")
    assert standings_of(copy) == standings_of(played)
    assert StaffMember.objects.get(tournament=copy).user == carol
    page = client.get(response["Location"], HTTP_HX_REQUEST="true").content.decode()
    assert reverse("tournament-detail", args=["copy"]) in page and "hx-trigger" not in page
    # Only the uploader follows it.
    assert as_user("alice").get(response["Location"]).status_code == 404


def test_a_broken_large_file_fails_its_job_naming_the_path(
    played,  # noqa: F811
    as_user,
    django_capture_on_commit_callbacks,
):
    document = exported(played)
    document["players"][0]["name"] = ""
    with django_capture_on_commit_callbacks(execute=True):
        response = as_user("carol").post(
            reverse("event-file-import"), {"file": upload(document), "slug": "broken"}
        )
    job = ExportJob.objects.get()
    assert job.status == "failed" and "players[0].name" in job.error
    assert "players[0].name" in as_user("carol").get(response["Location"]).content.decode()
    assert not Tournament.objects.filter(slug="broken").exists()
    assert not job.file  # the upload is not kept


def test_a_file_above_the_limit_is_refused_naming_it(played, as_user, carol, settings):  # noqa: F811
    settings.EVENT_FILE_MAX_BYTES = 5000
    client = as_user("carol")
    page = client.post(reverse("event-file-import"), {"file": upload(exported(played))})
    assert page.status_code == 200
    assert "the most this site imports" in str(page.context["form"].errors)
    settings.EVENT_FILE_MAX_BYTES = 1024 * 1024  # 1 MiB: named as such
    settings.EVENT_FILE_REQUEST_BYTES = 2_000_000
    big = exported(played)
    big["players"][0]["club"] = "x" * (1024 * 1024)
    api = api_as(carol)
    response = api.post(
        reverse("api-event-files"), {"file": upload(big), "slug": "big"}, format="multipart"
    )
    assert response.status_code == 400
    assert "larger than 1.0 MiB, the most this site imports" in str(response.json()["file"])
    assert not ExportJob.objects.exists()
    assert Tournament.objects.filter(slug="big").count() == 0


def test_the_api_answers_202_and_the_job_says_when_it_is_done(
    played,  # noqa: F811
    carol,
    alice,
    django_capture_on_commit_callbacks,
):
    api = api_as(carol)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            reverse("api-event-files"),
            {"file": upload(exported(played)), "slug": "api-copy"},
            format="multipart",
        )
    assert response.status_code == 202
    body = response.json()
    assert response["Location"] == body["url"]
    polled = api.get(body["url"]).json()
    assert (polled["status"], polled["tournament"]) == ("done", "api-copy")
    assert Tournament.objects.filter(slug="api-copy").exists()
    assert api_as(alice).get(body["url"]).status_code == 404


def test_a_small_file_of_many_rows_is_imported_by_a_job(
    played,  # noqa: F811
    as_user,
    settings,
    django_capture_on_commit_callbacks,
):
    """Bytes alone do not say what an import costs: a file under the byte limit with more
    players and racks than `EVENT_FILE_REQUEST_ROWS` (a 20,000-player field) goes to the
    job too."""
    settings.EVENT_FILE_REQUEST_BYTES = 4 * 1024 * 1024
    document = exported(played)
    settings.EVENT_FILE_REQUEST_ROWS = len(document["players"])  # the racks tip it over
    with django_capture_on_commit_callbacks(execute=True):
        response = as_user("carol").post(
            reverse("event-file-import"), {"file": upload(document), "slug": "many"}
        )
    job = ExportJob.objects.get()
    assert response["Location"] == reverse("event-file-import-job", args=[job.pk])
    assert (job.status, job.result) == ("done", "many")
    settings.EVENT_FILE_REQUEST_ROWS = 10_000  # the same file within the limit: at once
    response = as_user("carol").post(
        reverse("event-file-import"), {"file": upload(document), "slug": "few"}
    )
    assert response["Location"] == reverse("tournament-detail", args=["few"])
