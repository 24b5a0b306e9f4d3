"""Rule sets: the options on which Rummikub rule texts disagree, and their presets.

Terms (docs/rules/scoring.md, docs/rules/penalties.md, docs/rules/presets.md):

* **option** — one setting of a rule set, e.g. ``joker_penalty``. ``OPTIONS`` describes
  each: its kind, bounds or choices, whether null is allowed, and a help text for forms.
* **rule set** — a value for every option plus the name of the preset it started from.
  A tournament stores all of it, so changing a preset later never changes its results.
* **preset** — a named rule set people actually play (``PRESETS``), with a default
  standings ranking (``PRESET_RANKING``) and table size (``PRESET_TABLE_SIZE``).
* **override** — an option value that replaces the preset's (``resolve_rules``).
* **option label** — what an option is called on a page (``OPTION_LABELS``:
  ``joker_penalty`` reads "Joker penalty").
* **choice label** — the words shown for a choice option's stored value
  (``CHOICE_LABELS``: ``lowest_points`` reads "lowest points").
* **placement table** — the one option that is not a single value: ``placement_points``,
  the points by finishing place per table size (``scoring.placement``), kept as JSON
  keeps it (``{"2": [4, 0], "3": [4, 2, 0], "4": [4, 3, 1, 0]}``). An override may give
  only some sizes; the others keep the default. It changes no game score, only the
  ``placement_points`` standings metric.
* **games per table** — how many games a table plays in a round (``games_at``): the
  tournament's ``games_per_table``, or one game per seated player when that is None
  (docs/rules/standings.md). The only place this rule is written.

Help texts and choice labels are marked with ``gettext_noop`` (``scoring.i18n``): the
catalogs hold them, and the form, panel or API that shows one translates it then. Error
messages are translated when raised, inside the request that caused them.

Every RuleSet is valid: its constructor checks every option, so a rule set read back
from storage or built by hand is held to the same bounds as one typed into a form.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from scoring.errors import RuleError, raise_all
from scoring.i18n import _, gettext_noop
from scoring.placement import DEFAULT_PLACEMENT_POINTS, as_stored, check_placement_points

ExhaustedWinner = Literal["lowest_points", "fewest_tiles"]
ExhaustedScoring = Literal["difference", "full"]

PRESET_NAMES = ("standard", "pressman-1985", "encyclopedia", "mso", "league", "lowest-wins")
DEFAULT_PRESET = "standard"


@dataclass(frozen=True)
class Option:
    """How one option may be set. ``kind`` is ``int``, ``bool``, ``choice`` or
    ``points`` (a placement table)."""

    name: str
    kind: Literal["int", "bool", "choice", "points"]
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    nullable: bool = False
    affects_scoring: bool = True  # False: recorded for play and penalties only

    def check(self, value: object) -> None:
        """Raise a RuleError on ``("rules", name)`` unless ``value`` is allowed."""
        if self.kind == "points" and value is not None:
            # Names the table size that is wrong: ("rules", "placement_points", "4").
            check_placement_points(value, ("rules", self.name))
            return
        if value is None:
            allowed = self.nullable
        elif self.kind == "bool":
            allowed = isinstance(value, bool)
        elif self.kind == "choice":
            allowed = isinstance(value, str) and value in self.choices
        else:
            # bool is a subclass of int in Python, but ``true`` is not a number of points.
            allowed = (
                isinstance(value, int)
                and not isinstance(value, bool)
                and self.minimum <= value <= self.maximum  # type: ignore[operator]
            )
        if not allowed:
            raise self._error(
                _("{option} must be {allowed}, not {value}").format(
                    option=self.name, allowed=self.describe(), value=_as_typed(value)
                )
            )

    def describe(self) -> str:
        """What the option accepts, in words: "a whole number from 0 to 1000 or null"."""
        # Whole phrases, one per case, so a translation never glues " or null" onto a
        # phrase whose grammar it does not fit.
        if self.kind == "choice":
            choices = ", ".join(self.choices)
            if self.nullable:
                return _("one of {choices} or null").format(choices=choices)
            return _("one of {choices}").format(choices=choices)
        if self.kind == "points":
            return _("points by place for each table size, e.g. {example}").format(
                example='{"4": [4, 3, 1, 0]}'
            )
        if self.kind == "bool":
            return _("true or false or null") if self.nullable else _("true or false")
        if self.nullable:
            return _("a whole number from {minimum} to {maximum} or null").format(
                minimum=self.minimum, maximum=self.maximum
            )
        return _("a whole number from {minimum} to {maximum}").format(
            minimum=self.minimum, maximum=self.maximum
        )

    def _error(self, message: str) -> RuleError:
        return RuleError(("rules", self.name), message)


def _as_typed(value: object) -> str:
    """A value as the organiser typed it in JSON: ``"30"``, ``true``, ``30.5``."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _int_option(
    name: str, low: int, high: int, help: str, *, nullable: bool = False, scoring: bool = True
) -> Option:
    return Option(name, "int", help, low, high, nullable=nullable, affects_scoring=scoring)


