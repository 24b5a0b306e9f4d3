"""The event file with stages: a qualification cut into a
race final with half the score carried, and a side event for the players not cut, are
exported with their settings, entry lists and round links, validate against the schema,
and import into an empty site with the same overall and per-stage standings. A bad stage
is refused naming its place in the document, and nothing is saved."""

from __future__ import annotations

import copy
import json
import os

import jsonschema
import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import (
    Extension,
    Game,
    Penalty,
    RackEntry,
    Result,
    Round,
    Seat,
    Standings,
    Table,
)
from games.services.event_file.check import event_file_problems
from games.services.event_file.export import event_file_export
from games.services.event_file.load import event_file_import
from games.services.event_file.schema import STAGE_FIELDS, STAGE_GRAPH_FIELDS, event_file_schema
from games.services.rounds import round_open
from games.services.stages import stage_close, stage_cut_preview, stage_rows, stage_side_start
from games.services.standings import standings_recompute
from scoring.errors import RuleError
from tests.api import rows
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tests.games.test_event_file import JUNK, at, leaf_paths, without_accounts
from tournaments.models import Stage, StageEntry, Tournament
from tournaments.services.divisions import division_create, player_divisions_set
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


def _play(round_, by) -> None:
    for game in Game.objects.filter(table__round=round_).order_by("table__number", "number"):
        enter_rummikub(game, by)


@pytest.fixture
def staged(alice):
    """12 players, one game a table: a qualification of one round, closed into a final of
    the top 4 juniors carrying half their score (a race to 2 wins, at most 3 games, one
    game played), and a side event for the 8 not cut (one round played). Players 1-8 are
    juniors, 9-12 seniors (with prizes); the top 2 qualify for the Nationals, and player 1
    qualified already."""
    tournament = make_tournament(alice, name="Staged Open", players=12, games_per_table=1)
    division_create(tournament=tournament, by=alice, name="Juniors")
    division_create(tournament=tournament, by=alice, name="Seniors", prizes=["Cup", "", "Book"])
    for player in tournament.players.all():
        player_divisions_set(
            player=player, by=alice, divisions=["juniors" if player.number <= 8 else "seniors"]
        )
    Tournament.objects.filter(pk=tournament.pk).update(qualify_slots=2, qualify_event="Nationals")
    tournament.players.filter(number=1).update(already_qualified=True)
    qualification = stage_create(tournament=tournament, by=alice, name="Qualification")
    stage_create(
        tournament=tournament,
        by=alice,
        name="Final",
        kind="final",
        cut_top=4,
        carry_over="half",
        race_target=2,
        race_cap=3,
        division="juniors",
    )
    _play(open_round(tournament, alice), alice)
    entrants = [p.id for p in stage_cut_preview(qualification).entrants]
    stage_close(stage=qualification, by=alice, expected_entrants=entrants)
    side = stage_side_start(stage=qualification, by=alice, name="Consolation")
    _play(round_open(tournament=tournament, by=alice, method="random", stage=side.number), alice)
    _play(
        round_open(tournament=tournament, by=alice, method="manual", tables=[entrants], stage=2),
        alice,
    )
    tournament.refresh_from_db()
    return tournament


def exported(tournament: Tournament) -> dict:
    return json.loads(json.dumps(event_file_export(tournament)))


def standings_of(tournament: Tournament) -> list[tuple]:
    snapshot = standings_recompute(tournament_id=tournament.pk)
    return [(row["rank"], row["player"]["number"], row["metrics"]) for row in snapshot.rows]


def stage_standings_of(tournament: Tournament) -> dict[int, list[tuple]]:
    """Each stage's standings by start number: rank, carried score, metrics, race wins."""
    return {
        stage.number: [
            (row.rank, row.player.number, row.carried, row.metrics, row.race_wins)
            for row in stage_rows(stage)
        ]
        for stage in tournament.stages.order_by("number")
    }


