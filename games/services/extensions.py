"""Writes for time extensions — how many a player took in one game.

Terms:
* extension — some clubs allow each player a few extensions of their turn time per game
  (the rules are silent, docs/rules/penalties.md#time-extensions; the count is what is
  recorded, the extra time is the timer's: one extension adds one more turn time to the
  running turn). The count is kept with the
  game, for the arbiter's record; it does not change any score, so the standings are
  untouched (no `results_changed`).

Like every write: the tournament row lock first, then the game (`locks.lock_game`), and
`require(by, tournament, "score")` before anything else.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.errors import RuleError
from tournaments.lifecycle import require_open
from tournaments.permissions import User, require, signed_in
from tournaments.services.validation import stamp_history_user

from ..models import MAX_EXTENSIONS, Extension, Game
from .locks import lock_game
from .results import table_at


def _player_at(game: Game, player: object) -> int:
    seated = set(game.table.seats.values_list("player_id", flat=True))
    if isinstance(player, bool) or not isinstance(player, int) or player not in seated:
        raise RuleError(
            "player", _("player {player} is not seated at this table.").format(player=repr(player))
        )
    return player


@transaction.atomic
def extension_set(*, game: Game | int, by: User, player: object, used: object) -> Extension:
    """Record that `player` has taken `used` extensions in this game (0 clears them)."""
    game = lock_game(game)
    tournament = game.table.round.tournament
    require(by, tournament, "score", at=table_at(game))
    require_open(tournament)
    by = signed_in(by)  # require refused the anonymous visitor
    player_id = _player_at(game, player)
    if isinstance(used, bool) or not isinstance(used, int) or not 0 <= used <= MAX_EXTENSIONS:
        raise RuleError(
            "used",
            _("give a whole number of extensions from 0 to {max_extensions}.").format(
                max_extensions=MAX_EXTENSIONS
            ),
        )
    extension = Extension.objects.filter(game=game, player_id=player_id).first() or Extension(
        game=game, player_id=player_id
    )
    extension.used = used
    extension.recorded_by = by
    stamp_history_user(extension, by).save()
    return extension


@transaction.atomic
def extension_add(*, game: Game | int, by: User, player: object, step: int = 1) -> Extension:
    """One more (`step` = 1) or one fewer (-1) extension for `player` in this game: the
    timer's buttons. Taking one more than `MAX_EXTENSIONS` names the player and the limit."""
    game = lock_game(game)
    tournament = game.table.round.tournament
    require(by, tournament, "score", at=table_at(game))
    player_id = _player_at(game, player)
    current = (
        Extension.objects.filter(game=game, player_id=player_id)
        .values_list("used", flat=True)
        .first()
        or 0
    )
    wanted = current + step
    if wanted > MAX_EXTENSIONS:
        name = game.table.seats.get(player_id=player_id).player.name
        raise RuleError(
            "used",
            _("{name} has had all {max_extensions} extensions of this game.").format(
                name=name, max_extensions=MAX_EXTENSIONS
            ),
        )
    return extension_set(game=game, by=by, player=player_id, used=max(wanted, 0))
