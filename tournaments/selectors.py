"""Reads that several views share: tournaments and players as a user may see them, and
who is present for a round (check-in, `tournaments.services.checkin`).

Visibility follows `tournaments.permissions.can_view`: a private tournament does not
exist for someone without a role in it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Max, QuerySet

from .models import Absence, Player, Tournament
from .permissions import User


def tournaments_visible_to(user: User) -> QuerySet[Tournament]:
    qs = Tournament.objects.all()
    if user.is_authenticated and getattr(user, "is_superuser", False):
        return qs
    if user.is_authenticated:
        # A table link's user sees its tournament (only while the link lasts: afterwards
        # the session no longer signs it in, `tournaments.backends`).
        return (
            qs.filter(public=True) | qs.filter(staff__user=user) | qs.filter(table_links__user=user)
        ).distinct()
    return qs.filter(public=True)


def active_players(tournament: Tournament) -> QuerySet[Player]:
    return tournament.players.filter(status=Player.Status.ACTIVE)


def players_to_seat(tournament: Tournament, round_number: int) -> QuerySet[Player]:
    """The players a round seats: the active ones not marked absent for it."""
    absent = Absence.objects.filter(tournament=tournament, round_number=round_number)
    return active_players(tournament).exclude(pk__in=absent.values("player_id"))


def next_round_number(tournament: Tournament) -> int:
    """The number the next round opened gets."""
    return (tournament.rounds.aggregate(top=Max("number"))["top"] or 0) + 1


@dataclass(frozen=True)
class CheckIn:
    """One active player's check-in for a round."""

    player: Player
    present: bool


def checkin_list(tournament: Tournament, round_number: int) -> list[CheckIn]:
    """Every active player by start number, present or not for round `round_number`
    (two queries, whatever the field)."""
    absent = set(
        Absence.objects.filter(tournament=tournament, round_number=round_number).values_list(
            "player_id", flat=True
        )
    )
    return [
        CheckIn(player, player.pk not in absent)
        for player in active_players(tournament).order_by("number")
    ]
