"""Stage definitions: add a stage to a tournament and change it (organisers only).

Terms (see `tournaments.models` for stage, cut, carried): a stage is *defined* here; it is
*closed* (its cut committed into the next stage's entry list) by
`games.services.stages.stage_close`, which needs the standings.

Rules decided here (the rules are silent; docs/rules/decisions.md):
* Stages are numbered 1, 2, ... in the order they are added; stage 1 has no cut (every
  player enters it), every later stage has exactly one cut rule: `cut_top` (the top N of
  the previous stage) or `cut_min_score` (everyone at or above that score).
* A stage's `ranking` is validated as a tournament's (`scoring.standings.validate_ranking`);
  left out, it is the tournament's ranking.
* `race_target` and `race_cap` come together (a race to N needs its cap, at least N).
* `rounds_planned` (1..100, or none) only informs: the pages say "round 2 of 3"; a round
  past it is not refused (the stage ends when its organiser closes it), as with the
  tournament's own rounds planned. A running stage may change it.
* No stage can be added after a closed last stage (its cut is gone: nobody would enter).
* A closed stage cannot change; a running one keeps its cut (its entrants are fixed) but
  its name, ranking and race may change.
* A stage after the first may be limited to a division (`division`, its slug): its cut
  takes only that division's players (`games.services.stages.stage_cut_preview`). Stage
  1 has no cut and side events take who was not cut, so neither can be limited; a
  division of another tournament is no division of this one (400 naming `division`).
* A side event (kind `side`) is not added here but started from a closed stage
  (`games.services.stages.stage_side_start`): it has no cut of its own, its entrants are
  that stage's players not cut; a stage cannot become one, nor stop being one. Side
  events are numbered among the stages (after the last) but are never "the next stage"
  of a cut, and the main stages go on after them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.errors import Conflict, RuleError, raise_all
from scoring.standings import validate_ranking

from ..events import pages_changed
from ..lifecycle import require_open
from ..models import Stage, Tournament
from ..permissions import User, require
from ..selectors import next_stage_number
from .divisions import divisions_of
from .stage_graph import GRAPH_FIELDS, check_graph_fields
from .tournaments import MAX_ROUNDS
from .validation import choice, collect, max_length_of, stamp_history_user, text

MAX_CUT = 10_000
MAX_RACE_GAMES = 50
FIELDS = {
    "name",
    "kind",
    "ranking",
    "carry_over",
    "cut_top",
    "cut_min_score",
    "cut_ties",
    "reseat_every_game",
    "race_target",
    "race_cap",
    "division",
    "rounds_planned",
    # The stage graph and per-stage play (`tournaments.services.stage_graph`).
    *GRAPH_FIELDS,
}
CUT_FIELDS = {
    "cut_top",
    "cut_min_score",
    "cut_ties",
    "carry_over",
    "division",
    "source",
    "entry",
    "rank_from",
    "rank_to",
    "table_top",
    "best_losers",
    "carry_rounding",
}


def _whole(field: str, value: object, low: int, high: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(field, _("must be a whole number, not %(value)s.") % {"value": repr(value)})
    if not low <= value <= high:
        raise RuleError(
            field,
            _("must be between %(low)s and %(high)s; got %(value)s.")
            % {"low": low, "high": high, "value": value},
        )
    return value


def _bool(field: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise RuleError(field, _("must be true or false."))
    return value


def stage_settings_checked(
    values: Mapping[str, Any],
    number: int,
    default_ranking: list[str],
    *,
    side: bool = False,
    tournament: Tournament | None = None,
) -> dict[str, Any]:
    """Every field of stage `number` checked at once (all errors together), as it will be
    stored; `default_ranking` when `values` gives none. `side`: the stage is a side event
    (kind `side`, no cut). Shared with the event file's import, which names the fields
    by their place in the document. A division is looked up among `tournament`'s; without
    one (a document checked before its tournament exists) none may be named."""
    unknown = sorted(set(values) - FIELDS)
    if unknown:
        raise RuleError(unknown[0], _("is not a stage setting."))
    if (values.get("kind") == Stage.Kind.SIDE) != side:
        raise RuleError(
            "kind",
            _("a side event is started from a closed stage's page, for its players not cut.")
            if not side
            else _("a side event stays a side event."),
        )
    errors: list[RuleError] = []
    out: dict[str, Any] = {
        "name": collect(
            errors, text, "name", values.get("name"), max_length=max_length_of(Stage, "name")
        ),
        "kind": collect(errors, choice, "kind", values.get("kind", "qualification"), Stage.Kind),
        "ranking": list(
            collect(errors, validate_ranking, values.get("ranking", default_ranking)) or []
        ),
        "carry_over": collect(
            errors, choice, "carry_over", values.get("carry_over", "none"), Stage.CarryOver
        ),
        "cut_ties": collect(
            errors, choice, "cut_ties", values.get("cut_ties", "lot"), Stage.CutTies
        ),
        "cut_top": collect(errors, _whole, "cut_top", values.get("cut_top"), 1, MAX_CUT),
        "cut_min_score": collect(
            errors,
            _whole,
            "cut_min_score",
            values.get("cut_min_score"),
            -MAX_CUT * 100,
            MAX_CUT * 100,
        ),
        "reseat_every_game": collect(
            errors, _bool, "reseat_every_game", values.get("reseat_every_game", False)
        ),
        "race_target": collect(
            errors, _whole, "race_target", values.get("race_target"), 1, MAX_RACE_GAMES
        ),
        "race_cap": collect(errors, _whole, "race_cap", values.get("race_cap"), 1, MAX_RACE_GAMES),
        "division": collect(errors, _division, tournament, values.get("division")),
        "rounds_planned": collect(
            errors, _whole, "rounds_planned", values.get("rounds_planned"), 1, MAX_ROUNDS
        ),
    }
    out.update(collect(errors, check_graph_fields, values, number, side, tournament) or {})
    raise_all(errors)
    if out["division"] is not None and (side or number == 1):
        raise RuleError(
            "division",
            _("stage 1 has no cut: every player enters it; limit a later stage to a division.")
            if not side
            else _("a side event takes the players not cut; it cannot be limited to a division."),
        )
    _check_cut(out, 1 if side else number)
    _check_race(out)
    if out["entry"] == "division" and out["division"] is None:
        raise RuleError("division", _("name the division whose players enter the stage."))
    return out


def _division(tournament: Tournament | None, value: object) -> Any:
    """The division a stage is limited to (a slug, or a row of this tournament), or None."""
    if value is None or value == "":
        return None
    if tournament is None:
        raise RuleError("division", _("no tournament yet, so no division to limit the stage to."))
    if isinstance(value, list | tuple):
        raise RuleError("division", _("name one division by its slug."))
    (division,) = divisions_of(tournament, [value], "division")
    return division


def _check_cut(out: dict[str, Any], number: int) -> None:
    has_top, has_min = out["cut_top"] is not None, out["cut_min_score"] is not None
    if number > 1 and out["entry"] not in ("", "top", "min_score"):
        if has_top or has_min:
            raise RuleError(
                "cut_top" if has_top else "cut_min_score",
                _("the stage takes its entrants by %(entry)s: leave the cut out.")
                % {"entry": out["entry"]},
            )
        return
    if number > 1 and out["entry"] and out["entry"] != ("top" if has_top else "min_score"):
        raise RuleError(
            "cut_top" if out["entry"] == "top" else "cut_min_score",
            _("the entry rule %(entry)s needs its own field.") % {"entry": out["entry"]},
        )
    if number > 1 and (has_top or has_min):
        out["entry"] = "top" if has_top else "min_score"
    if number == 1 and (has_top or has_min):
        raise RuleError(
            "cut_top" if has_top else "cut_min_score",
            _("stage 1 has no cut: everyone enters it."),
        )
    if number > 1 and has_top == has_min:
        raise RuleError(
            "cut_top",
            _("give either a number of players (cut_top) or a minimum score (cut_min_score)."),
        )


def _check_race(out: dict[str, Any]) -> None:
    target, cap = out["race_target"], out["race_cap"]
    if (target is None) != (cap is None):
        raise RuleError(
            "race_cap" if cap is None else "race_target",
            _("a race to N needs both its target and its cap."),
        )
    if target is not None and cap < target:
        raise RuleError(
            "race_cap",
            _("a cap of %(cap)s games leaves no room to win %(target)s.")
            % {"cap": cap, "target": target},
        )


def stage_create(*, tournament: Tournament, by: User, **values: Any) -> Stage:
    """Add the next stage (numbered after the last one)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        require(by, tournament, "organise")
        require_open(tournament)
        number = next_stage_number(tournament)
        fields = stage_settings_checked(values, number, tournament.ranking, tournament=tournament)
        source = fields["source"] or (
            tournament.stages.exclude(kind=Stage.Kind.SIDE).order_by("-number").first()
        )
        if (
            source is not None
            and source.status == Stage.Status.CLOSED
            and fields["entry"] != Stage.Entry.MANUAL
        ):
            raise Conflict(
                "stage",
                _("stage %(number)s (%(name)s) is closed: a stage after it would have no entrants.")
                % {"number": source.number, "name": source.name},
            )
        stage = Stage(tournament=tournament, number=number, **fields)
        stamp_history_user(stage, by).save()
        transaction.on_commit(lambda: pages_changed(tournament.slug))
        return stage


def stage_update(*, stage: Stage, by: User, **changes: Any) -> Stage:
    """Change a stage's settings: none once it is closed, not its cut once it runs."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=stage.tournament_id)
        require(by, tournament, "organise")
        require_open(tournament)
        stage = Stage.objects.get(pk=stage.pk)
        if stage.status == Stage.Status.CLOSED:
            raise Conflict(
                "status",
                _("stage %(number)s (%(name)s) is closed.")
                % {"number": stage.number, "name": stage.name},
            )
        if stage.status == Stage.Status.RUNNING and CUT_FIELDS & set(changes):
            field = sorted(CUT_FIELDS & set(changes))[0]
            raise Conflict(
                field,
                _("stage %(number)s (%(name)s) is running: its entrants are fixed.")
                % {"number": stage.number, "name": stage.name},
            )
        current = {name: getattr(stage, name) for name in FIELDS}
        fields = stage_settings_checked(
            {**current, **changes},
            stage.number,
            tournament.ranking,
            side=stage.is_side,
            tournament=tournament,
        )
        for name, value in fields.items():
            setattr(stage, name, value)
        stamp_history_user(stage, by).save()
        transaction.on_commit(lambda: pages_changed(tournament.slug))
        return stage
