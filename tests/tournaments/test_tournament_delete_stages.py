"""Deleting a tournament (no results yet) that has a stage limited to a division: the
stage protects its division, so the tournament's delete must take the stages first."""

from __future__ import annotations

import pytest

from tests.factories import make_tournament, open_round
from tournaments.models import Division, Stage, Tournament
from tournaments.services.divisions import division_create
from tournaments.services.stages import stage_create
from tournaments.services.tournaments import tournament_delete

pytestmark = pytest.mark.django_db


def test_a_tournament_with_a_stage_limited_to_a_division_can_be_deleted(alice):
    tournament = make_tournament(alice, players=8)
    division_create(tournament=tournament, by=alice, name="Juniors")
    stage_create(tournament=tournament, by=alice, name="Qualification")
    stage_create(
        tournament=tournament, by=alice, name="Final", kind="final", cut_top=4, division="juniors"
    )
    open_round(tournament, alice)  # a round of stage 1, no result yet
    tournament_delete(tournament=tournament, by=alice)
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert not Stage.objects.exists() and not Division.objects.exists()
