"""New tournament from a format: the catalogue (`scoring.formats`) applied.

Terms (`scoring.formats`): format, source, stage plan.

`tournament_from_format` creates, in one transaction, the tournament with the format's
preset, options, ranking, table size, games per table, rounds planned and target; its
divisions; its stages in order (each checked by `stage_create`, as an organiser's would
be); its qualification slots; and, for a format with a season rule given a club, holds it
in that club's season of the format's name (made when the club has none). Nothing is
seated: the organiser registers the players and opens round 1.

Rules decided here (the rules are silent; docs/rules/decisions.md, "Formats"):
* A key not in the catalogue is a 400 naming `format`; a club the user does not
  organise is a 403 (the club's own rule); any refusal saves nothing.
* The tournament's name left out is the format's name (translated).
* The season is looked up by its name in the club; an existing season keeps its own
  rule (the organiser may have changed it), a new one takes the format's.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.errors import RuleError
from scoring.formats import BY_KEY, CATALOGUE, SEASON_NAME, Format

from ..models import Club, Season, Tournament
from ..permissions import User, require_club
from .clubs import season_create, tournament_hold_under
from .divisions import division_create
from .stages import stage_create
from .tournaments import tournament_create, tournament_update


def format_catalogue() -> tuple[Format, ...]:
    """Every format, in the catalogue's order."""
    return CATALOGUE


def format_named(key: object) -> Format:
    """The format with this key, or a RuleError on `format`."""
    if not isinstance(key, str) or key not in BY_KEY:
        raise RuleError(
            "format",
            _("%(key)s is not a format; choose one of %(keys)s.")
            % {"key": repr(key), "keys": ", ".join(BY_KEY)},
        )
    return BY_KEY[key]


@transaction.atomic
def tournament_from_format(
    *,
    by: User,
    format: object,
    name: str | None = None,
    slug: str | None = None,
    starts_on: date | None = None,
    club: Club | None = None,
) -> Tournament:
    """A new tournament set up as the format says (see the module doc), `by` organising."""
    chosen = format_named(format)
    if club is not None and chosen.season_rule is not None:
        require_club(by, club)
    tournament = tournament_create(
        by=by,
        name=name or _(chosen.name),
        slug=slug,
        starts_on=starts_on,
        **chosen.tournament_settings(),
    )
    for division in chosen.divisions:
        division_create(tournament=tournament, by=by, name=_(division))
    for plan in chosen.stages:
        stage_create(tournament=tournament, by=by, **plan.settings())
    if chosen.qualify_slots:
        tournament = tournament_update(
            tournament=tournament,
            by=by,
            qualify_slots=chosen.qualify_slots,
            qualify_event=chosen.qualify_event,
            qualify_stage=chosen.qualify_stage,
        )
    if club is not None and chosen.season_rule is not None:
        season = _season(club, by, dict(chosen.season_rule))
        tournament = tournament_hold_under(tournament=tournament, by=by, club=club, season=season)
    return tournament


def _season(club: Club, by: User, rule: dict[str, Any]) -> Season:
    existing = club.seasons.filter(name=SEASON_NAME).first()
    if existing is not None:
        return existing
    return season_create(club=club, by=by, name=SEASON_NAME, rule=rule)
