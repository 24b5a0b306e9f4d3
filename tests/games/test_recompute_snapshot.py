"""The standings job reads the results version and the results as of one moment, on real
PostgreSQL: a result committed while it computes is left to the next recompute, so the
snapshot labelled with a version holds exactly the results up to it (`games.tasks`)."""

from __future__ import annotations

import pytest

import games.services.standings as standings
from games.models import Standings
from games.tasks import recompute_in_one_snapshot
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tests.threads import at_once


@pytest.mark.django_db(transaction=True)
def test_a_result_committed_during_a_recompute_waits_for_the_next(postgres, alice, monkeypatch):
    tournament = make_tournament(alice, players=8)
    first, second = [t.games.get(number=1) for t in open_round(tournament, alice).tables.all()]
    enter_rummikub(first, alice)
    tournament.refresh_from_db()
    version = tournament.results_version
    Standings.objects.filter(tournament=tournament).delete()
    between = standings.games_per_missed_round  # called after the version, before the sums
    landed = []

    def a_result_meanwhile(*args, **kwargs):
        if not landed:
            landed.append(True)
            # Committed on a connection of its own (its recompute runs there, inline).
            (result,) = at_once(lambda: enter_rummikub(second, alice))
            assert not isinstance(result, Exception), result
        return between(*args, **kwargs)

    monkeypatch.setattr(standings, "games_per_missed_round", a_result_meanwhile)
    snapshot = recompute_in_one_snapshot(tournament.pk)
    assert landed and snapshot is not None
    assert snapshot.computed_version == version
    later = Standings.objects.get(tournament=tournament, computed_version=version + 1)
    # The later result is in the later table only: the two tables differ.
    assert snapshot.rows != later.rows
