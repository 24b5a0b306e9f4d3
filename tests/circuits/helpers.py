"""Builders for circuit tests: a small qualifier played to the end through the services."""

from __future__ import annotations

from datetime import date

from games.models import Game
from games.services.results import result_submit
from tests.factories import make_tournament, open_round
from tests.games.helpers import rummikub_racks, seated
from tournaments.models import Member
from tournaments.services.clubs import player_link, tournament_hold_under
from tournaments.services.people import player_person_link
from tournaments.services.players import player_register
from tournaments.services.tournaments import tournament_update

# Loser tiles by seat: seat 2 keeps least, seat 4 most: the field finishes in seat order.
LOSERS = ("R1", "R5 B5", "R9 B9 K9")


def qualifier(organiser, name, people, *, club=None, day=None, finish=True, unlinked=()):
    """A tournament of `people` (and `unlinked` names) who finish in that order: one table
    of at most four, seat 1 winning every game. A person is linked to their player; a
    club member (of the tournament's `club`) is linked as a member."""
    tournament = make_tournament(organiser, name=name, starts_on=day or date(2026, 3, 1))
    if club is not None:
        tournament = tournament_hold_under(tournament=tournament, by=organiser, club=club)
    players = []
    for entrant in [*people, *unlinked]:
        label = entrant if isinstance(entrant, str) else entrant.name
        player = player_register(tournament=tournament, by=organiser, name=label)
        if isinstance(entrant, Member):  # the player is the member's person
            player_link(player=player, by=organiser, member=entrant)
        elif not isinstance(entrant, str):
            player_person_link(player=player, by=organiser, person=entrant)
        players.append(player.pk)
    # One table, seat 1 winning every game: the field finishes in seat order.
    assert len(players) <= 4, "one table of four"
    round_ = open_round(tournament, organiser, tables=[players])
    for game in Game.objects.filter(table__round=round_).order_by("number"):
        size = len(seated(game))
        result_submit(
            game=game,
            by=organiser,
            based_on=0,
            end="rummikub",
            winner=seated(game)[0],
            racks=rummikub_racks(game, *LOSERS[: size - 1]),
        )
    if finish:
        tournament_update(tournament=tournament, by=organiser, status="finished")
    tournament.refresh_from_db()
    return tournament
