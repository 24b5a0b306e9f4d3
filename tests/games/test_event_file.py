"""The open event file: export validates against its schema, and importing it elsewhere
gives the same tournament and the same standings (the round trip)."""

from __future__ import annotations

import copy
import json
import os

import jsonschema
import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game, Penalty, RackEntry, Result
from games.services.event_file.check import event_file_problems
from games.services.event_file.export import event_file_export
from games.services.event_file.load import event_file_import
from games.services.event_file.schema import event_file_schema
from games.services.results import penalty_record, penalty_void, result_submit
from games.services.standings import standings_recompute
from games.services.withdrawals import player_withdraw
from scoring.errors import Conflict, RuleError
from tests.api import rows
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, seated
from tests.threads import at_once
from tournaments.models import Player, StaffMember, Tournament
from tournaments.services.checkin import checkin_set
from tournaments.services.players import player_register

pytestmark = pytest.mark.django_db

USER_FIELDS = {"submitted_by", "confirmed_by", "recorded_by", "voided_by"}


@pytest.fixture
def played(alice, bob):
    """Two rounds of 8 players: a correction (a second version), a sanction and a voided
    timeout, a player withdrawn in round 1 (their table plays on), a late entry seated in
    round 2, and an absence checked in for round 3."""
    tournament = make_tournament(
        alice, name="Spring Open", scorekeepers=[bob], players=8, ranking=["games_won", "lot"]
    )
    round1 = open_round(tournament, alice)
    table1 = round1.tables.get(number=1)
    game1 = table1.games.get(number=1)
    enter_rummikub(game1, bob)
    enter_rummikub(game1, bob, "R9 B10 K2", "J", "O13", based_on=1)  # the correction
    for game in Game.objects.filter(table__round=round1).exclude(pk=game1.pk):
        if game.table_id == table1.pk and game.number > 1:
            continue
        enter_rummikub(game, bob)
    sanctioned = table1.seats.get(position=3).player
    penalty_record(game=game1, by=bob, player=sanctioned.pk, kind="sanction", points=7)
    timeout = penalty_record(game=game1, by=bob, player=sanctioned.pk, kind="timeout")
    penalty_void(penalty=timeout, by=alice)
    leaver = table1.seats.get(position=2).player
    player_withdraw(player=leaver, by=alice, unplayed="plays_on")
    present = [p for p in seated(game1) if p != leaver.pk]
    for game in table1.games.filter(number__gt=1):
        result_submit(
            game=game,
            by=bob,
            based_on=0,
            end="rummikub",
            winner=present[0],
            racks=[{"player": present[0], "tiles": ""}]
            + [{"player": p, "tiles": "R4 B10"} for p in present[1:]],
        )
    player_register(tournament=tournament, by=alice, name="Late Larry", club="Club 1")
    round2 = open_round(tournament, alice)
    for game in Game.objects.filter(table__round=round2, number__lte=2):
        enter_rummikub(game, bob, "K1", "O2 O3", "B12")
    late = tournament.players.get(name="Late Larry")
    checkin_set(tournament=tournament, by=alice, round_number=3, player=late.pk, present=False)
    tournament.refresh_from_db()
    return tournament


def standings_of(tournament: Tournament) -> list[tuple]:
    snapshot = standings_recompute(tournament_id=tournament.pk)
    return [
        (row["rank"], row["player"]["number"], row["player"]["status"], row["metrics"],
         row.get("notes"))
        for row in snapshot.rows
    ]  # fmt: skip


def without_accounts(node):
    """The document without usernames, the export time and the version count: what an import
    on another site cannot keep (accounts do not travel)."""
    if isinstance(node, dict):
        return {
            key: without_accounts(value)
            for key, value in node.items()
            if key not in USER_FIELDS | {"exported_at", "slug", "results_version"}
        }
    if isinstance(node, list):
        return [without_accounts(item) for item in node]
    return node


def exported(tournament: Tournament) -> dict:
    """The export as another site receives it: JSON text, read back."""
    return json.loads(json.dumps(event_file_export(tournament)))