def divisions_of(tournament: Tournament) -> set[tuple]:
    """Who is in which division, and each division as set."""
    rows = tournament.players.values_list(
        "number", "divisions__slug", "divisions__name", "divisions__prizes", "already_qualified"
    )
    return {
        (number, slug, name, tuple(prizes), qualified)
        for number, slug, name, prizes, qualified in rows
    }


def entries_of(tournament: Tournament) -> set[tuple]:
    return set(
        StageEntry.objects.filter(stage__tournament=tournament).values_list(
            "stage__number", "player__number", "seed_rank", "carried"
        )
    )


def saved() -> dict[str, int]:
    """Rows of every kind, stages included: compare before and after a refused import."""
    return rows() | {"Stage": Stage.objects.count(), "StageEntry": StageEntry.objects.count()}


def empty_the_site() -> None:
    """Every tournament gone (the racks and seats protect their players: they go first)."""
    for model in (Penalty, Extension, RackEntry, Result, Seat, Game, Table, Standings, Round):
        model.objects.all().delete()
    Stage.objects.all().delete()  # a stage limited to a division protects the division
    Tournament.objects.all().delete()


def test_stages_are_exported_with_their_entries_and_rounds(staged):
    document = exported(staged)
    jsonschema.Draft202012Validator(event_file_schema()).validate(document)
    assert event_file_problems(document) == []
    assert document["format_version"] == 1
    stages = {s["number"]: s for s in document["stages"]}
    assert [(s["name"], s["kind"], s["status"], s["side_of"]) for s in stages.values()] == [
        ("Qualification", "qualification", "closed", None),
        ("Final", "final", "running", None),
        ("Consolation", "side", "running", 1),
    ]
    final = stages[2]
    assert (final["cut_top"], final["carry_over"], final["race_target"], final["race_cap"]) == (
        4,
        "half",
        2,
        3,
    )
    qualification = {row["player"]: row for row in stages[1]["standings"]}
    assert len(final["entries"]) == 4 and len(stages[3]["entries"]) == 8
    for entry in final["entries"]:
        # Half the qualification score, rounded toward zero, and the rank it was cut at.
        score = qualification[entry["player"]]["metrics"]["score"]
        assert entry["carried"] == int(score / 2)
        assert entry["seed_rank"] == qualification[entry["player"]]["rank"]
    assert {e["player"] for e in final["entries"]}.isdisjoint(
        e["player"] for e in stages[3]["entries"]
    )
    assert stages[1]["entries"] == []  # every player enters stage 1
    juniors = {p["number"] for p in document["players"] if p["divisions"] == ["juniors"]}
    assert juniors == set(range(1, 9))
    assert final["division"] == "juniors"
    assert {e["player"] for e in final["entries"]} <= juniors  # the cut took juniors only
    assert [(d["slug"], d["prizes"]) for d in document["divisions"]] == [
        ("juniors", []),
        ("seniors", ["Cup", "", "Book"]),
    ]
    tournament = document["tournament"]
    assert (tournament["qualify_slots"], tournament["qualify_event"]) == (2, "Nationals")
    assert [p["number"] for p in document["players"] if p["already_qualified"]] == [1]
    assert all("race_wins" in row for row in final["standings"])
    assert [r["stage"] for r in document["rounds"]] == [1, 3, 2]


def test_a_staged_tournament_imported_into_an_empty_site_has_the_same_standings(staged, carol):
    document = exported(staged)
    overall, per_stage, entries, divisions = (
        standings_of(staged),
        stage_standings_of(staged),
        entries_of(staged),
        divisions_of(staged),
    )
    assert len(per_stage) == 3 and all(per_stage.values())
    empty_the_site()
    assert set(saved().values()) == {0}

    copied = event_file_import(by=carol, document=document)

    assert standings_of(copied) == overall
    assert stage_standings_of(copied) == per_stage
    assert entries_of(copied) == entries
    assert divisions_of(copied) == divisions
    assert copied.stages.get(number=2).division.slug == "juniors"
    assert (copied.qualify_slots, copied.qualify_event) == (2, "Nationals")
    side = copied.stages.get(number=3)
    assert (side.kind, side.side_of.number) == ("side", 1)
    assert list(copied.rounds.order_by("number").values_list("stage__number", flat=True)) == [
        1,
        3,
        2,
    ]
    # Nothing was lost on the way: the copy exports as the same document (but accounts).
    assert without_accounts(exported(copied)) == without_accounts(document)


