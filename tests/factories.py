"""factory_boy factories and builders for tests: a tournament with staff, players and an
open round, made through the services so the fixtures obey the same rules as real data."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from games.services.rounds import round_open
from tournaments.models import StaffMember, Tournament
from tournaments.services.players import player_register
from tournaments.services.tournaments import staff_add, tournament_create


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", "pass-word-123")


def make_tournament(organiser, *, name="Club Open", scorekeepers=(), players=0, **options):
    tournament = tournament_create(by=organiser, name=name, **options)
    for user in scorekeepers:
        staff_add(
            tournament=tournament,
            by=organiser,
            username=user.username,
            role=StaffMember.Role.SCOREKEEPER,
        )
    for n in range(players):
        player_register(
            tournament=tournament,
            by=organiser,
            name=f"Player {n + 1}",
            club=f"Club {n % 3}",
            rating=1500 + n,
        )
    return tournament


def open_round(tournament: Tournament, organiser, tables=None):
    """Seat the active players in order, tables of table_size (manual seating), whatever
    results the earlier rounds still lack (a fixture builds a state, it tests no gate)."""
    if tables is None:
        ids = list(
            tournament.players.filter(status="active")
            .order_by("number")
            .values_list("id", flat=True)
        )
        size = tournament.table_size
        tables = [ids[i : i + size] for i in range(0, len(ids), size)]
    return round_open(
        tournament=tournament, by=organiser, method="manual", tables=tables, open_anyway=True
    )