def test_the_export_validates_against_its_schema(played):
    document = exported(played)
    jsonschema.Draft202012Validator(event_file_schema()).validate(document)
    assert event_file_problems(document) == []
    assert document["format_version"] == 1
    assert document["stages"] == []
    statuses = [
        r["status"]
        for r_ in document["rounds"]
        for t in r_["tables"]
        for g in t["games"]
        for r in g["results"]
    ]
    assert statuses.count("superseded") == 1
    penalties = [p for t in document["rounds"][0]["tables"] for g in t["games"]
                 for p in g["penalties"]]  # fmt: skip
    assert sorted((p["kind"], p["voided"]) for p in penalties) == [
        ("sanction", False),
        ("timeout", True),
    ]
    players = {p["name"]: p for p in document["players"]}
    assert players["Late Larry"]["joined_round"] == 2
    assert [p["status"] for p in players.values()].count("withdrawn") == 1
    assert document["absences"] == [{"round": 3, "player": players["Late Larry"]["number"]}]


def test_import_gives_the_same_tournament_and_standings(played, alice, carol):
    document = exported(played)
    copied = event_file_import(by=carol, document=document, slug="spring-open-copy")

    assert copied.slug == "spring-open-copy"
    assert StaffMember.objects.filter(tournament=copied, user=carol, role="organiser").exists()
    assert standings_of(copied) == standings_of(played)
    # Every version, penalty, seat and time came across: exporting the copy gives the same
    # document, but for the accounts (the importer is stamped) and the slug.
    again = exported(copied)
    assert without_accounts(again) == without_accounts(document)
    assert {
        r.submitted_by_id for r in Result.objects.filter(game__table__round__tournament=copied)
    } == {carol.pk}
    assert Penalty.objects.filter(game__table__round__tournament=copied, voided=True).count() == 1
    # The racks' places are not in the file: the import places them as the services did.
    assert finishes_of(copied) == finishes_of(played)


def finishes_of(tournament: Tournament) -> list[tuple]:
    return sorted(
        RackEntry.objects.filter(result__game__table__round__tournament=tournament).values_list(
            "result__game__table__round__number",
            "result__game__table__number",
            "result__game__number",
            "result__version",
            "player__number",
            "place",
            "place_shared",
            "seats",
        )
    )


def test_a_tie_ranks_by_the_carried_lot(played, carol):
    """Players who tie on games won are ranked by the lot, which the import keeps: the
    new site's ids and slug would draw other lots."""
    document = exported(played)
    copied = event_file_import(by=carol, document=document, slug="other-slug")
    lots = dict(Player.objects.filter(tournament=copied).values_list("number", "lot"))
    assert lots == {p["number"]: p["lot"] for p in document["players"]}
    ranks = [(row[0], row[1]) for row in standings_of(copied)]
    assert ranks == [(row["rank"], row["player"]) for row in document["standings"]["rows"]]


def test_the_documents_slug_is_refused_when_taken(played, carol):
    document = exported(played)
    before = rows()
    with pytest.raises(Conflict) as caught:
        event_file_import(by=carol, document=document)
    assert caught.value.path == ("tournament", "slug")
    assert rows() == before


def test_a_document_failing_the_schema_is_refused_naming_the_path(played, carol):
    document = exported(played)
    document["players"][1]["number"] = "two"
    del document["rounds"][0]["tables"][0]["games"][0]["results"][0]["end"]
    before = rows()
    with pytest.raises(RuleError) as caught:
        event_file_import(by=carol, document=document, slug="broken")
    paths = {e.path for e in caught.value.flatten()}
    assert ("players", 1, "number") in paths
    assert ("rounds", 0, "tables", 0, "games", 0, "results", 0) in paths
    assert rows() == before


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("exported_at",), "2026-13-40T25:00:00Z"),  # well formed, no such time
        (("exported_at",), "2026-11-26T10:00:00"),  # no zone
        (("tournament", "starts_on"), "2026-02-30"),  # well formed, no such day
    ],
)
def test_an_impossible_time_or_date_is_refused_naming_it(played, carol, path, value):
    document = exported(played)
    place = document
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    before = rows()
    with pytest.raises(RuleError) as caught:
        event_file_import(by=carol, document=document, slug="impossible")
    assert path in {e.path for e in caught.value.flatten()}
    assert rows() == before