OPTIONS: dict[str, Option] = {
    option.name: option
    for option in (
        _int_option(
            "initial_meld",
            0,
            200,
            gettext_noop(
                "Points the opening meld must reach (for the players; the scorer does not check)."
            ),
            scoring=False,
        ),
        _int_option(
            "turn_seconds",
            10,
            3600,
            gettext_noop("Time limit of a turn in seconds; null for no limit."),
            nullable=True,
            scoring=False,
        ),
        _int_option(
            "timeout_draw",
            0,
            10,
            gettext_noop("Tiles drawn for running past the turn limit."),
            scoring=False,
        ),
        _int_option(
            "failed_manipulation_draw",
            0,
            10,
            gettext_noop("Tiles drawn for leaving invalid sets on the table."),
            scoring=False,
        ),
        _int_option(
            "joker_penalty", 0, 1000, gettext_noop("Points charged for each joker left on a rack.")
        ),
        Option(
            "exhausted_winner",
            "choice",
            gettext_noop("Who wins when the pool runs out: lowest rack points or fewest tiles."),
            choices=("lowest_points", "fewest_tiles"),
        ),
        Option(
            "exhausted_scoring",
            "choice",
            gettext_noop(
                "When the pool runs out, losers pay the difference to the winner's rack "
                "or their full rack."
            ),
            choices=("difference", "full"),
        ),
        _int_option(
            "no_meld_charge",
            0,
            1000,
            gettext_noop(
                "Fixed charge instead of the rack for a player who could not make the "
                "opening meld; null charges the rack."
            ),
            nullable=True,
        ),
        _int_option(
            "no_meld_declined_charge",
            0,
            1000,
            gettext_noop(
                "Fixed charge for a player who could have melded and chose not to; "
                "null uses the no-meld charge."
            ),
            nullable=True,
        ),
        Option(
            "no_meld_pays_each",
            "bool",
            gettext_noop(
                "A loser without an opening meld pays every other player, not just the winner."
            ),
        ),
        _int_option(
            "loss_cap",
            1,
            1000,
            gettext_noop("Most one loser pays in one game; null for no cap."),
            nullable=True,
        ),
        _int_option(
            "win_bonus", 0, 1000, gettext_noop("Points added to each winner's game score.")
        ),
        _int_option(
            "runner_up_bonus", 0, 1000, gettext_noop("Points added to the loser(s) who paid least.")
        ),
        Option(
            "placement_points",
            "points",
            gettext_noop(
                "Placement points by finishing place at tables of 4, 3 and 2 (the winner "
                "first, then the others by game score; equal scores share the better place). "
                "Counted by the placement_points ranking metric; no game score changes."
            ),
            affects_scoring=False,
        ),
    )
}

# What an option is called on a page: its name in words (translate where shown). The key
# (``joker_penalty``) stays what the API and the stored rules use.
OPTION_LABELS: dict[str, str] = {
    "initial_meld": gettext_noop("Initial meld"),
    "turn_seconds": gettext_noop("Turn seconds"),
    "timeout_draw": gettext_noop("Timeout draw"),
    "failed_manipulation_draw": gettext_noop("Failed manipulation draw"),
    "joker_penalty": gettext_noop("Joker penalty"),
    "exhausted_winner": gettext_noop("Exhausted winner"),
    "exhausted_scoring": gettext_noop("Exhausted scoring"),
    "no_meld_charge": gettext_noop("No meld charge"),
    "no_meld_declined_charge": gettext_noop("No meld declined charge"),
    "no_meld_pays_each": gettext_noop("No meld pays each"),
    "loss_cap": gettext_noop("Loss cap"),
    "win_bonus": gettext_noop("Win bonus"),
    "runner_up_bonus": gettext_noop("Runner up bonus"),
    "placement_points": gettext_noop("Placement points"),
}

