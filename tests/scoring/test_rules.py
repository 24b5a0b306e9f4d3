"""Rule sets, presets (docs/rules/presets.md) and option validation."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

import pytest

from scoring import i18n
from scoring.errors import RuleError, RuleErrors
from scoring.rules import (
    CHOICE_LABELS,
    DEFAULT_PRESET,
    OPTION_LABELS,
    OPTIONS,
    PRESET_NAMES,
    PRESET_RANKING,
    PRESET_TABLE_SIZE,
    PRESETS,
    RuleSet,
    games_at,
    resolve_rules,
)
from tests.scoring.helpers import rule_error

# docs/rules/presets.md, written out in full so that a change to a preset shows up here.
DEFAULTS: dict[str, Any] = {
    "timeout_draw": 1,
    "failed_manipulation_draw": 3,
    "no_meld_charge": None,
    "no_meld_declined_charge": None,
    "no_meld_pays_each": False,
    "loss_cap": None,
    "win_bonus": 0,
    "runner_up_bonus": 0,
    "placement_points": {"2": [4, 0], "3": [4, 2, 0], "4": [4, 3, 1, 0]},
}
LOWEST_DIFFERENCE = {"exhausted_winner": "lowest_points", "exhausted_scoring": "difference"}
EXPECTED_PRESETS: dict[str, dict[str, Any]] = {
    "standard": DEFAULTS
    | LOWEST_DIFFERENCE
    | {"initial_meld": 30, "turn_seconds": 120, "joker_penalty": 30},
    "pressman-1985": DEFAULTS
    | LOWEST_DIFFERENCE
    | {"initial_meld": 50, "turn_seconds": 120, "joker_penalty": 30},
    "encyclopedia": DEFAULTS
    | {"initial_meld": 30, "turn_seconds": 60, "joker_penalty": 30}
    | {"exhausted_winner": "fewest_tiles", "exhausted_scoring": "full"}
    | {"no_meld_pays_each": True},
    "mso": DEFAULTS
    | LOWEST_DIFFERENCE
    | {"initial_meld": 30, "turn_seconds": None, "joker_penalty": 50}
    | {"no_meld_charge": 100, "no_meld_declined_charge": 200},
    "league": DEFAULTS
    | LOWEST_DIFFERENCE
    | {"initial_meld": 30, "turn_seconds": 60, "joker_penalty": 30}
    | {"loss_cap": 25, "win_bonus": 50, "runner_up_bonus": 5},
    "lowest-wins": DEFAULTS
    | LOWEST_DIFFERENCE
    | {"initial_meld": 30, "turn_seconds": 120, "joker_penalty": 30},
}


@pytest.mark.parametrize("name", list(EXPECTED_PRESETS))
def test_presets_are_the_rules_table(name: str) -> None:
    assert PRESETS[name].as_dict() == {"preset": name} | EXPECTED_PRESETS[name]


def test_preset_names_rankings_and_table_sizes() -> None:
    assert set(PRESETS) == set(PRESET_NAMES) == set(EXPECTED_PRESETS)
    assert DEFAULT_PRESET == "standard"
    assert PRESET_RANKING == {
        "standard": ("games_won", "score"),
        "pressman-1985": ("score",),
        "encyclopedia": ("score",),
        "mso": ("score",),
        "league": ("score",),
        "lowest-wins": ("rack_total",),
    }
    assert {name: 2 if name == "mso" else 4 for name in PRESET_NAMES} == PRESET_TABLE_SIZE


def test_the_options_registry_describes_every_option() -> None:
    assert list(OPTIONS) == [item.name for item in fields(RuleSet)][1:]
    for name, option in OPTIONS.items():
        assert option.name == name and option.help
    not_scoring = {name for name, option in OPTIONS.items() if not option.affects_scoring}
    assert not_scoring == {
        "initial_meld",
        "turn_seconds",
        "timeout_draw",
        "failed_manipulation_draw",
        "placement_points",
    }
    assert OPTIONS["loss_cap"].describe() == "a whole number from 1 to 1000 or null"
    assert OPTIONS["no_meld_pays_each"].describe() == "true or false"
    assert OPTIONS["exhausted_scoring"].describe() == "one of difference, full"


def test_every_option_and_choice_has_words_for_a_page() -> None:
    # The words are the key's own (the English pages keep reading the same); a new option
    # or choice without them fails here instead of showing a bare key to a reader.
    assert list(OPTION_LABELS) == list(OPTIONS)
    for name, label in OPTION_LABELS.items():
        assert label == name.replace("_", " ").capitalize()
    choices = {choice for option in OPTIONS.values() for choice in option.choices}
    assert set(CHOICE_LABELS) == choices
    for choice, label in CHOICE_LABELS.items():
        assert label == choice.replace("_", " ")


def test_option_errors_are_made_through_the_translator() -> None:
    before = (i18n._translate, i18n._translate_plural)
    i18n.install(lambda message: f"[{message}]", lambda one, many, n: one if n == 1 else many)
    try:
        with pytest.raises(RuleError) as caught:
            OPTIONS["loss_cap"].check(0)
        with pytest.raises(RuleError) as unknown:
            resolve_rules("standard", {"colour_blind": True})
    finally:
        i18n.install(*before)
    # Both the sentence and the phrase inside it went through the translator, whole.
    assert caught.value.message == (
        "[loss_cap must be [a whole number from 1 to 1000 or null], not 0]"
    )
    assert unknown.value.flatten()[0].message.startswith('[unknown option "colour_blind";')


# --- resolving a preset and overrides ---------------------------------------------------


def test_no_preset_is_standard() -> None:
    assert resolve_rules() == PRESETS["standard"]
    assert resolve_rules(None, {}) == PRESETS["standard"]


def test_a_preset_without_overrides() -> None:
    assert resolve_rules("mso") == PRESETS["mso"]


def test_overrides_change_single_options() -> None:
    resolved = resolve_rules("pressman-1985", {"turn_seconds": 60, "loss_cap": None})
    assert resolved.preset == "pressman-1985"
    assert resolved.turn_seconds == 60 and resolved.initial_meld == 50
    assert resolve_rules("mso", {"no_meld_charge": None}).no_meld_charge is None


@pytest.mark.parametrize("preset", ["nope", "Standard", "", 5])
def test_an_unknown_preset_is_named(preset: Any) -> None:
    with rule_error(("preset",), json.dumps(preset), "standard"):
        resolve_rules(preset)


def test_an_unknown_option_is_named() -> None:
    with rule_error(("rules", "colour_blind"), "unknown option", '"colour_blind"'):
        resolve_rules("standard", {"colour_blind": True})


def test_the_preset_cannot_be_overridden() -> None:
    with rule_error(("rules", "preset"), "preset"):
        resolve_rules("standard", {"preset": "mso"})


@pytest.mark.parametrize(
    ("name", "value", "shown"),
    [
        ("joker_penalty", True, "true"),  # bool is not a number of points
        ("joker_penalty", "30", '"30"'),
        ("joker_penalty", 30.0, "30.0"),
        ("initial_meld", False, "false"),
        ("turn_seconds", "60", '"60"'),
        ("timeout_draw", 1.5, "1.5"),
        ("loss_cap", [25], "[25]"),
        ("win_bonus", {"points": 5}, '{"points": 5}'),
        ("no_meld_pays_each", 1, "1"),
        ("no_meld_pays_each", "true", '"true"'),
        ("exhausted_winner", 1, "1"),
        ("exhausted_scoring", ["full"], '["full"]'),
        ("exhausted_scoring", "Full", '"Full"'),
        ("exhausted_winner", "most_tiles", '"most_tiles"'),
        ("no_meld_charge", object(), "<object"),
    ],
)
def test_a_wrong_type_or_choice_names_the_option_and_value(
    name: str, value: object, shown: str
) -> None:
    with rule_error(("rules", name), name, shown):
        resolve_rules("standard", {name: value})


def _bounds() -> list[tuple[str, int]]:
    cases = []
    for name, option in OPTIONS.items():
        if option.kind == "int":
            assert option.minimum is not None and option.maximum is not None
            cases += [(name, option.minimum - 1), (name, option.maximum + 1)]
    return cases


@pytest.mark.parametrize(("name", "value"), _bounds())
def test_out_of_range_names_the_option_and_its_range(name: str, value: int) -> None:
    option = OPTIONS[name]
    with rule_error(
        ("rules", name), name, str(value), f"from {option.minimum} to {option.maximum}"
    ):
        resolve_rules("standard", {name: value})


@pytest.mark.parametrize(("name", "value"), _bounds())
def test_the_bounds_themselves_are_allowed(name: str, value: int) -> None:
    inside = (
        OPTIONS[name].minimum if value < (OPTIONS[name].minimum or 0) else OPTIONS[name].maximum
    )
    assert getattr(resolve_rules("standard", {name: inside}), name) == inside


@pytest.mark.parametrize("name", [n for n, option in OPTIONS.items() if not option.nullable])
def test_null_where_not_allowed(name: str) -> None:
    with rule_error(("rules", name), name, "null"):
        resolve_rules("standard", {name: None})


@pytest.mark.parametrize("name", [n for n, option in OPTIONS.items() if option.nullable])
def test_null_where_allowed(name: str) -> None:
    assert getattr(resolve_rules("league", {name: None}), name) is None


def test_nullable_options_are_exactly_these() -> None:
    nullable = {name for name, option in OPTIONS.items() if option.nullable}
    assert nullable == {"turn_seconds", "no_meld_charge", "no_meld_declined_charge", "loss_cap"}


def test_every_bad_override_is_reported_at_once() -> None:
    with pytest.raises(RuleErrors) as info:
        resolve_rules("standard", {"joker_penalty": -1, "loss_cap": 0, "bogus": 1})
    assert {error.path for error in info.value.errors} == {
        ("rules", "joker_penalty"),
        ("rules", "loss_cap"),
        ("rules", "bogus"),
    }


def test_a_rule_set_built_by_hand_is_checked_too() -> None:
    with rule_error(("rules", "win_bonus"), "win_bonus"):
        RuleSet(**(PRESETS["standard"].as_dict() | {"win_bonus": -5}))


# --- storing and reloading -----------------------------------------------------------------


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_as_dict_is_json_and_from_dict_reloads_it(name: str) -> None:
    stored = json.loads(json.dumps(PRESETS[name].as_dict()))
    assert RuleSet.from_dict(stored) == PRESETS[name]


def test_as_dict_has_the_preset_and_every_option() -> None:
    assert list(resolve_rules().as_dict()) == ["preset", *OPTIONS]


def test_from_dict_requires_every_option() -> None:
    stored = PRESETS["standard"].as_dict()
    del stored["loss_cap"]
    with rule_error(("rules", "loss_cap"), "loss_cap", "missing"):
        RuleSet.from_dict(stored)


def test_from_dict_refuses_unknown_options() -> None:
    with rule_error(("rules", "house_rule"), "house_rule"):
        RuleSet.from_dict(PRESETS["standard"].as_dict() | {"house_rule": 1})


def test_from_dict_checks_values_and_the_preset() -> None:
    with rule_error(("rules", "preset"), '"house"'):
        RuleSet.from_dict(PRESETS["standard"].as_dict() | {"preset": "house"})
    with rule_error(("rules", "joker_penalty"), "joker_penalty"):
        RuleSet.from_dict(PRESETS["standard"].as_dict() | {"joker_penalty": "30"})


def test_a_rule_set_is_immutable() -> None:
    with pytest.raises(AttributeError):
        PRESETS["standard"].joker_penalty = 50  # type: ignore[misc]


def test_rule_errors_are_rule_errors() -> None:
    with pytest.raises(RuleError):
        resolve_rules("standard", {"joker_penalty": -1, "loss_cap": 0})


# --- the placement table -------------------------------------------------------------


def test_a_placement_override_keeps_the_other_sizes_and_stores_as_json() -> None:
    rule_set = resolve_rules("standard", {"placement_points": {4: [5, 3, 2, 0]}})
    expected = {"2": [4, 0], "3": [4, 2, 0], "4": [5, 3, 2, 0]}
    assert rule_set.as_dict()["placement_points"] == expected
    assert rule_set.placement_table()[4] == (5, 3, 2, 0)
    stored = json.loads(json.dumps(rule_set.as_dict()))
    assert RuleSet.from_dict(stored) == rule_set
    assert hash(RuleSet.from_dict(stored)) == hash(rule_set)


@pytest.mark.parametrize(
    ("table", "path", "words"),
    [
        ({"4": [4, 3, 1]}, ("rules", "placement_points", "4"), "needs 4 places"),
        ({"5": [1, 1, 1, 1, 1]}, ("rules", "placement_points", "5"), "2 to 4"),
        ([4, 3, 1, 0], ("rules", "placement_points"), "object of table size"),
        (None, ("rules", "placement_points"), "not null"),
    ],
)
def test_a_bad_placement_table_names_the_rules_field(table: object, path, words: str) -> None:
    with rule_error(path, words):
        resolve_rules("standard", {"placement_points": table})


def test_a_rule_set_stored_before_placement_points_takes_the_default() -> None:
    older = PRESETS["league"].as_dict()
    del older["placement_points"]
    assert RuleSet.from_dict(older) == PRESETS["league"]


@pytest.mark.parametrize(
    ("seats", "games_per_table", "games"),
    [(4, None, 4), (3, None, 3), (2, None, 2), (3, 4, 4), (4, 1, 1), (4, 12, 12)],
)
def test_a_table_plays_its_games_per_table_else_one_per_seat(seats, games_per_table, games):
    assert games_at(seats, games_per_table) == games