def test_a_file_written_before_stages_still_imports(staged, carol):
    """A version-1 file of before: `stages` empty and no `stage` on its rounds."""
    document = exported(staged)
    document["stages"] = []
    for round_ in document["rounds"]:
        del round_["stage"]
    del document["divisions"]
    for key in ("qualify_slots", "qualify_event"):
        del document["tournament"][key]
    for player in document["players"]:
        del player["divisions"], player["already_qualified"]
    assert event_file_problems(document) == []
    copied = event_file_import(by=carol, document=document, slug="before-stages")
    assert not copied.stages.exists()
    assert copied.rounds.filter(stage__isnull=True).count() == 3
    assert not copied.divisions.exists() and copied.qualify_slots is None


def test_a_division_without_its_optional_creation_time_imports(staged, carol):
    """`divisions[].created_at` is optional in the schema: a file without it imports."""
    document = exported(staged)
    assert document["divisions"]
    for division in document["divisions"]:
        del division["created_at"]
    assert event_file_problems(document) == []
    copied = event_file_import(by=carol, document=document, slug="no-division-times")
    assert sorted(copied.divisions.values_list("slug", flat=True)) == sorted(
        d["slug"] for d in document["divisions"]
    )


def _set(path: tuple, value):
    def change(document: dict) -> None:
        at(document, path[:-1])[path[-1]] = value

    return change


def _double_entry(document: dict) -> None:
    entries = document["stages"][1]["entries"]
    entries.append(dict(entries[0]))


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (_set(("stages", 0, "cut_top"), 3), ("stages", 0, "cut_top")),
        (_set(("stages", 1, "cut_top"), None), ("stages", 1, "cut_top")),
        (_set(("stages", 1, "race_cap"), 1), ("stages", 1, "race_cap")),
        (_set(("stages", 1, "ranking"), ["luck"]), ("stages", 1, "ranking")),
        (_set(("stages", 1, "name"), "  "), ("stages", 1, "name")),
        (_set(("stages", 1, "kind"), "playoff"), ("stages", 1, "kind")),
        (_set(("stages", 1, "number"), 1), ("stages", 1, "number")),
        (_set(("stages", 1, "side_of"), 1), ("stages", 1, "side_of")),
        (_set(("stages", 2, "side_of"), None), ("stages", 2, "side_of")),
        (_set(("stages", 2, "side_of"), 3), ("stages", 2, "side_of")),
        (_set(("stages", 2, "kind"), "final"), ("stages", 2, "cut_top")),
        (_set(("stages", 1, "entries", 0, "player"), 999), ("stages", 1, "entries", 0, "player")),
        (_double_entry, ("stages", 1, "entries", 4, "player")),
        (_set(("stages", 1, "entries", 0, "seed_rank"), 0), ("stages", 1, "entries", 0)),
        (_set(("rounds", 1, "stage"), 7), ("rounds", 1, "stage")),
        (_set(("stages", 1, "division"), "masters"), ("stages", 1, "division")),
        (_set(("stages", 0, "division"), "juniors"), ("stages", 0, "division")),
        (_set(("stages", 2, "division"), "juniors"), ("stages", 2, "division")),
        (_set(("players", 0, "divisions"), ["masters"]), ("players", 0, "divisions", 0)),
        (_set(("players", 0, "divisions"), ["juniors"] * 2), ("players", 0, "divisions", 1)),
        (_set(("divisions", 1, "slug"), "juniors"), ("divisions", 1, "slug")),
        (_set(("divisions", 1, "slug"), "a b"), ("divisions", 1, "slug")),
        (_set(("divisions", 1, "name"), " JUNIORS "), ("divisions", 1, "name")),
        (_set(("divisions", 1, "name"), "  "), ("divisions", 1, "name")),
        (_set(("tournament", "qualify_event"), ""), ("tournament", "qualify_slots")),
    ],
)
def test_a_bad_stage_is_refused_naming_its_path_and_nothing_is_saved(staged, carol, change, path):
    document = exported(staged)
    change(document)
    before = saved()
    with pytest.raises(RuleError) as caught:
        event_file_import(by=carol, document=document, slug="bad-stages")
    assert path in [e.path[: len(path)] for e in caught.value.flatten()], caught.value
    assert saved() == before


