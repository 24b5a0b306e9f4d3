"""Reads that several pages share: the standings table as the pages show it, and the
resolved rules beside the tournament form.

Terms:
* shown metrics — the tournament's ranking metrics in ranking order, then the usual
  counts (games played, games won, score, penalties) that are not already among them.
* stale — the snapshot was computed from an older `results_version` than the
  tournament's; it is shown as it is (marked "updating…") while a worker catches up.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tournaments.models import Tournament

from .errors import RuleError
from .rules import DEFAULT_PRESET, OPTIONS, PRESET_RANKING, PRESETS, resolve_rules
from .services import standings_for_read
from .standings import METRICS, Metric, validate_ranking

ALWAYS_SHOWN = ("games_played", "games_won", "score", "penalties")


@dataclass(frozen=True)
class StandingsTable:
    columns: tuple[Metric, ...]
    rows: list[dict[str, Any]]  # as stored: rank, player {id, number, name, ...}, metrics
    computed_at: datetime
    computed_version: int
    stale: bool

    @property
    def cells(self) -> list[tuple[dict[str, Any], list[int | None]]]:
        """Each row with its metric values in column order (templates cannot index)."""
        keys = [column.key for column in self.columns]
        return [(row, [row["metrics"].get(key) for key in keys]) for row in self.rows]


def standings_table(tournament: Tournament) -> StandingsTable:
    snapshot, stale = standings_for_read(tournament)
    ranking = [key for key in snapshot.ranking if key in METRICS]
    keys = ranking + [key for key in ALWAYS_SHOWN if key not in ranking]
    return StandingsTable(
        columns=tuple(METRICS[key] for key in keys),
        rows=snapshot.rows,
        computed_at=snapshot.computed_at,
        computed_version=snapshot.computed_version,
        stale=stale,
    )


@dataclass(frozen=True)
class OptionRow:
    name: str
    value: Any
    preset_value: Any
    help: str

    @property
    def overridden(self) -> bool:
        return self.value != self.preset_value

    @property
    def shown(self) -> str:
        return _show(self.value)

    @property
    def preset_shown(self) -> str:
        return _show(self.preset_value)


def _show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("_", " ")


@dataclass(frozen=True)
class RulesPreview:
    """Every option of a preset with the overrides applied, and the ranking: what the
    tournament form shows beside itself. `errors` holds what the rules refuse."""

    preset: str
    options: tuple[OptionRow, ...]
    ranking: tuple[Metric, ...]
    ranking_is_default: bool
    errors: tuple[str, ...]


def rules_preview(
    preset: str, overrides: dict[str, Any], ranking: list[str] | None
) -> RulesPreview:
    """Resolve the rules the way tournament_create will; nothing is stored."""
    errors: list[str] = []
    if preset not in PRESETS:
        preset = DEFAULT_PRESET
    base = resolve_rules(preset)
    try:
        resolved = resolve_rules(preset, overrides)
    except RuleError as error:
        errors += [str(single) for single in error.flatten()]
        # Show the options that are fine; the refused ones keep the preset's value.
        good = {}
        for name, value in overrides.items():
            try:
                OPTIONS[name].check(value)
                good[name] = value
            except (KeyError, RuleError):
                continue
        resolved = resolve_rules(preset, good)
    keys = list(ranking) if ranking else list(PRESET_RANKING[preset])
    try:
        validate_ranking(keys)
    except RuleError as error:
        errors += [str(single) for single in error.flatten()]
        keys = [key for key in keys if key in METRICS]
    return RulesPreview(
        preset=preset,
        options=tuple(
            OptionRow(name, getattr(resolved, name), getattr(base, name), option.help)
            for name, option in OPTIONS.items()
        ),
        ranking=tuple(METRICS[key] for key in dict.fromkeys(keys)),
        ranking_is_default=not ranking,
        errors=tuple(errors),
    )
