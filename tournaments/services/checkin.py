"""Writes for check-in: which active players are present for a round — each one
transaction, under the tournament's row lock.

Terms:
* check-in — per round number, present or absent for every active player. Present is the
  default (no `Absence` row), so a tournament nobody checks in seats everyone as before.
* round number — the round the check-in is for. It need not exist yet: check-in comes
  before opening it. A round already open is seated; its check-in is closed (409): swap
  seats there, or cancel and open it again.

Who may: organisers and scorekeepers (need `score`) — at the door of a club Saturday
whoever is free checks people in; who is seated is still the organiser's (opening the
round). Withdrawn players cannot be checked in or out: they are not seated at all
(reinstate them first).

Not checked here: how the round is then seated (`games.services.rounds`, which seats the
players of `tournaments.selectors.players_to_seat`).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.errors import Conflict, RuleError

from ..lifecycle import require_open
from ..models import Absence, Player, Tournament
from ..permissions import User, require
from .validation import stamp_history_user, whole_number_between

# The column's limit (a PositiveSmallIntegerField), as for the rounds themselves.
MAX_ROUND_NUMBER = 32_767


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _round_number(tournament: Tournament, round_number: object) -> int:
    """The round the check-in is for: a whole number, and not a round already open."""
    number = whole_number_between(
        "round", round_number, low=1, high=MAX_ROUND_NUMBER, nullable=False
    )
    if tournament.rounds.filter(number=number).exists():
        raise Conflict(
            "round",
            _(
                "round %(number)s is already open and seated; its check-in is closed (swap "
                "seats there, or cancel the round and open it again)."
            )
            % {"number": number},
        )
    return number


def _player(tournament: Tournament, player: object) -> Player:
    """An active player of this tournament, by id (as the API and the page send it)."""
    if isinstance(player, Player):
        player = player.pk
    if isinstance(player, bool) or not isinstance(player, int):
        raise RuleError("player", _("choose a player (their id)."))
    found = tournament.players.filter(pk=player).first()
    if found is None:
        raise RuleError(
            "player", _("there is no player %(player)s in this tournament.") % {"player": player}
        )
    if found.status != Player.Status.ACTIVE:
        raise RuleError(
            "player",
            _("#%(number)s %(name)s has withdrawn and is not seated; reinstate them first.")
            % {"number": found.number, "name": found.name},
        )
    return found


@transaction.atomic
def checkin_set(
    *, tournament: Tournament, by: User, round_number: object, player: object, present: object
) -> bool:
    """Mark one active player present or absent for round `round_number`; returns
    `present`. Marking what is already so changes nothing (a repeated tap is harmless)."""
    require(by, tournament, "score")
    tournament = _lock(tournament)
    require_open(tournament)
    number = _round_number(tournament, round_number)
    if not isinstance(present, bool):
        raise RuleError("present", _("must be true or false."))
    found = _player(tournament, player)
    absence = Absence.objects.filter(
        tournament=tournament, round_number=number, player=found
    ).first()
    if present and absence is not None:
        stamp_history_user(absence, by).delete()
    elif not present and absence is None:
        stamp_history_user(
            Absence(tournament=tournament, round_number=number, player=found), by
        ).save()
    return present


@transaction.atomic
def checkin_everyone(*, tournament: Tournament, by: User, round_number: object) -> int:
    """Everyone present for round `round_number` in one action; returns how many players
    were marked absent before."""
    require(by, tournament, "score")
    tournament = _lock(tournament)
    require_open(tournament)
    number = _round_number(tournament, round_number)
    absences = list(Absence.objects.filter(tournament=tournament, round_number=number))
    for absence in absences:
        stamp_history_user(absence, by).delete()
    return len(absences)