def test_every_stage_setting_is_in_the_file():
    """A field added to a stage later must be exported too (or left out here on purpose)."""
    # rounds_planned is exported beside them: optional, so older files still import.
    kept_apart = {
        "id", "tournament", "number", "status", "side_of", "division", "created_at",
        "rounds_planned", "source", "final_order", *STAGE_GRAPH_FIELDS,
    }  # fmt: skip
    fields = {f.name for f in Stage._meta.concrete_fields}
    assert fields - kept_apart == set(STAGE_FIELDS)
    assert {f.name for f in StageEntry._meta.concrete_fields} == {
        "id",
        "stage",
        "player",
        "seed_rank",
        "carried",
    }
    stage = event_file_schema()["$defs"]["stage"]
    assert set(stage["properties"]) == set(STAGE_FIELDS) | kept_apart - {"id", "tournament"} | {
        "entries",
        "standings",
    }


def test_a_staged_export_and_import_take_a_fixed_handful_of_queries(
    staged, carol, django_assert_max_num_queries
):
    """Measured 28 and 28 (SQLite): the unstaged file's kinds, plus a stage's standings
    (and a race's) per stage, two for divisions, three for stages and their entries."""
    standings_recompute(tournament_id=staged.pk)
    with django_assert_max_num_queries(32):
        document = exported(staged)
    with django_assert_max_num_queries(34):
        event_file_import(by=carol, document=document, slug="counted-stages")


@pytest.fixture
def small_staged(alice):
    """8 players, the first 6 juniors: a qualification of one game a table closed into a
    final of the top 4 juniors, a side event started for the others."""
    tournament = make_tournament(alice, name="Fuzz Stages", players=8, games_per_table=1)
    division_create(tournament=tournament, by=alice, name="Juniors", prizes=["Cup"])
    for player in tournament.players.filter(number__lte=6):
        player_divisions_set(player=player, by=alice, divisions=["juniors"])
    qualification = stage_create(tournament=tournament, by=alice, name="Qualification")
    stage_create(
        tournament=tournament, by=alice, name="Final", kind="final", cut_top=4, division="juniors"
    )
    _play(open_round(tournament, alice), alice)
    entrants = [p.id for p in stage_cut_preview(qualification).entrants]
    stage_close(stage=qualification, by=alice, expected_entrants=entrants)
    stage_side_start(stage=qualification, by=alice)
    return exported(tournament)


@settings(
    max_examples=int(os.environ.get("EVENT_FILE_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_any_damaged_stage_is_imported_or_refused_never_a_crash(small_staged, carol, data):
    """One place in the stages, the divisions, or what names them changed: imported, or
    refused with a RuleError, never a database error."""
    document = copy.deepcopy(small_staged)
    places = [
        (path, key)
        for path, key in leaf_paths(document)
        if (path or (key,))[0] in ("stages", "divisions")
        or key in ("stage", "divisions", "already_qualified", "qualify_slots", "qualify_event")
        or "divisions" in path
    ]
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