def test_references_that_do_not_hold_are_refused(played, carol):
    document = exported(played)
    broken = copy.deepcopy(document)
    game = broken["rounds"][0]["tables"][0]["games"][0]
    game["results"][0]["status"] = "confirmed"  # now two confirmed versions
    broken["rounds"][0]["tables"][0]["seats"][0]["player"] = 999
    broken["stages"] = []
    with pytest.raises(RuleError) as caught:
        event_file_import(by=carol, document=broken, slug="broken")
    paths = {e.path for e in caught.value.flatten()}
    assert ("rounds", 0, "tables", 0, "seats", 0, "player") in paths
    assert ("rounds", 0, "tables", 0, "games", 0, "results", 1, "status") in paths
    assert not Tournament.objects.filter(slug="broken").exists()


def test_a_stage_missing_its_settings_fails_the_schema(played, carol):
    """(Stages round-trip in test_event_file_stages.)"""
    document = exported(played)
    assert document["stages"] == []
    document["stages"] = [{"name": "Final"}]
    problems = event_file_problems(document)
    assert {e.path for e in problems} == {("stages", 0)}


def test_unknown_rules_are_refused(played, carol):
    document = exported(played)
    document["tournament"]["rules"]["house_rule"] = 3
    document["tournament"]["ranking"] = ["luck"]
    paths = {e.path for e in event_file_problems(document)}
    # The schema itself names them now (its rules and ranking come from the engine's).
    assert any(path[:2] == ("tournament", "ranking") for path in paths)
    assert any(path[:2] == ("tournament", "rules") for path in paths)


def test_only_a_signed_in_user_may_import(played):
    with pytest.raises(PermissionDenied):
        event_file_import(by=AnonymousUser(), document=exported(played), slug="anon")


def test_an_empty_tournament_round_trips(alice, carol):
    tournament = make_tournament(alice, name="Not Yet")
    document = exported(tournament)
    assert document["rounds"] == [] and document["standings"]["rows"] == []
    copied = event_file_import(by=carol, document=document, slug="not-yet-2")
    assert copied.status == "upcoming"
    assert without_accounts(exported(copied)) == without_accounts(document)


# --- pages ----------------------------------------------------------------------------------


def test_organisers_see_the_event_file_link_and_download_it(played, as_user):
    page = as_user("alice").get(reverse("tournament-detail", args=[played.slug]))
    link = reverse("event-file", args=[played.slug])
    assert link.encode() in page.content
    assert link.encode() not in as_user("anon").get(page.wsgi_request.path).content
    download = as_user("alice").get(link)
    assert download.status_code == 200
    assert "attachment" in download["Content-Disposition"]
    document = json.loads(download.content)
    assert event_file_problems(document) == []


def test_the_import_page_imports_and_shows_errors_beside_the_fields(played, as_user):
    document = exported(played)
    url = reverse("event-file-import")
    assert as_user("anon").get(url).status_code == 302  # to the sign-in page
    carol = as_user("carol")
    assert carol.get(url).status_code == 200

    taken = carol.post(url, {"file": upload(document)})
    assert taken.status_code == 200
    assert "already exists" in taken.context["form"].errors["slug"][0]

    document["players"][0]["name"] = ""
    broken = carol.post(url, {"file": upload(document), "slug": "broken"})
    assert "players[0].name" in broken.context["form"].non_field_errors()[0]
    assert not Tournament.objects.filter(slug="broken").exists()

    document["players"][0]["name"] = "Player 1"
    done = carol.post(url, {"file": upload(document), "slug": "spring-copy"})
    assert done.status_code == 302
    assert done["Location"] == reverse("tournament-detail", args=["spring-copy"])
    assert standings_of(Tournament.objects.get(slug="spring-copy")) == standings_of(played)


def upload(document: dict) -> SimpleUploadedFile:
    return SimpleUploadedFile("event.json", json.dumps(document).encode(), "application/json")


