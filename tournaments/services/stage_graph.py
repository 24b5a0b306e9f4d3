"""The stage graph's settings, checked: where a stage takes its entrants from and how,
and how it is played (games per table, seating, carry rounding). Organisers set them
with a stage's other settings (`tournaments.services.stages.stage_settings_checked`
calls `check_graph_fields`); the cut by these rules is `games.services.stage_feeds`.

Terms (`scoring.stage_graph`): source, feed, entry rule, carry rounding.

Rules decided here (the rules are silent; docs/rules/decisions.md, "Stages as a graph"):
* `source` names an earlier main stage by its number; left out, it is the main stage
  before this one (as before stages were a graph). Stage 1 and side events have none.
* `entry` left out is read from the fields given (`cut_top` → top, `cut_min_score` →
  min_score, `rank_from` → ranks, `table_top` → tables), so a client written before the
  graph still adds the same stages.
* A rank range is `rank_from` ≤ `rank_to`, both from 1; by table, `table_top` ≥ 1 and
  `best_losers` ≥ 0; a `division` entry needs its division.
* `games_per_table` (1-12, none: the tournament's) and `seating` (none: chosen at each
  round) are play settings: a running stage may still change them (the rounds already
  seated keep their games); the entry fields change only while the stage is upcoming.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from scoring.errors import RuleError, raise_all
from scoring.stage_graph import ENTRY_RULES

from ..models import Stage, Tournament
from .validation import choice, collect

GRAPH_FIELDS = (
    "source",
    "entry",
    "rank_from",
    "rank_to",
    "table_top",
    "best_losers",
    "carry_rounding",
    "games_per_table",
    "seating",
)
MAX_PLACE = 10_000


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


def _source(value: object, number: int, tournament: Tournament | None) -> Stage | int | None:
    if value is None or value == "":
        return None
    if isinstance(value, Stage):
        return value
    wanted = _whole("source", value, 1, max(number - 1, 1))
    if wanted is None or wanted >= number:
        raise RuleError("source", _("a stage takes its entrants from an earlier stage."))
    if tournament is None:
        return wanted  # a document checked before its tournament exists
    found = tournament.stages.filter(number=wanted).first()
    if found is None or found.is_side:
        raise RuleError(
            "source",
            _("stage %(number)s is not a main stage of this tournament.") % {"number": wanted},
        )
    return found


def _entry(values: Mapping[str, Any], number: int, side: bool) -> str:
    entry = values.get("entry") or ""
    if number == 1 or side:
        if entry:
            raise RuleError("entry", _("stage 1 and side events take no entry rule."))
        return ""
    if entry and entry not in ENTRY_RULES:
        raise RuleError(
            "entry",
            _("'%(entry)s' is not an entry rule; choose %(rules)s.")
            % {"entry": entry, "rules": ", ".join(ENTRY_RULES)},
        )
    if not entry:
        if values.get("rank_from") is not None:
            return "ranks"
        if values.get("table_top") is not None:
            return "tables"
    return str(entry)


def check_graph_fields(
    values: Mapping[str, Any], number: int, side: bool, tournament: Tournament | None
) -> dict[str, Any]:
    """The graph and play fields of stage `number`, checked (every error at once)."""
    errors: list[RuleError] = []
    entry = collect(errors, _entry, values, number, side) or ""
    out: dict[str, Any] = {
        "entry": entry,
        "source": None
        if number == 1 or side
        else collect(errors, _source, values.get("source"), number, tournament),
        "rank_from": collect(errors, _whole, "rank_from", values.get("rank_from"), 1, MAX_PLACE),
        "rank_to": collect(errors, _whole, "rank_to", values.get("rank_to"), 1, MAX_PLACE),
        "table_top": collect(errors, _whole, "table_top", values.get("table_top"), 1, 4),
        "best_losers": collect(
            errors, _whole, "best_losers", values.get("best_losers") or 0, 0, MAX_PLACE
        )
        or 0,
        "carry_rounding": collect(
            errors,
            choice,
            "carry_rounding",
            values.get("carry_rounding") or "toward_zero",
            Stage.CarryRounding,
        ),
        "games_per_table": collect(
            errors, _whole, "games_per_table", values.get("games_per_table"), 1, 12
        ),
        "seating": collect(errors, choice, "seating", values.get("seating") or "", Stage.Seating)
        if values.get("seating")
        else "",
    }
    raise_all(errors)
    if entry == "ranks":
        if out["rank_from"] is None or out["rank_to"] is None:
            raise RuleError(
                "rank_to" if out["rank_from"] is not None else "rank_from",
                _("a rank range needs its first place (rank_from) and last (rank_to)."),
            )
        if out["rank_to"] < out["rank_from"]:
            raise RuleError("rank_to", _("the last place comes at or after the first (rank_from)."))
    else:
        for name in ("rank_from", "rank_to"):
            if out[name] is not None:
                raise RuleError(name, _("only a rank range (entry ranks) takes places."))
    if entry == "tables" and out["table_top"] is None:
        raise RuleError("table_top", _("say how many players each table sends on."))
    if entry != "tables" and (out["table_top"] is not None or out["best_losers"]):
        raise RuleError(
            "table_top" if out["table_top"] is not None else "best_losers",
            _("only a cut by table (entry tables) takes table winners and best losers."),
        )
    return out