# What a choice option's stored value reads as (translate where shown).
CHOICE_LABELS: dict[str, str] = {
    "lowest_points": gettext_noop("lowest points"),
    "fewest_tiles": gettext_noop("fewest tiles"),
    "difference": gettext_noop("difference"),
    "full": gettext_noop("full"),
}

# Options added after rule sets were first stored: a stored rule set without one (an
# older event file) takes its default rather than being refused.
_ADDED_LATER: dict[str, Any] = {"placement_points": as_stored(DEFAULT_PLACEMENT_POINTS)}


@dataclass(frozen=True)
class RuleSet:
    """A preset name and a value for every option (docs/rules/presets.md)."""

    preset: str
    initial_meld: int
    turn_seconds: int | None
    timeout_draw: int
    failed_manipulation_draw: int
    joker_penalty: int
    exhausted_winner: ExhaustedWinner
    exhausted_scoring: ExhaustedScoring
    no_meld_charge: int | None
    no_meld_declined_charge: int | None
    no_meld_pays_each: bool
    loss_cap: int | None
    win_bonus: int
    runner_up_bonus: int
    # Table size (as text, as JSON keys are) -> points by place; every size 2-4 present.
    placement_points: Mapping[str, list[int]]

    def __post_init__(self) -> None:
        errors: list[RuleError] = []
        if self.preset not in PRESET_NAMES:
            errors.append(_unknown_preset(self.preset, ("rules", "preset")))
        for name, option in OPTIONS.items():
            try:
                option.check(getattr(self, name))
            except RuleError as error:
                errors.append(error)
        raise_all(errors)
        # One form for the same table however it was given (sizes as numbers or text,
        # some sizes left out): equal rule sets compare equal and store the same JSON.
        whole = check_placement_points(self.placement_points, ("rules", "placement_points"))
        object.__setattr__(self, "placement_points", as_stored(whole))

    def __hash__(self) -> int:
        return hash(json.dumps(self.as_dict(), sort_keys=True))

    def placement_table(self) -> dict[int, tuple[int, ...]]:
        """The placement table with sizes as numbers (``scoring.placement``)."""
        return {int(size): tuple(points) for size, points in self.placement_points.items()}

    def as_dict(self) -> dict[str, Any]:
        """Every option and the preset, JSON-ready."""
        data = {item.name: getattr(self, item.name) for item in fields(self)}
        data["placement_points"] = as_stored(self.placement_table())
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """A stored rule set back; every option must be present and valid."""
        names = [item.name for item in fields(cls)]
        data = {**_ADDED_LATER, **data}
        errors = [
            RuleError(("rules", name), _("option {name} is missing").format(name=name))
            for name in names
            if name not in data
        ]
        errors += [_unknown_option(key) for key in data if key not in names]
        raise_all(errors)
        return cls(**data)


def _unknown_preset(name: object, field: str | tuple[str, ...] = "preset") -> RuleError:
    return RuleError(
        field,
        _("unknown preset {name}; presets are {presets}").format(
            name=_as_typed(name), presets=", ".join(PRESET_NAMES)
        ),
    )


def _unknown_option(name: object) -> RuleError:
    return RuleError(
        ("rules", str(name)),
        _("unknown option {name}; options are {options}").format(
            name=_as_typed(name), options=", ".join(OPTIONS)
        ),
    )


_DEFAULTS: dict[str, Any] = {
    "initial_meld": 30,
    "turn_seconds": 120,
    "timeout_draw": 1,
    "failed_manipulation_draw": 3,
    "joker_penalty": 30,
    "exhausted_winner": "lowest_points",
    "exhausted_scoring": "difference",
    "no_meld_charge": None,
    "no_meld_declined_charge": None,
    "no_meld_pays_each": False,
    "loss_cap": None,
    "win_bonus": 0,
    "runner_up_bonus": 0,
    "placement_points": as_stored(DEFAULT_PLACEMENT_POINTS),
}

