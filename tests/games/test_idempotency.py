"""A result submission sent twice lands once: the idempotency key (service, API header,
the table page's hidden field), a key reused with another body refused, and two copies
of one submission racing on PostgreSQL."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction
from django.test import Client

from games.models import RackEntry, Result
from games.services.results import IdempotencyKeyReused, ResultConflict, result_submit
from scoring.errors import RuleError
from tests.factories import make_tournament, open_round
from tests.games.helpers import rummikub_racks, seated
from tests.games.test_views import GOOD, entry, game_of, table_url
from tests.web import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=4)
    return open_round(tournament, alice).tables.get().games.get(number=1)


def submit(game, by, key, *losers: str, based_on: int = 0) -> Result:
    return result_submit(
        game=game,
        by=by,
        based_on=based_on,
        end="rummikub",
        winner=seated(game)[0],
        racks=rummikub_racks(game, *(losers or ("R4 B10 K2", "J 7", "O3"))),
        idempotency_key=key,
    )


# --- service --------------------------------------------------------------------------------


def test_the_same_key_answers_the_first_version(game, bob):
    first = submit(game, bob, "k-1")
    again = submit(game, bob, "k-1")
    assert (first.replayed, again.replayed) == (False, True)
    assert again.pk == first.pk and again.version == 1
    assert Result.objects.filter(game=game).count() == 1
    assert RackEntry.objects.filter(result__game=game).count() == 4
    assert Result.objects.get().status == "confirmed"  # the replay superseded nothing
    tournament = game.table.round.tournament
    tournament.refresh_from_db()
    assert tournament.results_version == 4 + 1  # 4 players + one landed result


def test_a_correction_with_a_new_key_is_a_new_version(game, bob):
    submit(game, bob, "k-1")
    second = submit(game, bob, "k-2", "R1", "R2", "R3", based_on=1)
    assert (second.version, second.replayed) == (2, False)
    # The old key still answers its own version, now superseded.
    replay = submit(game, bob, "k-1")
    assert (replay.version, replay.status) == (1, "superseded")


def test_a_key_reused_with_another_body_is_refused_naming_the_key(game, bob):
    submit(game, bob, "k-1")
    with pytest.raises(IdempotencyKeyReused) as refused:
        submit(game, bob, "k-1", "R1", "R2", "R3")
    assert refused.value.path == ("idempotency_key",)
    assert "'k-1'" in refused.value.message and "version 1" in refused.value.message
    assert Result.objects.filter(game=game).count() == 1


def test_without_a_key_a_resend_is_stale_not_a_duplicate(game, bob):
    submit(game, bob, None)
    with pytest.raises(ResultConflict):
        submit(game, bob, None)
    assert Result.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("key", ["has space", "x" * 65, 7, "ключ"])
def test_a_bad_key_is_named(game, bob, key):
    with pytest.raises(RuleError) as bad:
        submit(game, bob, key)
    assert bad.value.path == ("idempotency_key",)
    assert not Result.objects.exists()


def test_the_key_is_unique_per_game_in_the_database(game, bob):
    first = submit(game, bob, "k-1")
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(
            game=game, version=2, end="rummikub", status="discarded", submitted_by=bob,
            idempotency_key="k-1",
        )  # fmt: skip
    other = game.table.games.get(number=2)
    assert submit(other, bob, "k-1").version == 1  # another game may use the same key
    assert first.idempotency_key == "k-1"


def test_a_key_may_not_be_used_by_a_stranger(game, mallory, bob):
    submit(game, bob, "k-1")
    with pytest.raises(PermissionDenied):
        submit(game, mallory, "k-1")


# --- API ------------------------------------------------------------------------------------


@pytest.fixture
def api(bob):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(bob)
    return client


def body(game, *losers: str) -> dict:
    return {
        "based_on": 0,
        "end": "rummikub",
        "winner": seated(game)[0],
        "racks": rummikub_racks(game, *(losers or ("R4 B10 K2", "J 7", "O3"))),
    }


def test_api_answers_201_then_200_with_the_same_version(api, game):
    url = f"/api/v1/games/{game.id}/results/"
    key = str(uuid.uuid4())
    first = api.post(url, body(game), format="json", HTTP_IDEMPOTENCY_KEY=key)
    again = api.post(url, body(game), format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first
    assert Result.objects.filter(game=game).count() == 1


def test_api_key_with_another_body_is_409_naming_the_key(api, game):
    url = f"/api/v1/games/{game.id}/results/"
    api.post(url, body(game), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    answer = api.post(url, body(game, "R1", "R2", "R3"), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert answer.status_code == 409
    assert "idempotency_key" in answer.json() and answer.json()["version"] == 1
    assert Result.objects.filter(game=game).count() == 1


def test_api_bad_key_is_400(api, game):
    answer = api.post(
        f"/api/v1/games/{game.id}/results/",
        body(game),
        format="json",
        HTTP_IDEMPOTENCY_KEY="two words",
    )
    assert answer.status_code == 400 and "idempotency_key" in answer.json()


def test_schema_documents_the_header_and_the_200(api):
    schema = api.get("/api/v1/schema/?format=json").json()
    post = schema["paths"]["/api/v1/games/{id}/results/"]["post"]
    headers = [p for p in post["parameters"] if p["in"] == "header"]
    assert [h["name"] for h in headers] == ["Idempotency-Key"]
    assert {"200", "201", "409"} <= set(post["responses"])
    assert "Idempotency-Key" in post["description"]


# --- the table page -------------------------------------------------------------------------


def test_the_page_form_sent_twice_with_its_key_saves_once(as_user, club):
    game = game_of(club)
    client: Client = as_user("bob")
    form = entry(game, racks=GOOD) | {"idempotency_key": "page-key-1"}
    assert client.post(table_url(club), form).status_code == 302
    assert client.post(table_url(club), form).status_code == 302
    assert Result.objects.filter(game=game).count() == 1
    page = text(client.get(table_url(club)))
    assert "Game 1: version 1 was saved already" in page
    assert 'name="idempotency_key"' in page and "data-offline" in page


def test_an_offline_script_submit_gets_204_and_the_message_waits(as_user, club):
    """offline.js asks with X-Offline-Submit: the redirect becomes 204 + X-Location, so
    the "saved" message is still there for the page it opens."""
    game = game_of(club)
    client: Client = as_user("bob")
    form = entry(game, racks=GOOD) | {"idempotency_key": "page-key-2"}
    answer = client.post(table_url(club), form, HTTP_X_OFFLINE_SUBMIT="1")
    assert answer.status_code == 204
    # Saved: the table page opens the next game without a result.
    assert answer["X-Location"].endswith(table_url(club) + "?game=2#game-2")
    assert "Game 1: version 1 saved" in text(client.get(table_url(club)))
    # A form with errors is answered as usual (200, the errors beside the fields).
    bad = entry(game_of(club, 2), racks=({"tiles": "X9"},) * 4)
    assert client.post(table_url(club), bad, HTTP_X_OFFLINE_SUBMIT="1").status_code == 200


# --- a race on PostgreSQL -------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_copies_of_one_submission_at_once_land_once(postgres, alice, bob):
    tournament = make_tournament(alice, players=4, scorekeepers=[bob])
    game = open_round(tournament, alice).tables.get().games.get(number=1)
    for attempt in range(20):
        key = f"race-{attempt}"
        barrier = threading.Barrier(2)
        outcome: list[object] = [None, None]

        def send(slot: int, key=key, barrier=barrier, outcome=outcome, attempt=attempt):
            try:
                barrier.wait(timeout=10)
                result = submit(
                    game, bob, key, "R1", "R2", f"K{attempt % 13 + 1}", based_on=attempt
                )
                outcome[slot] = (result.version, result.replayed)
            except Exception as error:
                outcome[slot] = error
            finally:
                connection.close()

        threads = [threading.Thread(target=send, args=(slot,)) for slot in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert sorted(outcome) == [(attempt + 1, False), (attempt + 1, True)], outcome
    assert Result.objects.filter(game=game).count() == 20
    assert RackEntry.objects.filter(result__game=game).count() == 20 * 4
