"""The resolved-rules panel beside the tournament form: every option of a preset with the
organiser's overrides applied, and the ranking — resolved the way `tournament_create`
will, nothing stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.errors import RuleError
from scoring.rules import (
    CHOICE_LABELS,
    DEFAULT_PRESET,
    OPTION_LABELS,
    OPTIONS,
    PRESET_LABELS,
    PRESET_RANKING,
    PRESETS,
    resolve_rules,
)
from scoring.standings import METRICS, Metric, validate_ranking


@dataclass(frozen=True)
class OptionRow:
    name: str  # the key, as the API and the stored rules spell it
    label: str  # the option's name in words, in the reader's language
    value: Any
    preset_value: Any
    help: str

    @property
    def overridden(self) -> bool:
        return self.value != self.preset_value

    @property
    def shown(self) -> str:
        return as_shown(self.value)

    @property
    def preset_shown(self) -> str:
        return as_shown(self.preset_value)


def as_shown(value: Any) -> str:
    """An option's value in words: "none", "yes"/"no", underscores as spaces. A choice
    (``lowest_points``) is shown as its words, translated when the catalogs know them."""
    if value is None:
        return pgettext("rule option value", "none")
    if isinstance(value, dict):
        # The placement table, a phrase per table size in the reader's language:
        # "tables of 4: 4/3/1/0 · tables of 3: 4/2/0 · tables of 2: 4/0".
        return " · ".join(
            pgettext("placement points by table size", "tables of {size}: {points}").format(
                size=size, points="/".join(str(v) for v in value[size])
            )
            for size in sorted(value, key=lambda size: -int(size))
        )
    if isinstance(value, bool):
        if value:
            return pgettext("rule option value", "yes")
        return pgettext("rule option value", "no")
    if isinstance(value, str):
        return _(CHOICE_LABELS.get(value, value.replace("_", " ")))
    return str(value)


@dataclass(frozen=True)
class RulesPreview:
    """Every option of a preset with the overrides applied, and the ranking: what the
    tournament form shows beside itself. `errors` holds what the rules refuse."""

    preset: str
    options: tuple[OptionRow, ...]
    ranking: tuple[Metric, ...]
    ranking_is_default: bool
    errors: tuple[str, ...]
    # The chosen ranking is refused: `ranking` shows its valid part (never the preset's
    # in its place) and `errors` says why.
    ranking_invalid: bool = False

    @property
    def preset_name(self) -> str:
        """The preset in words, in the reader's language ("Standard club rules")."""
        return _(PRESET_LABELS[self.preset][0])

    @property
    def preset_description(self) -> str:
        return _(PRESET_LABELS[self.preset][1])


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
    ranking_invalid = False
    try:
        validate_ranking(keys)
    except RuleError as error:
        errors += [capfirst(single.message) for single in error.flatten()]
        keys = [key for key in keys if key in METRICS and METRICS[key].direction is not None]
        ranking_invalid = True
    return RulesPreview(
        preset=preset,
        options=tuple(
            OptionRow(
                name,
                _(OPTION_LABELS[name]),
                getattr(resolved, name),
                getattr(base, name),
                _(option.help),
            )
            for name, option in OPTIONS.items()
        ),
        ranking=tuple(METRICS[key] for key in dict.fromkeys(keys)),
        ranking_is_default=not ranking,
        errors=tuple(errors),
        ranking_invalid=ranking_invalid,
    )