# docs/rules/presets.md, one row per preset: only what differs from the defaults.
_PRESET_CHANGES: dict[str, dict[str, Any]] = {
    "standard": {},
    "pressman-1985": {"initial_meld": 50},
    "encyclopedia": {
        "turn_seconds": 60,
        "exhausted_winner": "fewest_tiles",
        "exhausted_scoring": "full",
        "no_meld_pays_each": True,
    },
    "mso": {
        "turn_seconds": None,
        "joker_penalty": 50,
        "no_meld_charge": 100,
        "no_meld_declined_charge": 200,
    },
    "league": {"turn_seconds": 60, "loss_cap": 25, "win_bonus": 50, "runner_up_bonus": 5},
    "lowest-wins": {},
}

PRESETS: dict[str, RuleSet] = {
    name: RuleSet(preset=name, **(_DEFAULTS | _PRESET_CHANGES[name])) for name in PRESET_NAMES
}

PRESET_RANKING: dict[str, tuple[str, ...]] = {
    "standard": ("games_won", "score"),
    "pressman-1985": ("score",),
    "encyclopedia": ("score",),
    "mso": ("score",),
    "league": ("score",),
    "lowest-wins": ("rack_total",),
}

PRESET_TABLE_SIZE: dict[str, int] = {name: 2 if name == "mso" else 4 for name in PRESET_NAMES}

# What a preset is called on a page and what it is, in one line (docs/rules/presets.md);
# the key stays what the API and the stored rules spell.
PRESET_LABELS: dict[str, tuple[str, str]] = {
    "standard": (
        gettext_noop("Standard club rules"),
        gettext_noop("Meld 30, two-minute turns; ranked by games won, then score."),
    ),
    "pressman-1985": (
        gettext_noop("Pressman 1985 (Sabra Way)"),
        gettext_noop("The 1985 box rules: a first meld of 50; ranked by score."),
    ),
    "encyclopedia": (
        gettext_noop("Encyclopedia"),
        gettext_noop("60-second turns; a pool-exhausted game is won on fewest tiles."),
    ),
    "mso": (
        gettext_noop("Mind Sports Olympiad (tables of 2)"),
        gettext_noop("Head-to-head games, joker 50, heavy charges for not melding."),
    ),
    "league": (
        gettext_noop("League"),
        gettext_noop("60-second turns, losses capped at 25, bonuses for first and second."),
    ),
    "lowest-wins": (
        gettext_noop("Lowest wins (senior clubs)"),
        gettext_noop("Standard play, ranked by the lowest rack total over the event."),
    ),
}


def resolve_rules(
    preset: str | None = None, overrides: Mapping[str, object] | None = None
) -> RuleSet:
    """The preset (default ``standard``) with single options overridden.

    The preset is chosen on its own, so ``preset`` among the overrides is refused rather
    than silently switching presets.
    """
    name = DEFAULT_PRESET if preset is None else preset
    if not isinstance(name, str) or name not in PRESETS:
        raise _unknown_preset(name)
    overrides = overrides or {}
    errors: list[RuleError] = []
    for key, value in overrides.items():
        if key == "preset":
            errors.append(
                RuleError(
                    ("rules", "preset"),
                    _("the preset is chosen on its own, not among the rule options"),
                )
            )
        elif key not in OPTIONS:
            errors.append(_unknown_option(key))
        else:
            try:
                OPTIONS[key].check(value)
            except RuleError as error:
                errors.append(error)
    raise_all(errors)
    return replace(PRESETS[name], **overrides)  # type: ignore[arg-type]


def overrides_of(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The options of stored rules (``RuleSet.as_dict()``) that differ from their preset:
    what an organiser chose on top of it."""
    preset = PRESETS[rules["preset"]].as_dict()
    return {k: v for k, v in rules.items() if k != "preset" and preset.get(k) != v}


def games_at(seats: int, games_per_table: int | None) -> int:
    """How many games a table of `seats` plays: `games_per_table` when the tournament
    sets it, else one per seated player, so each player starts one game
    (docs/rules/standings.md).

    >>> games_at(3, None), games_at(4, None), games_at(3, 2)
    (3, 4, 2)
    """
    return games_per_table or seats
