"""`seed_demo` builds the two demo tournaments through the services, and only once."""

import pytest
from django.core.management import call_command

from games.models import Game, Penalty, Result
from games.services.stages import stage_race
from tournaments.models import Tournament


@pytest.mark.django_db(transaction=True)
def test_seed_demo_is_complete_and_idempotent():
    call_command("seed_demo")
    finished = Tournament.objects.get(slug="demo-club-open-2026")
    running = Tournament.objects.get(slug="demo-winter-league")
    assert (finished.status, finished.players.count(), finished.rounds.count()) == (
        "finished",
        16,
        4,
    )
    games = Game.objects.filter(table__round__tournament=finished)
    assert games.count() == 64
    assert all(g.results.filter(status="confirmed").exists() for g in games)
    assert Penalty.objects.filter(game__table__round__tournament=finished).exists()
    assert Result.objects.filter(
        game__table__round__tournament=finished, racks__tiles__contains="J"
    ).exists()

    assert running.status == "running"
    second = Game.objects.filter(table__round__tournament=running, table__round__number=2)
    entered = second.filter(results__status="confirmed").distinct().count()
    assert 0 < entered < second.count()

    # Both have Juniors and Seniors, a quarter of the field each, with prize labels.
    for t in (finished, running):
        divisions = list(t.divisions.order_by("order"))
        assert [d.slug for d in divisions] == ["juniors", "seniors"]
        assert [d.players.count() for d in divisions] == [t.players.count() // 4] * 2
        assert divisions[0].prizes[0] == "Trophy"

    # Both standings snapshots are at their tournament's current version.
    for t in (finished, running):
        t.refresh_from_db()
        assert t.standings.filter(computed_version=t.results_version).exists()

    # The staged championship: qualification (16) -> semi-final (8, re-seated every
    # game: one game a round) -> final (4, a race to 4 wins, running), and a side event
    # for the 8 out of the qualification.
    staged = Tournament.objects.get(slug="demo-championship-2026")
    stages = list(staged.stages.order_by("number"))
    assert [s.kind for s in stages] == ["qualification", "semi_final", "final", "side"]
    assert [s.status for s in stages] == ["closed", "closed", "running", "running"]
    assert [s.entries.count() for s in stages] == [0, 8, 4, 8]
    semi_games = Game.objects.filter(table__round__stage=stages[1])
    assert semi_games.count() == 8 and stages[1].rounds.count() == 4  # 2 tables x 4 rounds
    final_tables = Game.objects.filter(table__round__stage=stages[2]).values("table").distinct()
    assert final_tables.count() == 5  # one table, one game a round; the fifth at play
    race = stage_race(stages[2])
    assert race.state.status == "running" and race.state.games == 4

    counts = (Tournament.objects.count(), Result.objects.count(), Penalty.objects.count())
    call_command("seed_demo")
    assert (Tournament.objects.count(), Result.objects.count(), Penalty.objects.count()) == counts