def test_export_and_import_take_a_fixed_handful_of_queries(
    played, carol, django_assert_max_num_queries
):
    """One query per kind of row whatever the size (bulk inserts and reads)."""
    standings_recompute(tournament_id=played.pk)
    with django_assert_max_num_queries(15):
        document = exported(played)
    with django_assert_max_num_queries(40):
        event_file_import(by=carol, document=document, slug="counted")


def test_a_file_without_first_result_at_still_freezes_the_rules(played, carol):
    document = exported(played)
    document["tournament"]["first_result_at"] = None
    copied = event_file_import(by=carol, document=document, slug="frozen")
    first = min(
        Result.objects.filter(game__table__round__tournament=copied).values_list(
            "submitted_at", flat=True
        )
    )
    assert copied.first_result_at == first


def leaf_paths(node, path=()):
    """Every place in a document: (path to the container, key) pairs."""
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for key, value in items:
        yield path, key
        if isinstance(value, dict | list):
            yield from leaf_paths(value, (*path, key))


def at(document, path):
    for key in path:
        document = document[key]
    return document


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**40), max_value=2**40),
    st.sampled_from(["", "x", "2026-13-40T25:00:00Z", "2026-12-05T14:00:00", "confirmed", "-1"]),
    st.just([]),
    st.just({}),
)


@pytest.fixture
def small_document(alice, bob):
    tournament = make_tournament(alice, name="Fuzz Open", players=4)
    round1 = open_round(tournament, alice)
    game = round1.tables.get().games.get(number=1)
    enter_rummikub(game, alice, "R4", "J", "O3")
    penalty_record(game=game, by=alice, player=seated(game)[1], kind="sanction", points=3)
    return exported(tournament)


@settings(
    max_examples=int(os.environ.get("EVENT_FILE_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_any_damaged_document_is_imported_or_refused_never_a_crash(small_document, carol, data):
    """A document with one place changed (a value replaced, a key dropped, a list item
    doubled) is either imported or refused with a RuleError: never a database error."""
    document = copy.deepcopy(small_document)
    places = list(leaf_paths(document))
    path, key = data.draw(st.sampled_from(places))
    container = at(document, path)
    action = data.draw(st.sampled_from(["replace", "drop", "double"]))
    if action == "replace":
        container[key] = data.draw(JUNK)
    elif action == "drop" and isinstance(container, dict):
        del container[key]
    elif isinstance(container, list):
        container.append(copy.deepcopy(container[key]))
    slug = f"fuzz-{data.draw(st.integers(min_value=0, max_value=10**9))}"
    try:
        with transaction.atomic():
            event_file_import(by=carol, document=document, slug=slug)
    except RuleError as error:
        assert error.flatten(), error


@pytest.mark.django_db(transaction=True)
def test_the_same_file_imported_at_once_makes_one_tournament(postgres, alice, bob, carol):
    """Three imports of one file under one slug at the same moment, on real PostgreSQL
    and threads: one tournament, the others a 409 naming the slug (never a 500)."""
    document = exported(make_tournament(alice, name="Race Open", players=4))
    for trial in range(5):
        slug = f"race-{trial}"
        outcomes = at_once(
            *[
                lambda by=by, slug=slug: event_file_import(by=by, document=document, slug=slug)
                for by in (alice, bob, carol)
            ]
        )
        created = [o for o in outcomes if isinstance(o, Tournament)]
        refused = [o for o in outcomes if isinstance(o, Conflict)]
        assert (len(created), len(refused)) == (1, 2), f"trial {trial}: {outcomes}"
        assert all(error.path == ("tournament", "slug") for error in refused)
        assert Tournament.objects.filter(slug=slug).count() == 1


def test_a_file_written_before_placement_points_imports_with_the_default(played, carol):
    document = exported(played)
    del document["tournament"]["rules"]["placement_points"]
    copied = event_file_import(by=carol, document=document, slug="older-file")
    assert copied.rules["placement_points"] == {"2": [4, 0], "3": [4, 2, 0], "4": [4, 3, 1, 0]}
    assert standings_of(copied) == standings_of(played)
