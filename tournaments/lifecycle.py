"""A tournament's lifecycle: which status it may move to, and what its status forbids.

Terms:
* status — `upcoming` (being set up), `running` (rounds are played), `finished` (the
  results are final). Opening the first round moves an upcoming tournament to running.
* transition — a change of status by an organiser (`tournament_update(status=...)`):
  any status may follow any other, except that a tournament goes back to `upcoming` only
  while it has no round (its rounds would otherwise belong to a tournament "not yet
  started"). `finished -> running` is *reopening*: the way to correct a finished result.
* open — not finished. A finished tournament is locked: results, confirmations,
  penalties (recorded or voided), players (registered, imported, changed) and rounds
  (opened, seats swapped) are refused with a 409 (`Conflict`, field `status`) naming the
  way out. Its settings and staff may still change (a name, who may reopen it), and
  reopening it is itself a settings change.
* require_open — called by every write service the status forbids, right after
  `require` and on the tournament row it locked, so a write and a "finish" arriving at
  the same moment queue behind each other and the write sees the status that wins.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.errors import Conflict, RuleError

from .models import Tournament

# What the refusal says: it names the way to change a finished tournament.
FINISHED_MESSAGE = gettext_noop(
    "the tournament is finished; an organiser must reopen it (status running) before "
    "results, penalties, players or rounds change."
)


def require_open(tournament: Tournament) -> None:
    """Refuse, with a 409 `Conflict` on `status`, a write into a finished tournament."""
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("status", _(FINISHED_MESSAGE))


def transition_error(tournament: Tournament, status: str) -> RuleError | None:
    """What is wrong with moving `tournament` to `status`, if anything (a valid status
    value is checked elsewhere)."""
    if (
        status == Tournament.Status.UPCOMING
        and tournament.status != Tournament.Status.UPCOMING
        and tournament.rounds.exists()
    ):
        return RuleError(
            "status", _("a tournament with rounds cannot go back to upcoming; use running.")
        )
    return None
